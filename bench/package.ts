import { performance } from 'node:perf_hooks';
import { DATA_TYPES, type ClusterNode, type DataModelDocument } from '../src/domain/model-tree';
import { generateModelFiles } from '../src/packages/model-package';
import { zipFiles } from '../src/packages/zip-files';
import { recordResults } from './results';

/** bench:package — model package generation (all artefacts plus the ZIP) for models of 10, 100 and 1,000
 * components, every data type in turn, ten components to a cluster. Time should grow about linearly. */

const SIZES = [10, 100, 1000];

function benchModel(components: number): DataModelDocument {
  const clusters: ClusterNode[] = [];
  for (let i = 0; i < components; i++) {
    if (i % 10 === 0) clusters.push({ kind: 'cluster', ctId: `benchcl${i}`, label: `Group ${i / 10 + 1}`, description: null, children: [] });
    const dataType = DATA_TYPES[i % DATA_TYPES.length];
    clusters[clusters.length - 1].children.push({
      kind: 'component',
      ctId: `benchc${i}`,
      label: `${dataType} field ${i}`,
      dataType,
      description: `What field ${i} records, in a sentence or two.`,
      units: dataType === 'XdCount' ? 'people' : dataType === 'XdQuantity' ? 'kg' : null,
    });
  }
  const root: ClusterNode = { kind: 'cluster', ctId: 'benchroot', label: 'All groups', description: null, children: clusters };
  return {
    ctId: `benchmodel${components}`,
    title: `Bench model ${components}`,
    description: null,
    language: 'en-US',
    author: null,
    created: new Date(0),
    root,
  };
}

async function measure(components: number) {
  const model = benchModel(components);
  const runs = components >= 1000 ? 5 : 20;
  await zipFiles(generateModelFiles(model));
  const times: number[] = [];
  let zipBytes = 0;
  let fileBytes = 0;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const files = generateModelFiles(model);
    const zip = await zipFiles(files);
    times.push(performance.now() - start);
    zipBytes = zip.length;
    fileBytes = files.reduce((sum, f) => sum + Buffer.byteLength(f.content), 0);
  }
  times.sort((a, b) => a - b);
  const medianMs = Number(times[Math.floor(times.length / 2)].toFixed(1));
  return { components, runs, medianMs, msPerComponent: Number((medianMs / components).toFixed(3)), zipBytes, fileBytes };
}

export async function benchPackage(): Promise<Record<string, unknown>> {
  const rows = [];
  for (const size of SIZES) rows.push(await measure(size));
  console.table(rows);
  const [, hundred, thousand] = rows;
  const growth = Number((thousand.medianMs / hundred.medianMs).toFixed(2));
  console.log(`100 → 1,000 components (x10): time x${growth}, package size x${(thousand.zipBytes / hundred.zipBytes).toFixed(2)}`);
  return { sizes: rows, timeGrowth100To1000: growth };
}

if (require.main === module) {
  benchPackage()
    .then((result) => recordResults('package', result))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
