import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface KoncludeOptions {
  /** The Konclude executable (Debian package `konclude`); default `Konclude`. */
  konclude?: string;
  /** Per Konclude run; it is killed when exceeded. */
  timeoutMs?: number;
}

export interface ReasonerReport {
  consistent: boolean;
  /** IRIs of named classes equivalent to owl:Nothing (empty when the ontology is inconsistent). */
  unsatisfiable: string[];
}

const OWL_NOTHING = 'http://www.w3.org/2002/07/owl#Nothing';

function run(binary: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(binary, args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) return resolve(`${stdout}${stderr}`);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return reject(new Error(`Konclude not found as "${binary}": install the Debian package konclude`, { cause: error }));
      if (error.killed) return reject(new Error(`Konclude did not finish within ${timeoutMs} ms`, { cause: error }));
      reject(new Error(`Konclude failed: ${stderr || stdout || error.message}`, { cause: error }));
    });
  });
}

/** Named classes that a Konclude OWL/XML classification makes equivalent to owl:Nothing. */
export function unsatisfiableClasses(owx: string): string[] {
  const found = new Set<string>();
  for (const [block] of owx.matchAll(/<EquivalentClasses>[\s\S]*?<\/EquivalentClasses>/g)) {
    const iris = [...block.matchAll(/<Class (?:IRI="([^"]+)"|abbreviatedIRI="([^"]+)")\s*\/>/g)].map(
      ([, iri, abbreviated]) => iri ?? abbreviated.replace(/^owl:/, 'http://www.w3.org/2002/07/owl#'),
    );
    if (iris.includes(OWL_NOTHING)) for (const iri of iris) if (iri !== OWL_NOTHING) found.add(iri);
  }
  return [...found].sort();
}

/** Consistency and classification by Konclude, always with `-w AUTO` (one worker hangs) and under a timeout.
 * Konclude exits 0 even for an inconsistent ontology, so the answers are read from its output files. */
export async function reasonWithKonclude(turtle: string, options: KoncludeOptions = {}): Promise<ReasonerReport> {
  const binary = options.konclude ?? 'Konclude';
  const timeoutMs = options.timeoutMs ?? 60_000;
  const dir = await mkdtemp(path.join(tmpdir(), 'konclude-'));
  try {
    const input = path.join(dir, 'ontology.ttl');
    await writeFile(input, turtle);
    const consistencyFile = path.join(dir, 'consistency.txt');
    await run(binary, ['consistency', '-w', 'AUTO', '-i', input, '-o', consistencyFile], timeoutMs);
    const answer = (await readFile(consistencyFile, 'utf8').catch(() => '')).trim();
    if (answer !== 'true' && answer !== 'false') throw new Error(`Konclude wrote no consistency answer (got "${answer.slice(0, 80)}")`);
    if (answer === 'false') return { consistent: false, unsatisfiable: [] };
    const classificationFile = path.join(dir, 'classification.owx');
    await run(binary, ['classification', '-w', 'AUTO', '-i', input, '-o', classificationFile], timeoutMs);
    return { consistent: true, unsatisfiable: unsatisfiableClasses(await readFile(classificationFile, 'utf8')) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
