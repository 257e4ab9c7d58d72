import { createPrivateKey } from 'node:crypto';
import { DomainError } from '../lib/errors';
import { childElements, type TreeDocument, type TreeElement } from '../xml/dom';
import { validateWithCorrection, type EvCorrection } from '../xml/ev';
import { instanceToJson } from '../xml/instance-json';
import { extractInstanceRdf } from '../xml/instance-rdf';
import { decodeXmlBytes, inspectInstance } from '../xml/instance';
import { parseInstanceTree, type InstanceTree } from '../xml/instance-tree';
import { parseXmlDom, scanXml } from '../xml/safe-parse';
import { SchemaCompileError, type CompiledSchema } from '../xml/schema';
import { compileSchemaSet } from '../xml/schema-compiler';
import { qkey, type SchemaModel } from '../xml/schema-model';
import { gatherSchemaSet } from '../xml/schema-set';
import { dmCtIdOf, EXCEPTIONAL_VALUE_TYPE } from '../xml/sdc4';
import { signXml, type SignedProperties } from '../xml/signature';
import { XmlParseError, XmlValidationError, type XmlError } from '../xml/xml-errors';
import { settle, type Outcome } from './outcome';
import { applyThreadSettings } from './thread-setup';

applyThreadSettings();

/** The studio's validation as a service (POST /api/v1/vaas/validate/): CPU work only, errors as DomainErrors. */

/** A model's schema set as plain data (main document first), with its content key. */
export interface VaasSchemaSet {
  key: string;
  /** Omitted when the thread probably compiled `key` already (no 250 kB structured clone per request); a thread
   * that has not answers SCHEMA_NOT_LOADED and the caller sends the task again with them. */
  documents?: Array<{ location: string; name: string; text: string }>;
}

/** The code of the answer to a task without documents whose schema this thread has not compiled (VaasService
 * matches the literal: importing this module would apply the thread settings on the event loop). */
const SCHEMA_NOT_LOADED = 'schema_not_loaded';

export interface VaasValidateTask {
  xml: string;
  schema: VaasSchemaSet;
  /** strict: report; recover: EV correction as Interface B does it. */
  recover: boolean;
  /** Count the ExceptionalValue elements of the answer's instance (signing records it). */
  countEvs: boolean;
}

export interface VaasValidation {
  valid: boolean;
  /** libxml2's schema errors (XSD 1.0 structure and datatypes) not sitting on an EV-tagged value. */
  structuralErrors: number;
  /** XSD 1.1 assertion failures (fontoxpath) and errors on values their component tags with an ExceptionalValue. */
  semanticErrors: number;
  errors: XmlError[];
  /** The EV-corrected text, when recover changed something. */
  recoveredXml: string | null;
  corrections: EvCorrection[];
  evCount: number;
}

export interface VaasRenderTask {
  xml: string;
  dmCtId: string;
  instanceId: string;
  modelXsd: string;
}

/** One VaaS request's CPU work (vaasOnce). */
export interface VaasOnceTask {
  xml: string | Uint8Array;
  /** The model peekRootModel guessed (the root the thread must find) and its schema (the key alone, normally). */
  expected: { dmCtId: string };
  schema: VaasSchemaSet;
  recover: boolean;
  countEvs: boolean;
  /** Send the decoded text back when bytes were sent (signing and packages need it). */
  keepText: boolean;
  /** Render the answer's instance for a package (JSON and N-Triples), when it will not be signed first. */
  render: { instanceId: string; modelXsd: string } | null;
}

export type VaasOnceAnswer =
  | { done: VaasValidation & { decoded: string | null; rendered: { json: string; ntriples: string } | null } }
  | { needSchema: true }
  | { otherRoot: string };

/** Past this size the tree is built only for what needs it, as in xml.task: a large hostile document within the
 * limits is refused by a scan that keeps nothing. */
const TREE_IN_FIRST_PASS_MAX_CHARS = 256 * 1024;
const MAX_COMPILED = 32;
const compiled = new Map<string, Promise<CompiledSchema>>();

