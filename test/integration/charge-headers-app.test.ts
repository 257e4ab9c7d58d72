import { libraryComponent } from '../support/catalog-factories';
import { signedIn } from '../support/factories';
import { finalJob } from '../support/wait';
import { startTestApp, type TestApp } from '../support/app';

/** An application download is a charging call: its 200, 202 and 402 carry the X-SDC headers in dollars. */

const PRICE = 999;
let app: TestApp;
let reused: string;
beforeAll(async () => {
  app = await startTestApp({ appDownloadCredits: PRICE });
  reused = (await libraryComponent(app.services, { label: 'Downloaded' })).ctId;
});
afterAll(() => app.close());

const money = (res: { headers: Headers }) => [
  res.headers.get('x-sdc-estimated-cost'),
  res.headers.get('x-sdc-balance-remaining'),
  res.headers.get('x-sdc-estimated-cost-credits'),
  res.headers.get('x-sdc-balance-remaining-credits'),
];

it('generate_app answers 200, 202 and 402 with exact dollar headers; a package (free) carries none', async () => {
  const { client } = await signedIn(app.url, app.services, { credits: 500 + 2 * PRICE + 1 });
  const model = await client.post('/api/v1/dmgen/assemble/', {
    title: 'App',
    generate: false,
    data: { label: 'Root', components: [{ ct_id: reused }] },
  });
  expect(model.status).toBe(200);
  const generate = (body: Record<string, unknown>) => client.post(`/api/v1/dmgen/dms/${model.body.ct_id}/generate_app/`, body);

  const inline = await generate({ profile: 'os' });
  expect(inline.status).toBe(200);
  expect(money(inline)).toEqual(['0.999', '1.000', '999', '1000']);

  const queued = await generate({ profile: 'os', async: true });
  expect(queued.status).toBe(202);
  expect(money(queued)).toEqual(['0.999', '1.000', '999', '1000']);
  expect(await finalJob(client, queued.body.job_ct_id)).toMatchObject({ status: 'completed', cost_credits: PRICE });

  const broke = await generate({ profile: 'os' });
  expect(broke.status).toBe(402);
  expect(money(broke)).toEqual(['0.999', '0.001', '999', '1']);
  expect(broke.body).toMatchObject({ estimated_cost: '0.999', balance: '0.001', balance_remaining_credits: 1 });

  const pkg = await client.post(`/api/v1/dmgen/dms/${model.body.ct_id}/generate/`);
  expect(pkg.status).toBe(200);
  expect(money(pkg)).toEqual([null, null, null, null]);
});
