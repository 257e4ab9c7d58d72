import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { form, SP_CT_ID, STATE_POPULATION, startAppUnderTest, type AppUnderTest } from './app-helpers';

/** Interface B's storage usage per organisation is a running sum (migration 0031) that the storage caps read in one
 * row: whatever writes, replaces or deletes instances, graphs and uploads, it equals the sums over the rows. */

let app: AppUnderTest;

beforeAll(async () => {
  app = await startAppUnderTest({}, { workers: false });
  const xsd = await readFile(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xsd`));
  const uploaded = await app.call('POST', '/api/v1/upload/schema/', { body: form([{ field: 'files', name: `dm-${SP_CT_ID}.xsd`, content: xsd }]) });
  expect(uploaded.status).toBe(201);
});

afterAll(async () => {
  await app?.close();
});

type Row = { organization: string; triples: number; bytes: number };

/** The running sums, and the same sums computed from the rows, each sorted by organisation, zero rows left out. */
async function sums(): Promise<{ kept: Row[]; counted: Row[] }> {
  const kept = await app.services.db.query(
    `SELECT organization, triples::int, bytes::int FROM app_storage_usage WHERE triples <> 0 OR bytes <> 0 ORDER BY organization`,
  );
  const counted = await app.services.db.query(
    `SELECT organization, sum(triples)::int AS triples, sum(bytes)::int AS bytes FROM (
       SELECT coalesce(organization, '') AS organization, triple_count AS triples, 0 AS bytes FROM app_graphs
       UNION ALL SELECT coalesce(organization, ''), 0, stored_bytes FROM app_instances
       UNION ALL SELECT organization, 0, size FROM app_uploads) AS u
     GROUP BY organization HAVING sum(triples) <> 0 OR sum(bytes) <> 0 ORDER BY organization`,
  );
  return { kept, counted };
}

it('keeps each organisation’s triples and bytes equal to the sums over its rows through inserts, replacements and deletes', async () => {
  const instance = await readFile(path.join(STATE_POPULATION, `dm-${SP_CT_ID}.xml`), 'utf8');
  const keys = await Promise.all(
    ['Usage A', 'Usage B'].map(
      async (organization) => (await app.services.app.keys.create({ organization, contactEmail: 'usage@example.org' })).plaintext,
    ),
  );
  // Concurrent validations are stored in batches (one statement for several instances, several organisations).
  const answers = await Promise.all(
    [0, 0, 1, 0, 1, 1, 0].map((which) =>
      app.call('POST', '/api/v1/validate/xml/', {
        body: JSON.stringify({ xml_content: instance, sync_triplestore: false }),
        headers: { 'x-api-key': keys[which], 'content-type': 'application/json' },
      }),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 201, 201]);
  let { kept, counted } = await sums();
  expect(kept.map((r) => r.organization)).toEqual(expect.arrayContaining(['Usage A', 'Usage B']));
  expect(kept.find((r) => r.organization === 'Usage A')!.bytes).toBeGreaterThan(0);
  expect(kept).toEqual(counted);

  // A graph moved to another organisation and resized, an instance's bytes changed, a row deleted, an upload replaced.
  const [graph] = await app.services.db.query(`SELECT graph_uri FROM app_graphs WHERE organization = 'Usage A' LIMIT 1`);
  await app.services.db.query(`UPDATE app_graphs SET organization = 'Usage B', triple_count = triple_count + 5 WHERE graph_uri = $1`, [
    graph.graph_uri,
  ]);
  await app.services.db.query(`UPDATE app_instances SET stored_bytes = stored_bytes + 7 WHERE organization = 'Usage B'`);
  await app.services.db.query(`UPDATE app_instances SET rdf_sync_status = 'disabled'`);
  await app.services.db.query(`DELETE FROM app_instances WHERE id = (SELECT min(id) FROM app_instances WHERE organization = 'Usage A')`);
  await app.services.db.query(`INSERT INTO app_uploads (area, filename, organization, size) VALUES ('zip', 'u.zip', 'Usage A', 100)`);
  await app.services.db.query(
    `INSERT INTO app_uploads (area, filename, organization, size) VALUES ('zip', 'u.zip', 'Usage B', 40)
     ON CONFLICT (area, filename) DO UPDATE SET organization = EXCLUDED.organization, size = EXCLUDED.size`,
  );
  ({ kept, counted } = await sums());
  expect(kept).toEqual(counted);
});