const malformed = (error: XmlParseError) =>
  new DomainError(400, 'invalid_xml', `The XML cannot be parsed: ${error.message}`, error.line ? { line: error.line } : {});

const notSdc4 = (rootTag: string) =>
  new DomainError(
    400,
    'invalid_xml',
    `Invalid root element <${rootTag}>: expected dm-{ct_id} in the SDC4 namespace https://semanticdatacharter.com/ns/sdc4/.`,
    {
      root: rootTag,
    },
  );

/** The ct_id the `dm-{ct_id}` root names, or 400 when the body is not a well-formed SDC4 instance. */
export function vaasRoot(xml: string | Uint8Array): Promise<Outcome<{ dmCtId: string; xml: string }>> {
  return settle(() => {
    try {
      const text = typeof xml === 'string' ? xml : decodeXmlBytes(xml);
      const inspection = inspectInstance(text);
      if (inspection.dmCtId === null) throw notSdc4(inspection.rootTag);
      return { dmCtId: inspection.dmCtId, xml: text };
    } catch (error) {
      if (error instanceof XmlParseError) throw malformed(error);
      throw error;
    }
  });
}

export function vaasValidate(task: VaasValidateTask): Promise<Outcome<VaasValidation>> {
  return settle(async () => checked(task.xml, await compiledSchema(task.schema), task, null));
}

/** Validation (and EV correction on recover) of a well-formed instance; `tree` is its single-pass tree, if built. */
function checked(xml: string, schema: CompiledSchema, task: { recover: boolean; countEvs: boolean }, tree: InstanceTree | null): VaasValidation {
  try {
    const outcome = validateWithCorrection(xml, schema);
    if (outcome.corrections.length > 0 && !task.recover) return invalid(schema.validate(xml));
    const recoveredXml = outcome.corrections.length > 0 ? outcome.correctedXml : null;
    const document = task.countEvs ? (outcome.correctedDocument ?? answerTree(xml, outcome.correctedXml, tree)) : null;
    const assertionFailures = outcome.remainingErrors.filter(isAssertion).length;
    return {
      valid: assertionFailures === 0,
      structuralErrors: 0,
      semanticErrors: outcome.remainingErrors.length,
      errors: outcome.remainingErrors,
      recoveredXml,
      corrections: outcome.corrections,
      evCount: document ? countEvs(document, schema.model) : 0,
    };
  } catch (error) {
    if (error instanceof XmlValidationError) return invalid(error.errors);
    if (error instanceof XmlParseError) throw malformed(error);
    throw error;
  }
}

/** The tree of the instance the answer carries: the first pass's when it is the instance as sent. */
const answerTree = (sent: string, answered: string, tree: InstanceTree | null): TreeDocument =>
  answered === sent ? (tree ?? parseInstanceTree(sent)) : parseXmlDom(answered);

/**
 * A whole VaaS validation in one pool trip. The event loop guessed the model from the root start tag
 * (src/xml/root-peek.ts) and sends that model's schema key alone; the thread decodes, parses once (limits,
 * well-formedness, the root and a tree reused for the EV count and the package's JSON and triples), and
 * validates. A malformed instance or a root outside SDC4 is the same 400 as vaasRoot's; a `dm-{ct_id}` root
 * other than the guess answers `otherRoot` (the event loop starts over from vaasRoot), and a schema this thread
 * has not compiled answers `needSchema` (the event loop sends the same task again with the documents).
 */
export function vaasOnce(task: VaasOnceTask): Promise<Outcome<VaasOnceAnswer>> {
  return settle(async (): Promise<VaasOnceAnswer> => {
    let text: string;
    let tree: InstanceTree | null = null;
    let dmCtId: string | null;
    try {
      text = typeof task.xml === 'string' ? task.xml : decodeXmlBytes(task.xml);
      if (text.length <= TREE_IN_FIRST_PASS_MAX_CHARS) ({ dmCtId } = tree = parseInstanceTree(text));
      else {
        const scanned = scanXml(text);
        dmCtId = dmCtIdOf(scanned.namespace, scanned.localName);
        if (dmCtId === null) throw notSdc4(scanned.rootTag);
      }
      if (dmCtId === null) throw notSdc4((tree as InstanceTree).rootTag);
    } catch (error) {
      if (error instanceof XmlParseError) throw malformed(error);
      throw error;
    }
    if (dmCtId !== task.expected.dmCtId) return { otherRoot: dmCtId };
    if (!task.schema.documents && !compiled.has(task.schema.key)) return { needSchema: true };
    const result = checked(text, await compiledSchema(task.schema), task, tree);
    const decoded = typeof task.xml === 'string' || !task.keepText ? null : text;
    if (!task.render) return { done: { ...result, decoded, rendered: null } };
    const document = answerTree(text, result.recoveredXml ?? text, tree);
    return { done: { ...result, decoded, rendered: rendered(document, { ...task.render, dmCtId }) } };
  });
}

