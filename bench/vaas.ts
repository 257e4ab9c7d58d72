import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { recordResults } from './results';
import { load, printTable, startBenchService, type LoadResult } from './support';

const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = path.resolve(ROOT, '../shared/fixtures');
const CT_ID = 'its7j6bvrb9n2fxdcxmoemod';
const PACKAGE = path.join(FIXTURES, 'sdc4/packages/StatePopulation');

/** bench:vaas — the studio's POST /api/v1/vaas/validate/?mode=strict of StatePopulation's example (raw XML, Token,
 * charged one credit each) beside Interface B's POST /api/v1/validate/xml/ (JSON) in the same service, both at
 * concurrency 16, alternating in rounds of about 5 s; `vaasOverValidateXml` is VaaS requests per second over
 * validate/xml's summed over the rounds (the goal: at least 0.8), with each round's ratio and the load
 * average beside it (the machine may be shared). */
export async function benchVaas(durationSeconds = 20): Promise<Record<string, unknown>> {
  const service = await startBenchService({ schemaCatalogDir: path.join(FIXTURES, 'sdc4/reference') });
  try {
    const { app, packages, users, ledger, keys } = service.services;
    const xml = readFileSync(path.join(PACKAGE, `dm-${CT_ID}.xml`), 'utf8');

    const { plaintext: appKey } = await app.keys.create({ organization: 'Bench', contactEmail: 'bench@example.org' });
    const form = new FormData();
    form.append('files', new Blob([readFileSync(path.join(PACKAGE, `dm-${CT_ID}.xsd`))]), `dm-${CT_ID}.xsd`);
    const uploaded = await fetch(`${service.url}/api/v1/upload/schema/`, { method: 'POST', body: form, headers: { 'x-api-key': appKey } });
    if (uploaded.status !== 201) throw new Error(`schema upload failed: ${uploaded.status} ${await uploaded.text()}`);
    const appRequest = { headers: { 'x-api-key': appKey, 'content-type': 'application/json' }, body: JSON.stringify({ xml_content: xml }) };

    await packages.importPackage(PACKAGE);
    const user = await users.create({ email: 'vaas-bench@example.org', password: 'correct horse battery' });
    await ledger.credit(user.id, 1_000_000_000, 'bench');
    const { key } = await keys.create(user.id, {
      name: 'vaas-bench',
      scopes: ['read', 'build', 'spend'],
      spendLimitCredits: null,
      expiresInDays: null,
    });
    const vaasRequest = { headers: { authorization: `Token ${key}`, 'content-type': 'application/xml' }, body: xml };
    const vaasUrl = `${service.url}/api/v1/vaas/validate/?mode=strict&package=false`;

    for (const [url, request, status] of [
      [`${service.url}/api/v1/validate/xml/`, appRequest, 201],
      [vaasUrl, vaasRequest, 200],
    ] as const) {
      const first = await fetch(url, { method: 'POST', ...request });
      if (first.status !== status) throw new Error(`${url} answered ${first.status}: ${await first.text()}`);
    }

    // The machine is shared: the two loads alternate in short rounds so a burst of other work slows both alike,
    // and the ratio is of the requests each made over the same rounds.
    const rounds = Math.max(1, Math.round(durationSeconds / 5));
    const seconds = Math.max(1, Math.round(durationSeconds / rounds));
    const rows: LoadResult[] = [];
    const roundRatios: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const b = await load(`POST /api/v1/validate/xml/ (JSON), c=16, round ${round}`, {
        url: `${service.url}/api/v1/validate/xml/`,
        method: 'POST',
        ...appRequest,
        connections: 16,
        durationSeconds: seconds,
      });
      const vaas = await load(`POST /api/v1/vaas/validate/?mode=strict (raw XML), c=16, round ${round}`, {
        url: vaasUrl,
        method: 'POST',
        ...vaasRequest,
        connections: 16,
        durationSeconds: seconds,
      });
      rows.push(b, vaas);
      roundRatios.push(Math.round((vaas.requestsPerSecond / Math.max(1, b.requestsPerSecond)) * 100) / 100);
    }
    printTable(rows);
    const total = (name: string) => rows.filter((r) => r.name.startsWith(name)).reduce((sum, r) => sum + r.requestsPerSecond, 0);
    const ratio = Math.round((total('POST /api/v1/vaas/') / Math.max(1, total('POST /api/v1/validate/xml/'))) * 100) / 100;
    const loadAverage = os.loadavg().map((n) => Math.round(n * 100) / 100);
    console.log({ vaasOverValidateXml: ratio, roundRatios, goal: 0.8, poolThreads: service.services.cpu.threads, loadAverage });
    return { vaasOverValidateXml: ratio, roundRatios, goal: 0.8, poolThreads: service.services.cpu.threads, loadAverage, http: rows };
  } finally {
    await service.close();
  }
}

if (require.main === module) {
  benchVaas(Number(process.env.BENCH_SECONDS) || 20)
    .then((result) => recordResults('vaas', result))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
