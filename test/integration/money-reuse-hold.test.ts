import { prepared } from '../../src/db/prepared';
import { insertReuseTree } from '../../src/db/queries/model-build.sql';
import { parseAssemblyRequest } from '../../src/parsers/assembly.parser';
import { ModelBuilder, reuseTree } from '../../src/services/model-builder';
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

  it('a swept build that someone placed in their own tree meanwhile: the hold is released, what they use stays unpaid, the rest goes', async () => {
    const owner = await makeUser(app.services, { credits: 5_000 });
    const { ledger, assembly, db } = app.services;
    // The reuse path's hold and build (its one statement), as a process that died right after the build left them.
    const request = parseAssemblyRequest({
      title: 'Borrowed',
      generate: false,
      data: { label: 'Borrowed Data', components: [{ ct_id: reused }], clusters: [{ label: 'Shared', components: [{ ct_id: reused }] }] },
    });
    const plan = await assembly.plan(request, owner.id);
    const hold = await ledger.requests.hold({ userId: owner.id, amount: plan.totalCredits, reason: 'assemble: Borrowed', apiKeyId: null });
    const prefix = ModelBuilder.heldPrefix(hold.holdId!);
    await prepared(db, insertReuseTree(reuseTree(request, plan.reused, owner.id, { publish: true, mintKeyPrefix: prefix, now: new Date() })));
    const [shared] = await db.query(`SELECT ct_id FROM clusters WHERE owner_id = $1 AND label = 'Shared'`, [owner.id]);

    // Published, so another user reuses the cluster before the sweep.
    const { client, user: other } = await signedIn(app.url, app.services, { credits: 5_000 });
    const theirs = await client.post(ASSEMBLE, {
      title: 'Theirs',
      generate: false,
      data: { label: 'Theirs Data', clusters: [{ ct_id: shared.ct_id }] },
    });
    expect(theirs.status).toBe(200);

    await sleep(1_100);
    expect(await ledger.releaseEndedJobHolds()).toBeGreaterThanOrEqual(1);
    // Released in full: the request that built it never got its model.
    expect(await moneyState(db, owner.id)).toMatchObject({ balance: 5_000, held: 0, holds: 1, captures: 0, releases: 1, models: 0 });
    // Only what the other model uses stays, marked never paid for; the model and its root are gone.
    const left = await db.query(`SELECT label, paid, status FROM clusters WHERE owner_id = $1 ORDER BY label`, [owner.id]);
    expect(left).toEqual([{ label: 'Shared', paid: false, status: 'published' }]);
    const detail = await client.get(new URL(theirs.body.model_url).pathname);
    expect(detail.status).toBe(200);
    expect(detail.body.components[0].children.map((c: { ct_id: string }) => c.ct_id)).toContain(shared.ct_id);
    expect(await moneyState(db, other.id)).toMatchObject({ balance: 4_500, held: 0, captures: 1, models: 1 });
  });

  it('answers the model as the catalog shows it: new clusters at depth, a reused cluster and components', async () => {
    const { client } = await signedIn(app.url, app.services, { credits: 10_000 });
    const first = await client.post(ASSEMBLE, {
      title: 'Inner',
      generate: false,
      data: { label: 'Inner Data', clusters: [{ label: 'Inner Part', components: [{ ct_id: reused }] }] },
    });
    expect(first.status).toBe(200);
    const inner = first.body.components[0].children.find((c: { label: string }) => c.label === 'Inner Part');
    const res = await client.post(ASSEMBLE, {
      title: 'Outer',
      generate: false,
      data: {
        label: 'Outer Data',
        components: [{ ct_id: reused }],
        clusters: [
          { label: 'Level 1', clusters: [{ label: 'Level 2', components: [{ ct_id: reused }, { ct_id: reused }] }, { ct_id: inner.ct_id }] },
        ],
      },
    });
    expect(res.status).toBe(200);
    const detail = await client.get(new URL(res.body.model_url).pathname);
    expect(detail.status).toBe(200);
    expect(res.body.components).toEqual(detail.body.components);
    expect(JSON.stringify(res.body.components)).toContain('Level 2');
    expect(JSON.stringify(res.body.components)).toContain(inner.ct_id);
    // A reused cluster as the root: nothing minted but the model.
    const rooted = await client.post(ASSEMBLE, { title: 'Rooted', generate: false, data: { ct_id: inner.ct_id } });
    expect(rooted.status).toBe(200);
    const rootedDetail = await client.get(new URL(rooted.body.model_url).pathname);
    expect(rooted.body.components).toEqual(rootedDetail.body.components);
    expect(rooted.body.components[0].ct_id).toBe(inner.ct_id);
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
