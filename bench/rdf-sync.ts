import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Services } from '../src/container';
import { one, rows } from '../src/db/sql';
import { startRdfSyncWorker } from '../src/jobs/rdf-sync.task';
import { GraphStoreClient } from '../src/rdf/graph-store-client';
import { startVirtuoso } from '../test/support/virtuoso';
import { pool, withPeakRss } from './measure';
import { recordResults } from './results';
import { printTable, startBenchService } from './support';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/sdc4');
const CT_ID = 'its7j6bvrb9n2fxdcxmoemod';
const PACKAGE = path.join(FIXTURES, 'packages/StatePopulation');

type Caller = Parameters<Services['app']['validation']['validate']>[0]['caller'];

/** Validated StatePopulation instances whose graphs wait for the triplestore (`pending`). */
async function pendingInstances(services: Services, caller: Caller, xml: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const result = await services.app.validation.validate({ xml, generateInstanceId: true, syncTriplestore: true, caller });
    if (result.rdfSyncStatus !== 'pending') throw new Error(`instance not queued for sync: ${JSON.stringify(result).slice(0, 300)}`);
    ids.push(result.instanceId);
  }
  return ids;
}

async function tripleTotal(services: Services, ids: string[]): Promise<number> {
  const row = await one<{ n: string }>(
    services.db,
    'SELECT sum(g.triple_count) AS n FROM app_instances i JOIN app_graphs g ON g.graph_uri = i.graph_uri WHERE i.instance_id = ANY($1)',
    [ids],
  );
  return Number(row!.n);
}

async function syncedCount(services: Services, ids: string[]): Promise<number> {
  const row = await one<{ n: string }>(
    services.db,
    `SELECT count(*) AS n FROM app_instances WHERE instance_id = ANY($1) AND rdf_sync_status = 'synced'`,
    [ids],
  );
  return Number(row!.n);
}

/** bench:rdf-sync — instance graphs written to a real Virtuoso 7 (Graph Store Protocol, Basic auth): first the
 * sync step itself called directly at the worker's concurrency, then a backlog of the same size drained by the
 * service's rdf_sync queue worker (queue polling included). Instances are StatePopulation's example. */
export async function benchRdfSync(options: { quick?: boolean } = {}): Promise<Record<string, unknown>> {
  const count = options.quick ? 40 : 200;
  const virtuoso = await startVirtuoso();
  try {
    const triplestore = {
      url: virtuoso.graphStoreUrl,
      queryUrl: virtuoso.queryUrl,
      protocol: 'graph-store' as const,
      repository: null,
      user: virtuoso.user,
      password: virtuoso.password,
    };
    const service = await startBenchService({ schemaCatalogDir: path.join(FIXTURES, 'reference'), triplestore }, { workers: false });
    try {
      const { services } = service;
      const { plaintext } = await services.app.keys.create({ organization: 'Bench', contactEmail: 'bench@example.org' });
      const form = new FormData();
      form.append('files', new Blob([readFileSync(path.join(PACKAGE, `dm-${CT_ID}.xsd`))]), `dm-${CT_ID}.xsd`);
      const uploaded = await fetch(`${service.url}/api/v1/upload/schema/`, { method: 'POST', body: form, headers: { 'x-api-key': plaintext } });
      if (uploaded.status !== 201) throw new Error(`schema upload failed: ${uploaded.status} ${await uploaded.text()}`);
      const caller = await services.app.keys.authenticate(plaintext);
      const xml = readFileSync(path.join(PACKAGE, `dm-${CT_ID}.xml`), 'utf8');
      const concurrency = services.settings.workerConcurrency;

      const direct = await pendingInstances(services, caller, xml, count);
      // The direct pass replaces the queue for these instances: their queued messages are dropped.
      await rows(services.db, `DELETE FROM pgboss.job WHERE name = 'rdf_sync' AND state = 'created'`);
      const directStart = performance.now();
      const { peakRssMb: directRss } = await withPeakRss(() => pool(count, concurrency, async (i) => services.app.instances.sync(direct[i])));
      const directSeconds = (performance.now() - directStart) / 1000;
      if ((await syncedCount(services, direct)) !== count) throw new Error('direct sync left instances unsynced');

      const queued = await pendingInstances(services, caller, xml, count);
      const queueStart = performance.now();
      const { peakRssMb: queueRss } = await withPeakRss(async () => {
        await startRdfSyncWorker(services);
        const deadline = Date.now() + 5 * 60_000;
        while ((await syncedCount(services, queued)) < count) {
          if (Date.now() > deadline) throw new Error('queued sync did not finish in 5 minutes');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      });
      const queueSeconds = (performance.now() - queueStart) / 1000;

      const store = new GraphStoreClient({
        graphStoreUrl: virtuoso.graphStoreUrl,
        queryUrl: virtuoso.queryUrl,
        user: virtuoso.user,
        password: virtuoso.password,
      });
      const sample = queued[queued.length - 1];
      const stored = await one<{ n: string }>(
        services.db,
        'SELECT g.triple_count AS n FROM app_instances i JOIN app_graphs g ON g.graph_uri = i.graph_uri WHERE i.instance_id = $1',
        [sample],
      );
      const inVirtuoso = await store.tripleCount(`urn:sdc4:instance:${sample}`);
      if (inVirtuoso !== Number(stored!.n)) throw new Error(`Virtuoso holds ${inVirtuoso} triples for ${sample}, Postgres ${stored!.n}`);

      const triplesPerInstance = Math.round((await tripleTotal(services, queued)) / count);
      const rowsOut = [
        {
          path: `sync step called directly, concurrency ${concurrency}`,
          instances: count,
          seconds: Number(directSeconds.toFixed(2)),
          instancesPerSecond: Number((count / directSeconds).toFixed(1)),
          triplesPerSecond: Math.round((count * triplesPerInstance) / directSeconds),
          peakRssMb: directRss,
        },
        {
          path: `rdf_sync queue worker, concurrency ${concurrency}`,
          instances: count,
          seconds: Number(queueSeconds.toFixed(2)),
          instancesPerSecond: Number((count / queueSeconds).toFixed(1)),
          triplesPerSecond: Math.round((count * triplesPerInstance) / queueSeconds),
          peakRssMb: queueRss,
        },
      ];
      printTable(rowsOut);
      return {
        triplesPerInstance,
        direct: rowsOut[0],
        queue: rowsOut[1],
        directOverQueueRatio: Number((rowsOut[0].instancesPerSecond / rowsOut[1].instancesPerSecond).toFixed(2)),
      };
    } finally {
      await service.close();
    }
  } finally {
    await virtuoso.dispose();
  }
}

if (require.main === module) {
  benchRdfSync({ quick: process.argv.includes('--quick') })
    .then((result) => recordResults('rdfSync', result))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
