import { chromium, type Browser, type Page } from 'playwright-core';
import { makeUser, PASSWORD } from '../support/factories';
import { waitFor } from '../support/wait';
import { startAppUnderTest, type AppUnderTest } from '../integration/app-helpers';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let app: AppUnderTest;
let browser: Browser;

beforeAll(async () => {
  app = await startAppUnderTest();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const whoami = (key: string) => fetch(`${app.url}/api/v1/whoami/`, { headers: { 'x-api-key': key } });

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${app.url}/admin/api/apikey/`);
  expect(new URL(page.url()).pathname).toBe('/admin/login/');
  await page.fill('#id_username', email);
  await page.fill('#id_password', password);
  await page.click('button[type=submit]');
}

describe('admin page /admin/api/apikey/ in Chromium', () => {
  jest.setTimeout(60_000);

  it('staff signs in, creates a key, reads it once, uses it, deactivates it, and the API refuses it', async () => {
    const staff = await makeUser(app.services, { staff: true });
    const page = await browser.newPage();
    await signIn(page, staff.email, PASSWORD);
    await page.waitForURL(`${app.url}/admin/api/apikey/`);
    expect(await page.textContent('h1')).toBe('API keys');

    await page.fill('#id_organization', 'Browser Org');
    await page.fill('#id_contact_email', 'browser@org.test');
    await page.click('fieldset button[type=submit]');
    const plaintext = (await page.textContent('[data-testid=plaintext-key]'))!.trim();
    expect(plaintext).toMatch(/^sdcapp_[A-Za-z0-9]{40}$/);

    const used = await whoami(plaintext);
    expect(used.status).toBe(200);
    expect(await used.json()).toEqual({ success: true, data: { organization: 'Browser Org' } });

    // Usage counts reach the database in batches, at least once a second (README, key cache): reload until then.
    const row = page.locator('tr', { hasText: 'Browser Org' });
    await waitFor(
      async () => {
        await page.goto(`${app.url}/admin/api/apikey/`);
        return row.locator('.request-count').textContent();
      },
      (count) => count === '1',
      3000,
      'request count 1 on the admin page',
    );
    expect(await page.content()).not.toContain(plaintext);
    expect(await row.locator('.active').textContent()).toBe('yes');
    expect(await row.textContent()).toContain(plaintext.slice(0, 12));
    expect(await row.textContent()).toContain('browser@org.test');

    await row.locator('button', { hasText: 'Deactivate' }).click();
    // The confirmation step: nothing changes until it is confirmed.
    expect(await page.textContent('h1')).toMatch(/^Deactivate key \d+\?$/);
    expect((await whoami(plaintext)).status).toBe(200);
    await page.click('[data-testid=confirm]');
    await page.waitForSelector('p.notice');
    expect(await page.locator('tr', { hasText: 'Browser Org' }).locator('.active').textContent()).toBe('no');

    const refused = await whoami(plaintext);
    expect(refused.status).toBe(401);
    expect((await refused.json()).error_code).toBe('AUTHENTICATION_ERROR');
    await page.close();
  });

  it('rotation shows the replacement once; the old key stops and the new one works', async () => {
    const staff = await makeUser(app.services, { staff: true });
    const { key: old, plaintext: oldPlaintext } = await app.services.app.keys.create({ organization: 'Rotating Org', contactEmail: 'rot@org.test' });
    const page = await browser.newPage();
    await signIn(page, staff.email, PASSWORD);
    await page.waitForURL(`${app.url}/admin/api/apikey/`);
    await page.locator(`tr[data-key-id="${old.id}"]`).locator('button', { hasText: 'Rotate' }).click();
    await page.click('[data-testid=confirm]');
    const replacement = (await page.textContent('[data-testid=plaintext-key]'))!.trim();
    expect(replacement).not.toBe(oldPlaintext);
    expect((await whoami(oldPlaintext)).status).toBe(401);
    expect((await whoami(replacement)).status).toBe(200);
    await page.close();
  });

  it('refuses a non-staff account and a form posted without the CSRF token', async () => {
    const user = await makeUser(app.services);
    const page = await browser.newPage();
    await signIn(page, user.email, PASSWORD);
    expect(await page.textContent('[role=alert]')).toContain('not a staff account');

    const staff = await makeUser(app.services, { staff: true });
    await signIn(page, staff.email, PASSWORD);
    await page.waitForURL(`${app.url}/admin/api/apikey/`);
    // A form without the session's token, as another page would post it.
    const navigation = page.waitForNavigation();
    await page.evaluate(() => {
      const forgery = document.createElement('form');
      forgery.method = 'post';
      forgery.action = '/admin/api/apikey/add/';
      for (const [name, value] of [
        ['organization', 'Forged'],
        ['contact_email', 'f@x.test'],
      ]) {
        const input = document.createElement('input');
        input.name = name;
        input.value = value;
        forgery.appendChild(input);
      }
      document.body.appendChild(forgery);
      forgery.submit();
    });
    expect((await navigation)?.status()).toBe(403);
    expect(await page.textContent('[role=alert]')).toContain('CSRF');
    expect(await app.services.db.query(`SELECT 1 FROM app_api_keys WHERE organization = 'Forged'`)).toEqual([]);
    await page.close();
  });
});
