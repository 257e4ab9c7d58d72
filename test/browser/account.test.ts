import { readFile, mkdtemp, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { freePort } from '../../src/db/embedded-postgres';
import { Job } from '../../src/entities/job.entity';
import { newId } from '../../src/lib/ids';
import { startTestApp, type TestApp } from '../support/app';
import { makeUser, PASSWORD } from '../support/factories';

/** The account pages of issue 34 in Chromium: the whole flow with JavaScript, the same forms without it, 420 px
 * without horizontal overflow, axe-core on every page, and a form post from another site refused. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'];
const NARROW = { width: 420, height: 900 };
/** A mixed assembly (everything to mint): a job with several steps. */
const MIXED_ASSEMBLY = {
  title: 'Followed on the account page',
  data: {
    label: 'Followed Data',
    components: [
      { label: 'Seen', data_type: 'XdBoolean' },
      { label: 'Count of things', data_type: 'XdCount' },
    ],
  },
};

let app: TestApp;
let browser: Browser;
let axeSource: string;
let shots: string;

beforeAll(async () => {
  // A pause after each pipeline step, so the job page sees the steps arrive one by one.
  app = await startTestApp({ pipelineStepDelayMs: 400 });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  shots = await mkdtemp(path.join(os.tmpdir(), 'account-420-'));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const tokensList = (key: string) => fetch(`${app.url}/api/v1/auth/api-tokens/`, { headers: { authorization: `Token ${key}` } });

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${app.url}/account/keys/`);
  expect(new URL(page.url()).pathname).toBe('/account/login/');
  await page.fill('#id_email', email);
  await page.fill('#id_password', PASSWORD);
  await page.click('main button[type=submit]');
  await page.waitForURL(`${app.url}/account/keys/`);
}

async function createKey(page: Page, name: string, opts: { build?: boolean; spend?: boolean; limit?: string } = {}): Promise<string> {
  await page.goto(`${app.url}/account/keys/`);
  await page.fill('#id_name', name);
  if (opts.build) await page.check('input[name=scopes][value=build]');
  if (opts.spend) await page.check('input[name=scopes][value=spend]');
  if (opts.limit) await page.fill('#id_spend_limit_credits', opts.limit);
  await page.click('button:has-text("Create key")');
  return (await page.textContent('[data-testid=new-key]'))!.trim();
}

async function keyAction(page: Page, name: string, action: 'Rotate' | 'Revoke'): Promise<void> {
  await page.goto(`${app.url}/account/keys/`);
  await page.locator('tr', { hasText: name }).filter({ hasText: 'active' }).locator('button', { hasText: action }).click();
  expect(await page.textContent('h1')).toBe(`${action} key "${name}"?`);
  await page.click('[data-testid=confirm]');
}

/** Serious or critical axe-core violations of the page (rule id and the first offending element). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run(document);
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.html as string}`);
  });
  return violations;
}

const scrollWidth = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth);

