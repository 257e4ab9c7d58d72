import { issueKey, signedIn } from '../support/factories';
import { HttpClient } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';

/** Public catalog reads are limited per hour: per address without credentials, per user (higher) with them. */

const LIST = '/api/v1/catalog/dms/';
const HOUR_MS = 3_600_000;

/** Moves the test clock to `minutes` past the next full hour. */
const toNextHour = (minutes: number) => {
  const t = app.clock.now().getTime();
  app.clock.advance(HOUR_MS - (t % HOUR_MS) + minutes * 60_000);
};
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ anonymousReadsPerHour: 3, keyedReadsPerHour: 5 }, { workers: false });
});
afterAll(() => app.close());

it('answers 429 with Retry-After past the anonymous limit, lets a key through, and resets with the hour', async () => {
  toNextHour(15);
  const anonymous = new HttpClient(app.url);
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await anonymous.get(LIST)).status);
  expect(statuses).toEqual([200, 200, 200, 429]);

  const refused = await anonymous.get(LIST);
  expect(refused.status).toBe(429);
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(44 * 60);
  expect(retryAfter).toBeLessThanOrEqual(45 * 60);
  expect(refused.body).toEqual({
    error: 'Too many catalog reads: at most 3 an hour. Try again later, or send an API key.',
    error_type: 'rate_limited',
    limit: 3,
    retry_after_seconds: retryAfter,
  });

  const owner = await signedIn(app.url, app.services);
  const keyed = owner.client.withToken((await issueKey(owner.client)).key);
  const keyedStatuses = [];
  for (let i = 0; i < 6; i++) keyedStatuses.push((await keyed.get(LIST)).status);
  expect(keyedStatuses).toEqual([200, 200, 200, 200, 200, 429]);

  toNextHour(0);
  const reset = await anonymous.get(LIST);
  expect(reset.status).toBe(200);
  expect(reset.headers.get('x-ratelimit-remaining')).toBe('2');
});
