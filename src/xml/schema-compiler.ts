import { randomUUID } from 'node:crypto';
import { checkAssertions, evaluateAssertions } from './assertions';
import { loadLibxml, MEMORY_SCHEME, parseWithLibxml, withMemoryFiles, type LibxmlDocument, type LibxmlModule, type XsdValidator } from './libxml';
import type { LocatedError } from './node-path';
import { attributeValueRange, checkSize, parseXmlDom, positionOf } from './safe-parse';
import type { SchemaSet } from './schema-set';
import { SchemaModel } from './schema-model';
import { SchemaCompileError, XmlParseError, type SchemaProblem, type XmlError } from './xml-errors';

export interface CompiledSchema {
  /** Every error of the instance against the schema, assertions included; [] when valid. Throws XmlParseError
   * when the text is not a safe, well-formed document. */
  validate(xml: string): XmlError[];
  /** The same errors with the libxml2-style path of the element each one is about. */
  validateLocated(xml: string): LocatedError[];
  /** sha256 of the schema texts the validator was compiled from. */
  readonly key: string;
  /** Names of the schema documents (main first). */
  readonly names: readonly string[];
  readonly model: SchemaModel;
}

export async function compileSchemaSet(set: SchemaSet): Promise<CompiledSchema> {
  const lib = await loadLibxml();
  const model = SchemaModel.build(set.documents);
  const assertionProblems = checkAssertions(model.assertions);
  if (assertionProblems.length > 0) throw new SchemaCompileError(assertionProblems);
  const directory = `${MEMORY_SCHEME}${randomUUID()}/`;
  const urls = set.documents.map((d, i) => `${directory}${i}/${encodeURIComponent(d.name)}`);
  const files = new Map(urls.map((url, i) => [url, libxmlText(set, i, urls, model)]));
  const names = new Map(urls.map((url, i) => [url, set.documents[i].name]));
  const validator = withMemoryFiles(files, () => {
    let main: LibxmlDocument;
    try {
      main = parseWithLibxml(lib, files.get(urls[0]) as string, urls[0]);
    } catch (error) {
      if (error instanceof XmlParseError)
        throw new SchemaCompileError([{ file: set.documents[0].name, line: error.line ?? 0, message: error.message }]);
      throw error;
    }
    try {
      return lib.XsdValidator.fromDoc(main);
    } catch (error) {
      if (error instanceof lib.XmlLibError) throw new SchemaCompileError(compileProblems(error, names));
      throw error;
    } finally {
      main.dispose();
    }
  });
  return new LibxmlSchema(
    lib,
    validator,
    model,
    set.key,
    set.documents.map((d) => d.name),
  );
}

/** The text libxml2 gets: composition locations pointed at the in-memory copies, assertions cut out (their
 * lines kept as blank lines so the compiler's line numbers still match the original document). */
function libxmlText(set: SchemaSet, index: number, urls: string[], model: SchemaModel): string {
  const doc = set.documents[index];
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const reference of doc.references) {
    const range = attributeValueRange(doc.text, reference.element, 'schemaLocation');
    if (range && reference.target) edits.push({ start: range[0], end: range[1], text: urls[set.documents.indexOf(reference.target)] });
  }
  for (const assertion of model.assertions) {
    if (assertion.source.ownerDocument !== doc.dom) continue;
    const { start, end } = positionOf(assertion.source);
    edits.push({ start, end, text: '\n'.repeat(doc.text.slice(start, end).split('\n').length - 1) });
  }
  let text = doc.text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  return text;
}

function compileProblems(
  error: { message: string; details: Array<{ message: string; line: number; file?: string; level: number }> },
  names: Map<string, string>,
): SchemaProblem[] {
  const problems = error.details
    .filter((d) => d.level >= 2)
    .map((d) => ({ file: (d.file && names.get(d.file)) ?? d.file ?? '', line: d.line, message: d.message.trim() }));
  return problems.length > 0 ? problems : [{ file: '', line: 0, message: error.message.trim() || 'The schema does not compile' }];
}

const DOCTYPE_REFUSED = 'DOCTYPE declarations are not allowed (no DTDs, no entities)';

class LibxmlSchema implements CompiledSchema {
  private readonly assertionFilter: ((xml: string) => boolean) | null;

  constructor(
    private readonly lib: LibxmlModule,
    private readonly validator: XsdValidator,
    readonly model: SchemaModel,
    readonly key: string,
    readonly names: readonly string[],
  ) {
    this.assertionFilter = model.assertions.length === 0 ? null : assertionFilter(model.assertingElementNames());
  }

  validate(xml: string): XmlError[] {
    return this.validateLocated(xml).map(({ line, message }) => ({ line, message }));
  }

  validateLocated(xml: string): LocatedError[] {
    checkSize(xml);
    if (prologHasDoctype(xml)) throw new XmlParseError(DOCTYPE_REFUSED);
    const doc = parseWithLibxml(this.lib, xml);
    let errors: LocatedError[];
    try {
      if (doc.dtd) throw new XmlParseError(DOCTYPE_REFUSED);
      errors = this.schemaErrors(doc);
    } finally {
      doc.dispose();
    }
    if (this.assertionFilter?.(xml)) errors.push(...evaluateAssertions(parseXmlDom(xml), this.model));
    return errors.sort((a, b) => a.line - b.line);
  }

  private schemaErrors(doc: LibxmlDocument): LocatedError[] {
    try {
      this.validator.validate(doc);
      return [];
    } catch (error) {
      if (!(error instanceof this.lib.XmlValidateError)) throw error;
      const errors = error.details.map((d) => ({ line: d.line, message: d.message.trim(), path: d.xpath ?? null }));
      return errors.length > 0 ? errors : [{ line: 0, message: error.message.trim(), path: null }];
    }
  }
}

/** Whether a text has a start tag of an element that may carry assertions, or any xsi:type (which can switch a type
 * in). Each pattern runs only when the text holds its necessary condition, found by plain substring searches: one of
 * the few names, or a `:type` (the xsi:type pattern is otherwise tried at every blank of the text). */
function assertionFilter(names: Set<string>): (xml: string) => boolean {
  const listed = [...names];
  const escaped = listed.map((n) => n.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'));
  const startTag = escaped.length > 0 ? new RegExp(`<(?:[^\\s<>/:]+:)?(?:${escaped.join('|')})[\\s/>]`) : null;
  const mayHaveName = listed.length <= 8 ? (xml: string) => listed.some((name) => xml.includes(name)) : () => true;
  const xsiType = /\s[^\s<>=]+:type\s*=/;
  return (xml) => (startTag !== null && mayHaveName(xml) && startTag.test(xml)) || (xml.includes(':type') && xsiType.test(xml));
}

/** A DOCTYPE can only stand before the first start tag; libxml2's `doc.dtd` is checked as well after parsing. */
function prologHasDoctype(xml: string): boolean {
  const root = xml.search(/<[A-Za-z_:]/);
  return (root === -1 ? xml : xml.slice(0, root)).includes('<!DOCTYPE');
}
