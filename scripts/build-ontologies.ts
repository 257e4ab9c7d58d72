/** Writes ontologies/ from the hierarchy data in src/ontology/*.data.ts; `--check` fails if the committed files differ. */
import { readFile, writeFile } from 'node:fs/promises';
import { buildOntologyFiles } from '../src/ontology/ontology-builder';
import { ontologiesDir } from '../src/ontology/ontology-files';

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const dir = ontologiesDir();
  const stale: string[] = [];
  for (const [name, content] of Object.entries(await buildOntologyFiles())) {
    const file = `${dir}/${name}`;
    if (check) {
      const committed = await readFile(file, 'utf8').catch(() => null);
      if (committed !== content) stale.push(name);
    } else {
      await writeFile(file, content);
      console.log(`wrote ${file}`);
    }
  }
  if (stale.length > 0) {
    console.error(`out of date (run scripts/build-ontologies.ts): ${stale.join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
