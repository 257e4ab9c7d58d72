import { mkdtemp, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { makeUser, PASSWORD } from '../support/factories';
import { startAppUnderTest, type AppUnderTest } from '../integration/app-helpers';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'];
const NARROW = { width: 420, height: 900 };
// Screenshots go to a temp dir of this run (printed on failure) for a human to look at.

let app: AppUnderTest;
let browser: Browser;
let shots: string;

beforeAll(async () => {
  app = await startAppUnderTest();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  shots = await mkdtemp(path.join(os.tmpdir(), 'admin-420-'));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const whoami = (key: string) => fetch(`${app.url}/api/v1/whoami/`, { headers: { 'x-api-key': key } });

async function signedInPage(viewport = NARROW): Promise<Page> {
  const staff = await makeUser(app.services, { staff: true });
  const page = await browser.newPage({ viewport });
  await page.goto(`${app.url}/admin/login/`);
  await page.fill('#id_username', staff.email);
  await page.fill('#id_password', PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForURL(`${app.url}/admin/api/apikey/`);
  return page;
}

/** The page's width as laid out: wider than the viewport means a horizontal scroll bar on a phone. */
const scrollWidth = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth);

describe('admin pages at 420 px in Chromium', () => {
  jest.setTimeout(60_000);

  it('lay out the key list, a new key and the confirmation without horizontal overflow (screenshots saved)', async () => {
    for (let i = 0; i < 3; i += 1)
      await app.services.app.keys.create({
        organization: `Regional Statistics Office Number ${i} of the Federation`,
        contactEmail: `long.contact.address.${i}@statistics.example.org`,
      });
    const page = await signedInPage();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(NARROW.width);
    const list = path.join(shots, 'keys-420.png');
    await page.screenshot({ path: list, fullPage: true });
    expect((await stat(list)).size).toBeGreaterThan(1000);
    // The table scrolls inside its own container: its last column (the actions) stays reachable.
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.table-scroll')!).overflowX)).toBe('auto');
    await page.locator('tr', { hasText: 'Number 2' }).locator('button', { hasText: 'Rotate' }).scrollIntoViewIfNeeded();
    expect(await page.locator('tr', { hasText: 'Number 2' }).locator('button', { hasText: 'Rotate' }).isVisible()).toBe(true);

    await page.fill('#id_organization', 'Narrow Org');
    await page.fill('#id_contact_email', 'narrow@org.test');
    await page.click('fieldset button[type=submit]');
    await page.waitForSelector('[data-testid=plaintext-key]');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(NARROW.width);
    await page.screenshot({ path: path.join(shots, 'issued-420.png'), fullPage: true });

    await page.goto(`${app.url}/admin/api/apikey/`);
    await page.locator('tr', { hasText: 'Narrow Org' }).locator('button', { hasText: 'Rotate' }).click();
    await page.waitForSelector('[data-testid=confirm]');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(NARROW.width);
    await page.screenshot({ path: path.join(shots, 'confirm-420.png'), fullPage: true });
    await page.close();
  });

  it('asks before Deactivate without JavaScript; Cancel leaves the key working', async () => {
    const { key, plaintext } = await app.services.app.keys.create({ organization: 'Careful Org', contactEmail: 'careful@org.test' });
    const page = await signedInPage();
    await page.locator(`tr[data-key-id="${key.id}"]`).locator('button', { hasText: 'Deactivate' }).click();
    expect(await page.textContent('h1')).toBe(`Deactivate key ${key.id}?`);
    expect(await page.textContent('[role=alert]')).toContain('stops working at once');
    await page.click('text=Cancel');
    await page.waitForURL(`${app.url}/admin/api/apikey/`);
    expect(await page.locator(`tr[data-key-id="${key.id}"] .active`).textContent()).toBe('yes');
    expect((await whoami(plaintext)).status).toBe(200);

    await page.locator(`tr[data-key-id="${key.id}"]`).locator('button', { hasText: 'Deactivate' }).click();
    await page.click('[data-testid=confirm]');
    await page.waitForSelector('p.notice');
    expect(await page.locator(`tr[data-key-id="${key.id}"] .active`).textContent()).toBe('no');
    expect((await whoami(plaintext)).status).toBe(401);
    await page.close();
  });
});
