import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Fails when src has an import cycle: between top-level folders (src/<folder> → src/<other> must form a DAG) or
 * between files. Type-only imports count: they are dependencies too. */

const ROOT = path.resolve(__dirname, '../..');
const SRC = path.join(ROOT, 'src');

interface ImportEdge {
  from: string;
  to: string;
  line: number;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function isFile(candidate: string): boolean {
  try {
    return statSync(candidate).isFile();
  } catch {
    return false;
  }
}

function resolveRelative(fromFile: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(fromFile), specifier.replace(/\.js$/, ''));
  return [`${base}.ts`, path.join(base, 'index.ts')].find(isFile) ?? null;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return !clause.name && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.every((element) => element.isTypeOnly);
}

/** Static imports, re-exports, `import()` and `require()` whose specifier is a relative path to a file under src. */
function importsOf(file: string): ImportEdge[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const edges: ImportEdge[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean, at: ts.Node): void => {
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return;
    const to = resolveRelative(file, specifier.text);
    if (to?.startsWith(SRC + path.sep)) edges.push({ from: file, to, line: source.getLineAndCharacterOfPosition(at.getStart()).line + 1, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyImport(node), node);
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly, node);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add(node.moduleReference.expression, node.isTypeOnly, node);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      add(node.arguments[0], false, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** Tarjan's strongly connected components; a component of two or more nodes holds at least one cycle. */
function cyclicComponents(nodes: string[], next: (node: string) => string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const target of next(node)) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of nodes) if (!index.has(node)) connect(node);
  return components;
}

/** The shortest path back to `start` inside one component (breadth first), to print one concrete cycle. */
function shortestCycle(start: string, next: (node: string) => string[], inside: Set<string>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of next(node)) {
      if (!inside.has(target)) continue;
      if (target === start) {
        const cycle = [node];
        while (cycle[0] !== start) cycle.unshift(previous.get(cycle[0])!);
        return [...cycle, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start];
}

const relative = (file: string): string => path.relative(ROOT, file);
// Files directly under src (container.ts, server.ts, main.ts...) are the composition root: in no folder.
const folderOf = (file: string): string | null => {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts.length > 1 ? `src/${parts[0]}` : null;
};
const describe = (edge: ImportEdge): string =>
  `${relative(edge.from)}:${edge.line} imports ${relative(edge.to)}${edge.typeOnly ? ' (type only)' : ''}`;

function main(): number {
  const files = sourceFiles(SRC).sort();
  const edges = files.flatMap(importsOf);
  let problems = 0;

  const folderEdges = new Map<string, ImportEdge[]>();
  for (const edge of edges) {
    const [from, to] = [folderOf(edge.from), folderOf(edge.to)];
    if (from && to && from !== to) folderEdges.set(`${from} -> ${to}`, [...(folderEdges.get(`${from} -> ${to}`) ?? []), edge]);
  }
  const folderNext = (folder: string): string[] =>
    [...folderEdges.keys()].filter((key) => key.startsWith(`${folder} -> `)).map((key) => key.slice(folder.length + 4));
  const folders = [...new Set(files.map(folderOf).filter((folder) => folder !== null))].sort();
  for (const component of cyclicComponents(folders, folderNext)) {
    const inside = new Set(component);
    problems += 1;
    console.log(`folder cycle: ${shortestCycle(component[0], folderNext, inside).join(' -> ')}`);
    console.log(`  folders in this cycle: ${component.join(', ')}; the edges between them:`);
    const mutual = [...folderEdges.keys()].map((key) => key.split(' -> ')).filter(([from, to]) => from < to && folderEdges.has(`${to} -> ${from}`));
    for (const [a, b] of mutual) if (inside.has(a)) console.log(`  ${a} <-> ${b} import each other`);
    for (const [key, found] of [...folderEdges].sort(([a], [b]) => a.localeCompare(b))) {
      const [from, to] = key.split(' -> ');
      if (!inside.has(from) || !inside.has(to)) continue;
      console.log(`  ${key} (${found.length} import${found.length === 1 ? '' : 's'})`);
      for (const edge of found) console.log(`    ${describe(edge)}`);
    }
  }

  const fileNext = (file: string): string[] => [...new Set(edges.filter((edge) => edge.from === file).map((edge) => edge.to))];
  for (const component of cyclicComponents(files, fileNext)) {
    const inside = new Set(component);
    const cycle = shortestCycle(component[0], fileNext, inside);
    problems += 1;
    console.log(`file cycle (${component.length} files): ${cycle.map(relative).join(' -> ')}`);
    for (let i = 0; i + 1 < cycle.length; i += 1) {
      for (const edge of edges.filter((e) => e.from === cycle[i] && e.to === cycle[i + 1])) console.log(`    ${describe(edge)}`);
    }
    if (component.length > cycle.length - 1) console.log(`  all files in this cycle: ${component.map(relative).join(', ')}`);
  }

  const self = edges.filter((edge) => edge.from === edge.to);
  for (const edge of self) console.log(`file imports itself: ${describe(edge)}`);
  problems += self.length;

  console.log(problems === 0 ? `no import cycles in src (${files.length} files, ${edges.length} imports)` : `${problems} import cycle(s) in src`);
  return problems === 0 ? 0 : 1;
}

process.exitCode = main();