function rendered(document: TreeDocument, args: { dmCtId: string; instanceId: string; modelXsd: string }) {
  const rdf = extractInstanceRdf({ document, ...args });
  return { json: `${JSON.stringify(instanceToJson(document), null, 2)}\n`, ntriples: rdf.ntriples };
}

/** The instance's JSON rendering and its triples (N-Triples) for a package. */
export function vaasRender(task: VaasRenderTask): Promise<Outcome<{ json: string; ntriples: string }>> {
  return settle(() => rendered(parseXmlDom(task.xml), task));
}

export interface VaasSignTask {
  xml: string;
  kid: string;
  privateKeyPem: string;
  properties: SignedProperties;
}

/** The enveloped Ed25519 XML Signature of a validated instance (src/xml/signature.ts). */
export function vaasSign(task: VaasSignTask): Promise<Outcome<string>> {
  return settle(() => {
    try {
      return signXml(task.xml, { privateKey: createPrivateKey(task.privateKeyPem), kid: task.kid }, task.properties);
    } catch (error) {
      throw new DomainError(400, 'invalid_request', `The instance cannot be signed: ${(error as Error).message}.`, {}, { cause: error });
    }
  });
}

/** Assertion failures are written by src/xml/assertions.ts in one recognisable form. */
const isAssertion = (error: XmlError) => /^Element '[^']*': The assertion '/.test(error.message);

function invalid(errors: XmlError[]): VaasValidation {
  const semantic = errors.filter(isAssertion).length;
  return {
    valid: false,
    structuralErrors: errors.length - semantic,
    semanticErrors: semantic,
    errors: errors.map(({ line, message }) => ({ line, message })),
    recoveredXml: null,
    corrections: [],
    evCount: 0,
  };
}

function countEvs(document: TreeDocument, model: SchemaModel): number {
  let count = 0;
  const visit = (element: TreeElement) => {
    const declaration = model.elements.get(qkey(element.namespaceURI, element.localName));
    if (declaration && model.derivesFrom(declaration.typeKey, EXCEPTIONAL_VALUE_TYPE)) count++;
    for (const child of childElements(element)) visit(child);
  };
  if (document.documentElement) visit(document.documentElement);
  return count;
}

/** This thread's compiled schemas by content key (a changed schema has a new key, so nothing goes stale). */
function compiledSchema(set: VaasSchemaSet): Promise<CompiledSchema> {
  let entry = compiled.get(set.key);
  if (entry) compiled.delete(set.key);
  else if (!set.documents) throw new DomainError(409, SCHEMA_NOT_LOADED, 'This thread has not compiled the schema: send its documents.');
  else {
    const byLocation = new Map(set.documents.map((d) => [d.location, d.text]));
    const [main] = set.documents;
    entry = gatherSchemaSet({ name: main.name, content: main.text }, async (location) => byLocation.get(location) ?? null).then(compileSchemaSet);
    entry.catch(() => undefined);
  }
  compiled.set(set.key, entry);
  while (compiled.size > MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
  return entry.catch((error: unknown) => {
    if (!(error instanceof SchemaCompileError)) throw error;
    throw new DomainError(422, 'schema_invalid', `The model's schema does not compile: ${error.problems.map((p) => p.message).join('; ')}`, {
      errors: error.problems.map((p) => ({ line: p.line, message: p.message, file: p.file })),
    });
  });
}
