import { parseAssemblyRequest } from '../../src/parsers/assembly.parser';
import { ModelBuilder } from '../../src/services/model-builder';
import { libraryComponent } from '../support/catalog-factories';
import { issueKey, makeUser, signedIn } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { ASSEMBLE, moneyAudit, moneyState } from './money-helpers';

/** The reuse path holds, builds in a transaction of its own, then captures: what a hold released instead of captured
 * had built goes with it. */
let app: TestApp;
let reused: string;
beforeAll(async () => {
  app = await startTestApp({ requestHoldTtlSeconds: 1 }, { workers: false });
  reused = (await libraryComponent(app.services, { label: 'Held Reused' })).ctId;
});
afterEach(async () => expect(await moneyAudit(app.services.db)).toEqual([]));
afterAll(() => app.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const reuseBody = (title: string) => ({ title, generate: false, data: { label: `${title} Data`, components: [{ ct_id: reused }] } });

async function built(ownerId: number): Promise<{ models: number; clusters: number }> {
  const [row] = await app.services.db.query(
    `SELECT (SELECT count(*)::int FROM data_models WHERE owner_id = $1) AS models, (SELECT count(*)::int FROM clusters WHERE owner_id = $1) AS clusters`,
    [ownerId],
  );
  return row;
}

describe('reuse assembly: hold, build, capture', () => {
  it('a build committed whose capture never came (the process died between): the sweep releases the hold and removes the model', async () => {
    const user = await makeUser(app.services, { credits: 5_000 });
    const { ledger, builder, db } = app.services;
    // The reuse path's first two steps, as a process that died right after the build's commit left them.
    const hold = await ledger.requests.hold({ userId: user.id, amount: 500, reason: 'assemble: Orphan', apiKeyId: null });
    const request = parseAssemblyRequest(reuseBody('Orphan'));
    await db.transaction((m) => builder.build(m, request, user.id, { publish: true, mintKeyPrefix: ModelBuilder.heldPrefix(hold.holdId!) }));
    expect(await built(user.id)).toEqual({ models: 1, clusters: 1 });

    await sleep(1_100);
    expect(await ledger.releaseEndedJobHolds()).toBeGreaterThanOrEqual(1);
    expect(await built(user.id)).toEqual({ models: 0, clusters: 0 });
    // The reused component is the library's and stays.
    const [{ n }] = await db.query('SELECT count(*)::int AS n FROM components WHERE ct_id = $1', [reused]);
    expect(n).toBe(1);
    expect(await moneyState(db, user.id)).toMatchObject({ balance: 5_000, held: 0, holds: 1, captures: 0, releases: 1, models: 0 });
  });

  it('a key revoked while the model was being built: 403, nothing charged, no model left', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 5_000 });
    const key = await issueKey(client, { scopes: ['build', 'spend'] });
    // Revoked by the build's own transaction, after the hold and before the capture.
    await app.services.db.query(`
      CREATE OR REPLACE FUNCTION revoke_on_model() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.title = 'Revoked Midway' THEN UPDATE api_keys SET revoked_at = now() WHERE id = ${Number(key.id)}; END IF; RETURN NEW; END $$;
      DROP TRIGGER IF EXISTS revoke_on_model ON data_models;
      CREATE TRIGGER revoke_on_model BEFORE INSERT ON data_models FOR EACH ROW EXECUTE FUNCTION revoke_on_model();`);
    try {
      const res = await client.withToken(key.key).post(ASSEMBLE, reuseBody('Revoked Midway'));
      expect(res.status).toBe(403);
      expect(res.body.error_type).toBe('key_revoked');
    } finally {
      await app.services.db.query('DROP TRIGGER revoke_on_model ON data_models');
    }
    expect(await built(user.id)).toEqual({ models: 0, clusters: 0 });
    expect(await moneyState(app.services.db, user.id)).toMatchObject({ balance: 5_000, held: 0, holds: 1, captures: 0, releases: 1 });
  });

  it('many reuse assemblies of one wallet at once: each charged once, with its model', async () => {
    const { client, user } = await signedIn(app.url, app.services, { credits: 100_000 });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => client.post(ASSEMBLE, reuseBody(`Parallel ${i}`))));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(new Set(answers.map((a) => a.body.ct_id)).size).toBe(12);
    expect(await moneyState(app.services.db, user.id)).toMatchObject({ balance: 100_000 - 12 * 500, held: 0, holds: 12, captures: 12, models: 12 });
  });
});