describe('account pages in Chromium', () => {
  jest.setTimeout(120_000);

  it('sign in → key read+build limited to 5,000 shown once → used → rotate → revoke → wallet and a live job', async () => {
    const user = await makeUser(app.services, { credits: 20_000 });
    const flow = await browser.newContext();
    await flow.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    const page = await flow.newPage();
    await signIn(page, user.email);

    const key = await createKey(page, 'ci-build', { build: true, limit: '5000' });
    expect(key).toMatch(/^sdc_/);
    expect(await page.textContent('[role=status]')).toContain('will not be shown again');
    await page.click('button[data-copy]');
    await page.locator('button[data-copy]', { hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    const used = await tokensList(key);
    expect(used.status).toBe(200);
    const listed = ((await used.json()) as Array<{ name: string; scopes: string[]; spend_limit_credits: number }>).find((k) => k.name === 'ci-build');
    expect(listed).toMatchObject({ scopes: ['read', 'build'], spend_limit_credits: 5000 });

    // Shown once: the list page afterwards has the key's prefix, never the key.
    await page.goto(`${app.url}/account/keys/`);
    expect(await page.content()).not.toContain(key);
    expect(await page.locator('[data-testid=new-key]').count()).toBe(0);
    const row = page.locator('tr', { hasText: 'ci-build' });
    expect(await row.textContent()).toContain(key.slice(0, 12));
    expect(await row.textContent()).toContain('5,000');

    await keyAction(page, 'ci-build', 'Rotate');
    const rotated = (await page.textContent('[data-testid=new-key]'))!.trim();
    expect(rotated).not.toBe(key);
    expect((await tokensList(key)).status).toBe(401);
    expect((await tokensList(rotated)).status).toBe(200);

    await keyAction(page, 'ci-build', 'Revoke');
    expect(await page.textContent('p.notice')).toContain('is revoked');
    expect((await tokensList(rotated)).status).toBe(401);
    expect(await page.content()).not.toContain(rotated);

    // A charged mixed assembly with a fresh key, followed live on its job page.
    const builder = await createKey(page, 'assembler', { build: true, spend: true });
    const queued = await fetch(`${app.url}/api/v1/dmgen/assemble/`, {
      method: 'POST',
      headers: { authorization: `Token ${builder}`, 'content-type': 'application/json' },
      body: JSON.stringify(MIXED_ASSEMBLY),
    });
    expect(queued.status).toBe(202);
    const jobCtId = ((await queued.json()) as { job_ct_id: string }).job_ct_id;

    // Every step the page's script appends as the subscription delivers it, kept across the final reload.
    await page.addInitScript(() => {
      new MutationObserver((records) => {
        for (const record of records)
          record.addedNodes.forEach((node) => {
            if (!(node instanceof HTMLElement) || !node.classList.contains('live')) return;
            const seen = JSON.parse(sessionStorage.getItem('live-steps') ?? '[]') as string[];
            sessionStorage.setItem('live-steps', JSON.stringify([...seen, node.getAttribute('data-seq')]));
          });
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${app.url}/account/jobs/`);
    await page.click(`a[href="/account/jobs/${jobCtId}/"]`);
    const shownAtLoad = await page.locator('#steps li').count();
    await page.locator('[data-testid=result-links]').waitFor({ timeout: 60_000 });
    expect(await page.textContent('[data-testid=job-status]')).toBe('completed');
    const steps = await page.locator('#steps li').allTextContents();
    expect(steps.length).toBeGreaterThanOrEqual(6);
    expect(steps[steps.length - 1]).toContain('completed');
    // Each step after the ones rendered at load arrived live, in order, none twice.
    const live = (JSON.parse((await page.evaluate(() => sessionStorage.getItem('live-steps'))) ?? '[]') as string[]).map(Number);
    expect(live).toEqual(Array.from({ length: steps.length - shownAtLoad }, (_, i) => shownAtLoad + i + 1));
    expect(live.length).toBeGreaterThanOrEqual(2);
    const links = page.locator('[data-testid=result-links] a');
    expect(await links.count()).toBeGreaterThan(3);
    const xsd = await page.getAttribute('[data-testid=result-links] a:has-text("XML Schema")', 'href');
    expect((await fetch(xsd!)).status).toBe(200);

    await page.goto(`${app.url}/account/wallet/`);
    const entries = page.locator(`tr:has(a[href="/account/jobs/${jobCtId}/"])`);
    expect(await entries.count()).toBeGreaterThanOrEqual(1);
    const kinds = await entries.locator('.kind').allTextContents();
    expect(kinds.some((k) => k === 'capture' || k === 'charge')).toBe(true);
    const balance = await page.textContent('[data-testid=balance]');
    expect(balance).not.toContain('20,000 credits');
    expect(await page.content()).not.toContain(builder);

    await page.click('header button:has-text("Sign out")');
    await page.waitForURL(/\/account\/login\/\?signed_out=1$/);
    await page.goto(`${app.url}/account/wallet/`);
    expect(new URL(page.url()).pathname).toBe('/account/login/');
    await flow.close();
  });

  it('reaches every form with JavaScript disabled', async () => {
    const user = await makeUser(app.services, { credits: 20_000 });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page, user.email);

    const key = await createKey(page, 'no-js', { build: true, limit: '5000' });
    expect(key).toMatch(/^sdc_/);
    // The copy button needs JavaScript: hidden without it, and the key stays selectable text.
    expect(await page.locator('button[data-copy]').isHidden()).toBe(true);
    expect((await tokensList(key)).status).toBe(200);

    // A validation error is shown next to its field, with what was typed kept.
    await page.fill('#id_name', 'too-long-expiry');
    await page.fill('#id_expires_in_days', '4000');
    await page.click('button:has-text("Create key")');
    expect(await page.textContent('#error-expires_in_days')).toContain('1 to 3660');
    expect(await page.inputValue('#id_name')).toBe('too-long-expiry');

    await keyAction(page, 'no-js', 'Rotate');
    const rotated = (await page.textContent('[data-testid=new-key]'))!.trim();
    expect((await tokensList(key)).status).toBe(401);
    await keyAction(page, 'no-js', 'Revoke');
    expect((await tokensList(rotated)).status).toBe(401);

    await page.click('text=Generate legacy key…');
    await page.click('[data-testid=confirm]');
    const legacy = (await page.textContent('[data-testid=new-key]'))!.trim();
    expect((await tokensList(legacy)).status).toBe(200);

    await page.goto(`${app.url}/account/wallet/`);
    await page.check('input[name=enabled]');
    await page.fill('#id_threshold_credits', '1000');
    await page.fill('#id_amount_credits', '5000');
    await page.click('text=Save auto-reload');
    expect(await page.textContent('p.notice')).toContain('Auto-reload saved');
    expect((await app.services.ledger.walletView(user.id)).autoReload).toEqual({ enabled: true, thresholdCredits: 1000, amountCredits: 5000 });

    // A finished job's page shows its final state and result links as rendered.
    const queued = await fetch(`${app.url}/api/v1/dmgen/assemble/`, {
      method: 'POST',
      headers: { authorization: `Token ${legacy}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...MIXED_ASSEMBLY, title: 'Without JavaScript' }),
    });
    const jobCtId = ((await queued.json()) as { job_ct_id: string }).job_ct_id;
    await page.goto(`${app.url}/account/jobs/${jobCtId}/`);
    expect(await page.locator('#live').textContent()).toContain('Reload');
    for (let i = 0; i < 300 && (await page.textContent('[data-testid=job-status]')) !== 'completed'; i += 1) {
      await new Promise((r) => setTimeout(r, 200));
      await page.reload();
    }
    expect(await page.textContent('[data-testid=job-status]')).toBe('completed');
    expect(await page.locator('[data-testid=result-links] a').count()).toBeGreaterThan(3);

    await page.goto(`${app.url}/catalog/`);
    await page.fill('#id_search', 'Without JavaScript');
    await page.click('main button[type=submit]');
    await page.click('a:has-text("Without JavaScript")');
    expect(await page.locator('[data-testid=tree] li').count()).toBeGreaterThanOrEqual(3);
    expect(await page.textContent('[data-testid=dmlib-url]')).toMatch(/\/dmlib\/dm-[a-z0-9]+\.xsd$/);

    await page.click('header button:has-text("Sign out")');
    await page.waitForURL(/signed_out=1$/);
    await context.close();
  });

  it('lays every page out at 420 px without horizontal overflow, and axe-core finds no serious violation', async () => {
    const user = await makeUser(app.services, { credits: 20_000 });
    const context = await browser.newContext({ viewport: NARROW });
    const page = await context.newPage();

    const check = async (name: string) => {
      expect(await scrollWidth(page)).toBeLessThanOrEqual(NARROW.width);
      const file = path.join(shots, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      expect((await stat(file)).size).toBeGreaterThan(1000);
      expect({ page: name, violations: await seriousViolations(page) }).toEqual({ page: name, violations: [] });
    };

    await page.goto(`${app.url}/account/login/`);
    await check('login');
    await page.fill('#id_email', user.email);
    await page.fill('#id_password', 'wrong password');
    await page.click('main button[type=submit]');
    expect(await page.textContent('p.error')).toContain('Wrong email or password');
    await check('login-error');
    await signIn(page, user.email);
    await check('keys');
    await createKey(page, 'A rather long key name for a narrow phone screen', { build: true, limit: '5000' });
    await check('new-key');
    await page.fill('#id_name', '');
    await page.click('button:has-text("Create key")');
    await check('keys-errors');
    await page.goto(`${app.url}/account/keys/`);
    await page.locator('tr', { hasText: 'narrow phone' }).locator('button', { hasText: 'Revoke' }).click();
    await check('confirm');

    const builder = await createKey(page, 'narrow-builder', { build: true, spend: true });
    const queued = await fetch(`${app.url}/api/v1/dmgen/assemble/`, {
      method: 'POST',
      headers: { authorization: `Token ${builder}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...MIXED_ASSEMBLY, title: 'Narrow' }),
    });
    const jobCtId = ((await queued.json()) as { job_ct_id: string }).job_ct_id;
    await page.goto(`${app.url}/account/jobs/${jobCtId}/`);
    await page.locator('[data-testid=result-links]').waitFor({ timeout: 60_000 });
    await check('job');
    await page.goto(`${app.url}/account/jobs/`);
    await check('jobs');
    await page.goto(`${app.url}/account/wallet/`);
    await check('wallet');
    await page.goto(`${app.url}/catalog/?search=Narrow`);
    await check('catalog');
    await page.click('a:has-text("Narrow")');
    await check('model');
    await context.close();
  });

  it('refuses each account form posted from another site, sign-in included', async () => {
    const user = await makeUser(app.services);
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, user.email);
    await createKey(page, 'kept');
    const before = await app.services.keys.list(user.id);
    const intruder = await makeUser(app.services);

    // Another site (127.0.0.2 is not 127.0.0.1's site) whose page posts each account form on load.
    const port = await freePort();
    const target = app.url;
    const forms: Array<[string, Record<string, string>]> = [
      ['/account/keys/', { name: 'planted', scopes: 'spend' }],
      [`/account/keys/${before[0].id}/revoke/`, { confirm: 'yes' }],
      [`/account/keys/${before[0].id}/rotate/`, { confirm: 'yes' }],
      ['/account/keys/legacy/', { confirm: 'yes' }],
      ['/account/wallet/auto-reload/', { enabled: 'true', threshold_credits: '1', amount_credits: '1000000' }],
      ['/account/logout/', {}],
      // Signing the victim into the attacker's account is refused too (the sign-in form's own token).
      ['/account/login/', { email: intruder.email, password: PASSWORD }],
    ];
    const attacker = http.createServer((req, res) => {
      const [action, fields] = forms[Number(new URL(req.url!, 'http://x').searchParams.get('i'))];
      const inputs = Object.entries(fields)
        .map(([k, v]) => `<input name="${k}" value="${v}">`)
        .join('');
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><form id="f" method="post" action="${target}${action}">${inputs}</form><script>f.submit()</script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(port, '127.0.0.2', resolve));
    try {
      for (let i = 0; i < forms.length; i += 1) {
        const answered = page.waitForResponse((r) => r.url() === `${target}${forms[i][0]}`);
        await page.goto(`http://127.0.0.2:${port}/?i=${i}`);
        const response = await answered;
        expect({ action: forms[i][0], status: response.status() }).toEqual({ action: forms[i][0], status: 403 });
      }
    } finally {
      await new Promise((resolve) => attacker.close(resolve));
    }
    const after = await app.services.keys.list(user.id);
    expect(after.map((k) => [k.id, k.status])).toEqual(before.map((k) => [k.id, k.status]));
    expect((await app.services.ledger.walletView(user.id)).autoReload.enabled).toBe(false);
    // Still signed in: the cross-site sign-out was refused too.
    await page.goto(`${app.url}/account/keys/`);
    expect(new URL(page.url()).pathname).toBe('/account/keys/');
    expect(await page.textContent('header .who')).toBe(user.email);
    await context.close();
  });

  it('opens GraphiQL on an example of this API that says where the key goes', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/graphql`);
    const editor = page.locator('.graphiql-query-editor .CodeMirror');
    await editor.waitFor();
    const text = await page.evaluate(() =>
      (document.querySelector('.graphiql-query-editor .CodeMirror') as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue(),
    );
    expect(text).toContain('catalogModels');
    expect(text).toContain('estimate(');
    expect(text).toContain('jobUpdated');
    expect(text).toContain('"Authorization": "Token <your key>"');
    await context.close();
  });

  it('ends the job page live subscription when the session is signed out elsewhere', async () => {
    const user = await makeUser(app.services);
    const context: BrowserContext = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, user.email);
    // A running job that no worker holds: its steps come from this test alone.
    const { manager } = app.services.db;
    const now = new Date();
    const job = await manager.save(
      manager.create(Job, {
        ctId: newId(),
        kind: 'assemble',
        status: 'running',
        step: 'parsing',
        userId: user.id,
        apiKeyId: null,
        request: { body: { title: 'Held still' } },
        result: null,
        error: null,
        dataSourceCtId: null,
        dmCtId: null,
        attempts: 1,
        createdAt: now,
        updatedAt: now,
      }),
    );
    await page.goto(`${app.url}/account/jobs/${job.ctId}/`);
    await page.locator('#live', { hasText: 'Following this job live' }).waitFor({ timeout: 10_000 });
    await app.services.jobs.update(job.id, { step: 'modeling' });
    await page.locator('#steps li.live', { hasText: 'modeling' }).waitFor({ timeout: 10_000 });
    expect(await page.textContent('#job-step')).toBe('modeling');
    // The same session signed out from another tab of the same browser.
    const other = await context.newPage();
    await other.goto(`${app.url}/account/logout/`);
    await other.click('main button[type=submit]');
    await page.locator('#live[data-closed]').waitFor({ timeout: 15_000 });
    expect(await page.getAttribute('#live', 'data-closed')).toBe('4401');
    expect(await page.textContent('#live')).toContain('session ended');
    await app.services.jobs.update(job.id, { step: 'finalizing' });
    await new Promise((r) => setTimeout(r, 500));
    expect(await page.locator('#steps li', { hasText: 'finalizing' }).count()).toBe(0);
    await context.close();
  });
});
