import { startTestApp, type TestApp } from '../support/app';
import { makeUser, PASSWORD } from '../support/factories';

/** The login throttle (5 failures per account, 20 per address in 15 minutes by default) under concurrency and
 * spelling variants of one email: each refused guess is a 429 without a password check, each checked one a 400. */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
}, 120_000);

afterAll(async () => {
  await app?.close();
});

beforeEach(() => {
  // A fresh throttle window for each test: every request comes from 127.0.0.1.
  app.clock.advance((app.services.settings.loginWindowSeconds + 1) * 1000);
});

const login = (email: string, password: string) =>
  fetch(`${app.url}/api/v1/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  }).then((res) => res.status);

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe('login throttle', () => {
  jest.setTimeout(60_000);

  it('40 concurrent wrong passwords for one account get exactly 5 checks', async () => {
    const user = await makeUser(app.services);
    const statuses = await Promise.all(Array.from({ length: 40 }, () => login(user.email, 'wrong password')));
    expect(tally(statuses)).toEqual({ 400: 5, 429: 35 });
  });

  it('40 concurrent guesses at 40 accounts from one address get exactly 20 checks', async () => {
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => login(`nobody-${i}@example.org`, 'wrong password')));
    expect(tally(statuses)).toEqual({ 400: 20, 429: 20 });
  });

  it('whitespace and case variants of one email share its count, and a throttled account cannot sign in by a variant', async () => {
    const user = await makeUser(app.services, { email: `victim-${Date.now()}@example.org` });
    const variants = [` ${user.email}`, `${user.email} `, `\t${user.email}`, user.email.toUpperCase(), `${user.email}\n`];
    for (const email of variants) expect(await login(email, 'wrong password')).toBe(400);
    expect(await login(`  ${user.email}\t`, 'wrong password')).toBe(429);
    expect(await login(`${user.email}\t`, PASSWORD)).toBe(429);
    expect(await login(user.email, PASSWORD)).toBe(429);
  });

  it('the right password with a spelling variant signs in, and clears the account failures', async () => {
    const user = await makeUser(app.services);
    for (let i = 0; i < 4; i++) expect(await login(user.email, 'wrong password')).toBe(400);
    expect(await login(` ${user.email.toUpperCase()}\t`, PASSWORD)).toBe(200);
    for (let i = 0; i < 5; i++) expect(await login(user.email, 'wrong password')).toBe(400);
    expect(await login(user.email, 'wrong password')).toBe(429);
  });
});
