import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compiledSchema } from '../src/workers/validation.task';
import { validateWithCorrection } from '../src/xml/ev';
import { recordResults } from './results';
import { load, printTable, startBenchService } from './support';

const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = path.resolve(ROOT, '../shared/fixtures');
const CT_ID = 'its7j6bvrb9n2fxdcxmoemod';
const PACKAGE = path.join(FIXTURES, 'sdc4/packages/StatePopulation');

/** Calls `fn` back to back for `seconds` and returns calls per second. */
async function rate(seconds: number, fn: () => unknown): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let calls = 0;
  while (Date.now() < end) {
    await fn();
    calls++;
  }
  return Math.round(calls / seconds);
}

/** Linux's clock tick (USER_HZ), the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (µs) of this process's descendants (the embedded Postgres and its backends), from /proc; 0 where there is
 * no /proc or no child (DATABASE_URL: an external Postgres is not counted). */
function descendantsCpuMicros(): number {
  let procs: Array<{ pid: number; ppid: number; ticks: number }>;
  try {
    procs = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .flatMap((name) => {
        try {
          const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          return [{ pid: Number(name), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) }];
        } catch {
          return [];
        }
      });
  } catch {
    return 0;
  }
  const mine = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of procs) {
      if (!mine.has(p.pid) && mine.has(p.ppid)) {
        mine.add(p.pid);
        grew = true;
      }
    }
  }
  return procs.filter((p) => p.pid !== process.pid && mine.has(p.pid)).reduce((sum, p) => sum + (p.ticks * 1e6) / CLOCK_TICKS_PER_SECOND, 0);
}

/** bench:validate — POST validate/xml/ of StatePopulation's example (JSON body) at concurrency 1, 4 and 16, beside
 * an authenticated no-op (GET whoami/) and the same process's validation rate without HTTP: the libxml2 floor (the
 * document validated by libxml2-wasm alone, in a loop on one thread), the XML core (libxml2 + EV check on the cached
 * schema) and the whole service call (with JSON, RDF and the Postgres write). `floor` sets the service's CPU per
 * validation at c=16 (this process: event loop, pool threads and the in-process load generator, plus the embedded
 * Postgres's processes) beside the floor's. */
export async function benchValidate(durationSeconds = 20): Promise<Record<string, unknown>> {
  const service = await startBenchService({ schemaCatalogDir: path.join(FIXTURES, 'sdc4/reference') });
  try {
    const { app } = service.services;
    const { plaintext } = await app.keys.create({ organization: 'Bench', contactEmail: 'bench@example.org' });
    const xsd = readFileSync(path.join(PACKAGE, `dm-${CT_ID}.xsd`));
    const xml = readFileSync(path.join(PACKAGE, `dm-${CT_ID}.xml`), 'utf8');
    const form = new FormData();
    form.append('files', new Blob([xsd]), `dm-${CT_ID}.xsd`);
    const uploaded = await fetch(`${service.url}/api/v1/upload/schema/`, { method: 'POST', body: form, headers: { 'x-api-key': plaintext } });
    if (uploaded.status !== 201) throw new Error(`schema upload failed: ${uploaded.status} ${await uploaded.text()}`);
    const body = JSON.stringify({ xml_content: xml });
    const headers = { 'x-api-key': plaintext, 'content-type': 'application/json' };
    const first = await fetch(`${service.url}/api/v1/validate/xml/`, { method: 'POST', body, headers });
    if (first.status !== 201) throw new Error(`validation failed: ${first.status} ${await first.text()}`);

    const caller = await app.keys.authenticate(plaintext);
    const schema = await compiledSchema((await app.schemas.forModel(CT_ID)).schema);
    // The floor: the same document validated by libxml2-wasm alone (its parse and XSD validation of the compiled
    // schema, CompiledSchema.validate), in a loop on this thread, in the same run.
    const floorPerSecond = await rate(5, () => schema.validate(xml));
    const inMemory = {
      libxml2FloorValidationsPerSecond: floorPerSecond,
      xmlCoreValidationsPerSecond: await rate(5, () => validateWithCorrection(xml, schema)),
      serviceValidationsPerSecond: await rate(5, () => app.validation.validate({ xml, generateInstanceId: true, syncTriplestore: false, caller })),
    };

    /** Process CPU (service, its pool threads and the load generator's thread) per answered request: steadier
     * than req/s on a shared machine, to compare runs. */
    const cpuMsPerRequest: Record<string, number> = {};
    /** The same with the embedded Postgres's processes added: the service's whole CPU per request, in µs. */
    const serviceCpuMicrosPerRequest: Record<string, number> = {};
    const measured = async (name: string, options: Parameters<typeof load>[1]) => {
      const before = process.cpuUsage();
      const postgresBefore = descendantsCpuMicros();
      const row = await load(name, options);
      const used = process.cpuUsage(before);
      const postgres = descendantsCpuMicros() - postgresBefore;
      const requests = Math.max(1, row.requestsPerSecond * durationSeconds);
      cpuMsPerRequest[name] = +((used.user + used.system) / 1000 / requests).toFixed(2);
      serviceCpuMicrosPerRequest[name] = Math.round((used.user + used.system + postgres) / requests);
      return row;
    };
    const rows = [
      await measured('GET /api/v1/whoami/ (no-op, key), c=16', {
        url: `${service.url}/api/v1/whoami/`,
        headers: { 'x-api-key': plaintext },
        connections: 16,
        durationSeconds,
      }),
    ];
    for (const connections of [1, 4, 16]) {
      rows.push(
        await measured(`POST /api/v1/validate/xml/ (JSON), c=${connections}`, {
          url: `${service.url}/api/v1/validate/xml/`,
          method: 'POST',
          headers,
          body,
          connections,
          durationSeconds,
        }),
      );
    }
    printTable(rows);
    const validateC16 = 'POST /api/v1/validate/xml/ (JSON), c=16';
    const floorMicros = Math.round(1e6 / Math.max(1, floorPerSecond));
    const floor = {
      libxml2MicrosPerValidation: floorMicros,
      serviceCpuMicrosPerValidation: serviceCpuMicrosPerRequest[validateC16],
      timesTheFloor: +(serviceCpuMicrosPerRequest[validateC16] / floorMicros).toFixed(1),
    };
    console.log({ ...inMemory, poolThreads: service.services.cpu.threads, cpuMsPerRequest, serviceCpuMicrosPerRequest, floor });
    return { inMemory, poolThreads: service.services.cpu.threads, cpuMsPerRequest, serviceCpuMicrosPerRequest, floor, http: rows };
  } finally {
    await service.close();
  }
}

if (require.main === module) {
  benchValidate(Number(process.env.BENCH_SECONDS) || 20)
    .then((result) => recordResults('validate', result))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
