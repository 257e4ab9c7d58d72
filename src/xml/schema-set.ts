import { createHash } from 'node:crypto';
import path from 'node:path';
import { childElements, type XDocument, type XElement } from './dom';
import { parseXmlDom, positionOf } from './safe-parse';
import { SchemaCompileError, XmlParseError, type SchemaProblem } from './xml-errors';

export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

/** include/import location → XSD text, or null when it cannot be found. */
export type SchemaResolver = (location: string) => Promise<string | null>;

export interface SchemaSource {
  name: string;
  content: string;
}

/** A composition element (include, import, redefine, override) and the document it points at. */
interface SchemaReference {
  element: XElement;
  target: SchemaDocument | null;
}

export interface SchemaDocument {
  /** The location it was reached by (the main document's is its name). */
  location: string;
  name: string;
  text: string;
  dom: XDocument;
  references: SchemaReference[];
}

/** The main schema and everything it includes or imports, main first, each document once. */
export interface SchemaSet {
  documents: SchemaDocument[];
  /** sha256 over the texts in discovery order: equal content, equal key. */
  key: string;
}

const MAX_DOCUMENTS = 100;
const COMPOSITION = new Set(['include', 'import', 'redefine', 'override']);

export async function gatherSchemaSet(main: SchemaSource, resolve: SchemaResolver): Promise<SchemaSet> {
  const byLocation = new Map<string, SchemaDocument>();
  const problems: SchemaProblem[] = [];
  const first = readSchemaDocument(main.name, main.name, main.content);
  byLocation.set(first.location, first);
  const queue = [first];
  while (queue.length > 0) {
    const doc = queue.shift() as SchemaDocument;
    for (const reference of doc.references) {
      const raw = reference.element.getAttribute('schemaLocation');
      if (raw === null || raw.trim() === '') continue;
      const location = resolveLocation(raw.trim(), doc.location);
      let target = byLocation.get(location);
      if (!target) {
        if (byLocation.size >= MAX_DOCUMENTS)
          throw new SchemaCompileError([{ file: doc.name, line: 0, message: `More than ${MAX_DOCUMENTS} schema documents` }]);
        const text = await resolve(location);
        if (text === null) {
          const line = positionOf(reference.element).line;
          problems.push({
            file: doc.name,
            line,
            message: `Cannot resolve schema location '${raw}' (${reference.element.localName}): not in dmlib nor in the schema catalog`,
          });
          continue;
        }
        target = readSchemaDocument(location, lastSegment(location), text);
        byLocation.set(location, target);
        queue.push(target);
      }
      reference.target = target;
    }
  }
  if (problems.length > 0) throw new SchemaCompileError(problems);
  const documents = [...byLocation.values()];
  const hash = createHash('sha256');
  for (const d of documents) hash.update(d.text).update('\0');
  return { documents, key: hash.digest('hex') };
}

/** Parsed schema texts by content hash, so a cache lookup does not re-parse sdc4.xsd on every request. */
const parsedTexts = new Map<string, { dom: XDocument; composition: XElement[] }>();
const MAX_PARSED_TEXTS = 64;

export function readSchemaDocument(location: string, name: string, text: string): SchemaDocument {
  const { dom, composition } = parseSchemaText(name, text);
  return { location, name, text, dom, references: composition.map((element) => ({ element, target: null })) };
}

function parseSchemaText(name: string, text: string): { dom: XDocument; composition: XElement[] } {
  const hash = createHash('sha256').update(text).digest('hex');
  const cached = parsedTexts.get(hash);
  if (cached) return cached;
  let dom: XDocument;
  try {
    dom = parseXmlDom(text, { attributePositions: true });
  } catch (error) {
    if (error instanceof XmlParseError) throw new SchemaCompileError([{ file: name, line: error.line ?? 0, message: error.message }]);
    throw error;
  }
  const root = dom.documentElement;
  if (!root || root.namespaceURI !== XSD_NS || root.localName !== 'schema') {
    throw new SchemaCompileError([{ file: name, line: 1, message: `${name} is not an XML Schema document (root must be xsd:schema)` }]);
  }
  const composition = childElements(root).filter((e) => e.namespaceURI === XSD_NS && COMPOSITION.has(e.localName));
  if (parsedTexts.size >= MAX_PARSED_TEXTS) parsedTexts.delete(parsedTexts.keys().next().value as string);
  parsedTexts.set(hash, { dom, composition });
  return { dom, composition };
}

/** Absolute URLs stay as they are; relative ones resolve against the referencing document's location. */
function resolveLocation(raw: string, base: string): string {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(raw)) return raw;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(base)) return new URL(raw, base).href;
  return path.posix.normalize(path.posix.join(path.posix.dirname(base), raw));
}

export function lastSegment(location: string): string {
  const withoutQuery = location.split(/[?#]/)[0];
  const segment = withoutQuery.slice(withoutQuery.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
