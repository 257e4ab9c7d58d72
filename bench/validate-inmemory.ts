/** In-memory validation throughput on one core: StatePopulation's example against its compiled schema (with the
 * real sdc4.xsd from the fixtures catalog), as raw schema validation, as the full valid path (inspect + validate
 * with correction) and as the EV path (N/A at line 25). Run: `npx tsc -p tsconfig.json && node
 * dist/bench/validate-inmemory.js [seconds per case]`. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { validateWithCorrection } from '../src/xml/ev';
import { inspectInstance } from '../src/xml/instance';
import { catalogResolver, compileSchema } from '../src/xml/schema';

/** The fixtures sit beside the checkout; found from the nearest package.json up from this file. */
function fixturesDir(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return path.join(dir, '../shared/fixtures/sdc4');
  }
  throw new Error(`No package.json above ${__dirname}`);
}

/** Yields between batches, as a server does between requests (libxml2-wasm's WeakRefs are released per job). */
async function measure(name: string, seconds: number, run: () => void): Promise<void> {
  for (let i = 0; i < 200; i++) run();
  const rssBefore = process.memoryUsage().rss;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(seconds * 1e9);
  let count = 0;
  while (process.hrtime.bigint() < deadline) {
    for (let i = 0; i < 100; i++) run();
    count += 100;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const rssGrowthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
  console.log(
    JSON.stringify({
      case: name,
      instances: count,
      seconds: +elapsed.toFixed(2),
      per_second: Math.round(count / elapsed),
      rss_growth_mb: +rssGrowthMb.toFixed(1),
    }),
  );
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 5);
  const fixtures = fixturesDir();
  const pkg = path.join(fixtures, 'packages/StatePopulation');
  const xsd = readFileSync(path.join(pkg, 'dm-its7j6bvrb9n2fxdcxmoemod.xsd'), 'utf8');
  const xml = readFileSync(path.join(pkg, 'dm-its7j6bvrb9n2fxdcxmoemod.xml'), 'utf8');
  const naXml = xml.replace('<xdcount-value>23</xdcount-value>', '<xdcount-value>N/A</xdcount-value>');
  const resolve = catalogResolver({ dmlib: async () => null, catalogDir: path.join(fixtures, 'reference'), fetchAllowed: false });

  const compileStarted = Date.now();
  const schema = await compileSchema({ name: 'dm-its7j6bvrb9n2fxdcxmoemod.xsd', content: xsd }, resolve);
  console.log(JSON.stringify({ case: 'compile (first, includes loading libxml2-wasm)', ms: Date.now() - compileStarted }));

  await measure('schema.validate (valid example)', seconds, () => {
    if (schema.validate(xml).length !== 0) throw new Error('example should be valid');
  });
  await measure('inspectInstance + validateWithCorrection (valid)', seconds, () => {
    inspectInstance(xml);
    if (validateWithCorrection(xml, schema).status !== 'valid') throw new Error('example should be valid');
  });
  await measure('inspectInstance + validateWithCorrection (N/A → EV)', seconds, () => {
    inspectInstance(naXml);
    if (validateWithCorrection(naXml, schema).status !== 'valid_with_ev') throw new Error('N/A should be corrected');
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
