import { QUEUE_SCHEMA } from '../../src/db/queues';
import { PG, pgCode } from '../../src/lib/errors';
import type { StoredInstance } from '../../src/db/queries/instances.sql';
import { InstanceStore } from '../../src/services/instance-store';
import { startTestApp, type TestApp } from '../support/app';

/** validate/xml's writes commit in groups: what arrives while a write is in flight is stored by the next one, in
 * one statement and one transaction, and a member that cannot be stored fails alone. */

let app: TestApp;
let store: InstanceStore;
let keyId: number;
beforeAll(async () => {
  app = await startTestApp({}, { workers: false });
  store = new InstanceStore(app.services.db, app.services.queue);
  await app.services.app.keys.create({ organization: 'Store Org', contactEmail: 'ops@example.org' });
  [{ id: keyId }] = await app.services.db.query('SELECT id::int AS id FROM app_api_keys');
});
afterAll(() => app?.close());

const instance = (id: string, overrides: Partial<StoredInstance> = {}): StoredInstance => ({
  instanceId: id,
  dmCtId: 'its7j6bvrb9n2fxdcxmoemod',
  dmLabel: 'StatePopulation',
  validationStatus: 'valid',
  storageType: 'generic',
  originalXml: `<dm id="${id}"/>`,
  correctedXml: null,
  validationErrors: null,
  autoCorrectedFields: '[]',
  corrections: '[]',
  jsonText: JSON.stringify({ id }),
  graphUri: `urn:test:${id}`,
  rdfSyncStatus: 'disabled',
  apiKeyId: keyId,
  organization: 'Store Org',
  storedBytes: 100,
  ntriples: `<urn:test:${id}> <urn:test:p> "${id}" .\n`,
  tripleCount: 1,
  ...overrides,
});

/** A first write starts; `others`, submitted in the same tick, wait for it and form the next batch. */
const afterPilot = (pilot: string, others: StoredInstance[]) =>
  Promise.all([store.store(instance(pilot)), Promise.allSettled(others.map((i) => store.store(i)))]).then(([, settled]) => settled);

/** The transaction (xmin) that wrote each instance row, by instance_id. */
async function writers(ids: string[]): Promise<Record<string, string>> {
  const rows = await app.services.db.query('SELECT instance_id, xmin::text AS tx FROM app_instances WHERE instance_id = ANY($1)', [ids]);
  return Object.fromEntries(rows.map((r: { instance_id: string; tx: string }) => [r.instance_id, r.tx]));
}

