import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { SRC, sourceFiles } from '../support/source-files';

/** One unit of work (docs/ARCHITECTURE.md): a transaction is passed explicitly as a `Tx` (never an optional or
 * defaulted parameter), a method that takes one never opens another, every transaction opens through
 * `transactionRetried`, and SQL lives under src/db. Read from the sources' syntax trees. */

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

/** Files (relative to src, sorted) in which `offends` finds at least one node. */
function offenders(offends: (node: ts.Node, tree: ts.SourceFile) => boolean): string[] {
  return SOURCES.filter(({ tree }) => {
    let found = false;
    walk(tree, (node) => {
      found ||= offends(node, tree);
    });
    return found;
  })
    .map(({ name }) => name)
    .sort();
}

const TRANSACTION_TYPE = /\b(EntityManager|DataSource|Tx|Queryable)\b/;

/** A parameter that says where statements run (a transaction, a manager or the data source). */
const isConnectionParameter = (node: ts.Node, tree: ts.SourceFile): node is ts.ParameterDeclaration =>
  ts.isParameter(node) && node.type !== undefined && TRANSACTION_TYPE.test(node.type.getText(tree));

const opensTransaction = (node: ts.Node): boolean =>
  ts.isCallExpression(node) &&
  ((ts.isIdentifier(node.expression) && node.expression.text === 'transactionRetried') ||
    (ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'transaction'));

const plainTransaction = (node: ts.Node): boolean =>
  ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'transaction';

/** Statements as this code base writes them: upper-case keywords. SPARQL's forms (SELECT ?x WHERE {…}, FROM <g>,
 * INSERT DATA, DELETE WHERE) and prose do not match. */
const SQL_STATEMENT = new RegExp(
  [
    /\bSELECT\b[^{}]*?\bFROM\s+(?!NAMED\b)[A-Za-z_"($]/,
    /\bSELECT\s+[a-z_]+\(/,
    /\bINSERT\s+INTO\b/,
    /\bUPDATE\s+[\w".$]+\s+(?:\w+\s+)?SET\b/,
    /\bDELETE\s+FROM\b/,
    /\bON\s+CONFLICT\b/,
    /\b(?:CREATE|ALTER|DROP)\s+(?:TABLE|INDEX|SCHEMA|FUNCTION|TRIGGER|SEQUENCE)\b/,
    /\b(?:LOCK\s+TABLE|TRUNCATE)\s+\w/,
    /\b(?:SAVEPOINT|RELEASE\s+SAVEPOINT|ROLLBACK\s+TO)\b/,
    /\bFOR\s+(?:NO\s+KEY\s+)?UPDATE\b/,
    /\bRETURNING\s+[\w*]/,
  ]
    .map((pattern) => pattern.source)
    .join('|'),
);

/** The text of a string or template literal, a substitution standing as `$x`. */
function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((span) => ` $x ${span.literal.text}`).join('');
  return null;
}

const isSql = (text: string) => SQL_STATEMENT.test(text);

/** Every source file outside src/db that could offend (a cheap look at its text first), parsed once. */
const SOURCES = sourceFiles(SRC)
  .filter((file) => !file.startsWith(path.join(SRC, 'db') + path.sep))
  .map((file) => ({ file, text: readFileSync(file, 'utf8') }))
  .filter(({ text }) => TRANSACTION_TYPE.test(text) || text.includes('.transaction(') || SQL_STATEMENT.test(text))
  .map(({ file, text }) => ({
    name: path.relative(SRC, file).split(path.sep).join('/'),
    tree: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false),
  }));

describe('one unit of work', () => {
  it('no parameter that says where statements run is optional or defaulted', () => {
    const found = offenders(
      (node, tree) => isConnectionParameter(node, tree) && (node.questionToken !== undefined || node.initializer !== undefined),
    );
    expect(found).toEqual([]);
  });

  it('a function that is handed a transaction never opens one behind its caller', () => {
    const found = offenders((node, tree) => {
      if (
        !ts.isFunctionLike(node) ||
        !node.parameters.some((p) => isConnectionParameter(p, tree) && /\b(EntityManager|Tx)\b/.test(p.type!.getText(tree)))
      )
        return false;
      const body = (node as ts.FunctionLikeDeclarationBase).body;
      let opens = false;
      if (body) walk(body, (inner) => (opens ||= opensTransaction(inner)));
      return opens;
    });
    expect(found).toEqual([]);
  });

  it('every transaction outside src/db opens through transactionRetried', () => {
    expect(offenders(plainTransaction)).toEqual([]);
  });

  it('no SQL string literal outside src/db', () => {
    const found = offenders((node) => {
      const text = literalText(node);
      return text !== null && isSql(text);
    });
    expect(found).toEqual([]);
  });

  it('the SQL check tells statements from SPARQL and prose', () => {
    const sql = [
      'SELECT * FROM signing_keys WHERE kid = $1',
      'SELECT id, ct_id FROM $x WHERE ct_id = ANY($1)',
      'SELECT pg_notify($1, $2)',
      'INSERT INTO wallets (user_id) VALUES ($1)',
      'UPDATE jobs SET attempts = attempts + 1 WHERE id = $1',
      'DELETE FROM sessions WHERE user_id = $1',
      'SAVEPOINT assembly_build',
      'SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE',
    ];
    const notSql = [
      'SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 10',
      'SELECT ?s FROM <urn:graph> WHERE { ?s a ?type }',
      'SELECT ?g FROM NAMED <urn:graph> WHERE { GRAPH ?g { ?s ?p ?o } }',
      'INSERT DATA { GRAPH <urn:g> { <urn:a> <urn:b> "c" } }',
      'DELETE WHERE { GRAPH <urn:g> { ?s ?p ?o } }',
      'Select a model from the catalog, then update its settings.',
    ];
    expect(sql.filter((text) => !isSql(text))).toEqual([]);
    expect(notSql.filter(isSql)).toEqual([]);
  });
});