describe('a batch', () => {
  it('stores what waited behind a write in one transaction, each row and graph as sent', async () => {
    const ids = ['b1', 'b2', 'b3', 'b4', 'b5', 'b6'];
    const settled = await afterPilot('b0', [
      ...ids.slice(0, 5).map((id) => instance(id)),
      instance('b6', { correctedXml: '<dm id="b6"><ev/></dm>', validationStatus: 'valid_with_ev', corrections: '[{"line":1}]' }),
    ]);
    expect(settled.map((s) => s.status)).toEqual(ids.map(() => 'fulfilled'));
    const tx = await writers(['b0', ...ids]);
    expect(new Set(ids.map((id) => tx[id])).size).toBe(1);
    expect(tx.b0).not.toBe(tx.b1);
    const rows = await app.services.db.query(
      `SELECT i.instance_id, i.original_xml, i.corrected_xml, i.validation_status, i.corrections, i.json_rendering, i.api_key_id::int AS key,
              g.ntriples, g.triple_count
         FROM app_instances i JOIN app_graphs g USING (graph_uri) WHERE instance_id IN ('b1', 'b6') ORDER BY instance_id`,
    );
    expect(rows).toEqual([
      {
        instance_id: 'b1',
        original_xml: '<dm id="b1"/>',
        // Valid as sent: the corrected text is the original, stored once (migration 0033).
        corrected_xml: null,
        validation_status: 'valid',
        corrections: [],
        json_rendering: { id: 'b1' },
        key: keyId,
        ntriples: '<urn:test:b1> <urn:test:p> "b1" .\n',
        triple_count: 1,
      },
      {
        instance_id: 'b6',
        original_xml: '<dm id="b6"/>',
        corrected_xml: '<dm id="b6"><ev/></dm>',
        validation_status: 'valid_with_ev',
        corrections: [{ line: 1 }],
        json_rendering: { id: 'b6' },
        key: keyId,
        ntriples: '<urn:test:b6> <urn:test:p> "b6" .\n',
        triple_count: 1,
      },
    ]);
  });

  it('of more rows than one statement takes is still one transaction, every row stored once', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `m${i}`);
    const settled = await afterPilot(
      'm-pilot',
      ids.map((id) => instance(id)),
    );
    expect(settled.every((s) => s.status === 'fulfilled')).toBe(true);
    const tx = await writers(ids);
    expect(Object.keys(tx).sort()).toEqual([...ids].sort());
    expect(new Set(Object.values(tx)).size).toBe(1);
  });

  it('of large rows writes each statement under a megabyte of text, still one transaction, every row whole', async () => {
    // 600,000 characters of XML each: two do not fit one statement (MAX_STATEMENT_CHARS), so each is written by a
    // statement of its own (cmin: the statement of its transaction that wrote the row); small rows share one.
    const big = (id: string) => instance(id, { originalXml: `<dm id="${id}">${'x'.repeat(600_000)}</dm>` });
    const settled = await afterPilot('l-pilot', [big('l1'), big('l2'), instance('l3'), instance('l4'), big('l5')]);
    expect(settled.every((s) => s.status === 'fulfilled')).toBe(true);
    const rows: Array<{ instance_id: string; tx: string; statement: string; chars: number }> = await app.services.db.query(
      `SELECT instance_id, xmin::text AS tx, cmin::text AS statement, length(original_xml) AS chars
         FROM app_instances WHERE instance_id IN ('l1', 'l2', 'l3', 'l4', 'l5') ORDER BY instance_id`,
    );
    expect(new Set(rows.map((r) => r.tx)).size).toBe(1);
    const statement = Object.fromEntries(rows.map((r) => [r.instance_id, r.statement]));
    expect(new Set([statement.l1, statement.l2, statement.l5]).size).toBe(3);
    expect(statement.l3).toBe(statement.l4);
    expect(rows.map((r) => r.chars)).toEqual([600_017, 600_017, 13, 13, 600_017]);
  });

  it('queues the rdf_sync job of each pending member in the same transaction, and none for the others', async () => {
    await afterPilot('s0', [instance('s1', { rdfSyncStatus: 'pending' }), instance('s2'), instance('s3', { rdfSyncStatus: 'pending' })]);
    const jobs = await app.services.db.query(
      `SELECT data->>'instanceId' AS id, xmin::text AS tx FROM ${QUEUE_SCHEMA}.job WHERE name = 'rdf_sync' AND data->>'instanceId' LIKE 's%' ORDER BY 1`,
    );
    const tx = await writers(['s1', 's2', 's3']);
    expect(jobs).toEqual([
      { id: 's1', tx: tx.s1 },
      { id: 's3', tx: tx.s1 },
    ]);
    expect(tx.s2).toBe(tx.s1);
  });
});

describe('a member that cannot be stored', () => {
  it('a taken instance_id fails alone; the rest of its batch is stored', async () => {
    await store.store(instance('taken'));
    const settled = await afterPilot('t0', [instance('t1'), instance('taken'), instance('t2')]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(pgCode((settled[1] as PromiseRejectedResult).reason)).toBe(PG.uniqueViolation);
    expect(Object.keys(await writers(['t1', 't2'])).sort()).toEqual(['t1', 't2']);
  });

  it('of two members with one instance_id, the first is stored and the second is refused as taken', async () => {
    const settled = await afterPilot('d0', [instance('twin', { dmLabel: 'first' }), instance('twin', { dmLabel: 'second' }), instance('d1')]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(pgCode((settled[1] as PromiseRejectedResult).reason)).toBe(PG.uniqueViolation);
    const [row] = await app.services.db.query("SELECT dm_label FROM app_instances WHERE instance_id = 'twin'");
    expect(row.dm_label).toBe('first');
  });
});
