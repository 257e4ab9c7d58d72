import { invalidXml, validationFailed } from '../lib/app-api-errors';
import { packageZip, vaasPackageFiles } from '../packages/vaas-package-zip';
import { DomainError } from '../lib/errors';
import { settle, type Outcome } from './outcome';
import { applyThreadSettings } from './thread-setup';
import { childElements, type TreeDocument, type TreeElement } from '../xml/dom';
import { validateWithCorrection, type CorrectionResult, type EvCorrection } from '../xml/ev';
import { instanceToJson } from '../xml/instance-json';
import { extractInstanceRdf, extractInstanceTurtle } from '../xml/instance-rdf';
import { decodeXmlBytes, inspectInstance } from '../xml/instance';
import { parseInstanceTree, type InstanceTree } from '../xml/instance-tree';
import { checkSize, parseXmlDom, scanXml } from '../xml/safe-parse';
import { compileSchema, SchemaCompileError, type CompiledSchema } from '../xml/schema';
import { compileSchemaSet } from '../xml/schema-compiler';
import { qkey, type SchemaModel } from '../xml/schema-model';
import { gatherSchemaSet } from '../xml/schema-set';
import { dmCtIdOf, EXCEPTIONAL_VALUE_TYPE } from '../xml/sdc4';
import { errorsByLine, XmlParseError, XmlValidationError, type XmlError } from '../xml/xml-errors';
import { instanceIdFor } from '../xml/instance-id';

applyThreadSettings();

/**
 * Validation's CPU work, for every door (Interface B's validate/xml, the studio's VaaS and GraphQL), in one thread
 * module: one compile cache, one way to ask for a schema's documents, one parse of the instance for its limits, its
 * root and the tree its JSON, triples and EV count reuse. The doors differ only by what they ask for (store or
 * charge, which error shape, recover or strict). The pool's `validation` task module (`xml` and `vaas` re-export it,
 * so tasks under any of the three names share this module and its cache in a thread); src/validation/index.ts is
 * the door the event loop imports its types through.
 */

// ---------------------------------------------------------------------------------------------------------------
// Schemas: one compile cache per thread, one protocol for missing documents
// ---------------------------------------------------------------------------------------------------------------

/** A schema set as plain data (main document first, the model XSD), with its content key. The documents are large
 * (sdc4.xsd alone is 240 KB), so they are left out when the thread has probably compiled `key` already: a thread
 * that has not answers `needSchema`, and the event loop sends the same task again with them. */
export interface PortableSchemaSet {
  key: string;
  documents?: Array<{ location: string; name: string; text: string }>;
}
export type VaasSchemaSet = PortableSchemaSet;

const MAX_COMPILED = 32;

interface CompiledEntry {
  schema: Promise<CompiledSchema>;
  /** The model XSD (the main document), kept as one string so the triples' model cache finds it without rehashing. */
  xsd: string;
  /** The main document's name, for errors. */
  name: string;
}

/** This thread's compiled schemas by content key, least recently used first out: a changed schema has a new key,
 * so no entry goes stale. A compile failure is kept too (the same content fails the same way). */
const compiled = new Map<string, CompiledEntry>();

/** The compiled entry of a set, or null when this thread has not compiled `set.key` and was not sent its documents. */
function compiledEntry(set: PortableSchemaSet): CompiledEntry | null {
  let entry = compiled.get(set.key);
  if (entry) compiled.delete(set.key);
  else if (!set.documents) return null;
  else {
    const byLocation = new Map(set.documents.map((d) => [d.location, d.text]));
    const [main] = set.documents;
    const schema = gatherSchemaSet({ name: main.name, content: main.text }, async (location) => byLocation.get(location) ?? null).then(
      compileSchemaSet,
    );
    schema.catch(() => undefined);
    entry = { schema, xsd: main.text, name: main.name };
  }
  compiled.set(set.key, entry);
  while (compiled.size > MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
  return entry;
}

type SchemaErrorShape = 'app' | 'studio';

/** The compiled schema, or the door's error for a schema that does not compile. */
function compiledOrError({ schema, name }: CompiledEntry, shape: SchemaErrorShape): Promise<CompiledSchema> {
  return schema.catch((error: unknown) => {
    if (!(error instanceof SchemaCompileError)) throw error;
    const problems = error.problems.map((p) => ({ line: p.line, message: p.message, file: p.file }));
    const messages = error.problems.map((p) => p.message).join('; ');
    if (shape === 'app') throw validationFailed(`The schema ${name} does not compile: ${messages}`, { schema: name, errors: problems });
    throw new DomainError(422, 'schema_invalid', `The model's schema does not compile: ${messages}`, { errors: problems });
  });
}

/** The compiled schema of a set with its documents, from this thread's cache (compiled on first use). */
export function compiledSchema(set: Required<PortableSchemaSet>): Promise<CompiledSchema> {
  return compiledOrError(compiledEntry(set)!, 'app');
}

// ---------------------------------------------------------------------------------------------------------------
// The instance: one parse for limits, root and tree
// ---------------------------------------------------------------------------------------------------------------

/** Past this size the tree is built only for what needs it, once the instance is known valid: a large hostile
 * document within the limits is refused by a scan that keeps nothing, instead of after building a tree. */
const TREE_IN_FIRST_PASS_MAX_CHARS = 256 * 1024;

/** Refusals of an instance as a door words them: Interface B's INVALID_XML, or the studio's invalid_xml. */
const refusals = {
  app: {
    malformed: (error: XmlParseError) => invalidXml(`The XML cannot be parsed: ${error.message}`, error.rootTag, { line: error.line }),
    notSdc4: (rootTag: string, namespace: string | null) =>
      invalidXml(`Invalid root element <${rootTag}>: expected dm-{ct_id} in the SDC4 namespace https://semanticdatacharter.com/ns/sdc4/.`, rootTag, {
        namespace,
      }),
    undecodable: (error: XmlParseError) => invalidXml(error.message, null),
  },
  studio: {
    malformed: (error: XmlParseError) =>
      new DomainError(400, 'invalid_xml', `The XML cannot be parsed: ${error.message}`, error.line ? { line: error.line } : {}),
    notSdc4: (rootTag: string) =>
      new DomainError(
        400,
        'invalid_xml',
        `Invalid root element <${rootTag}>: expected dm-{ct_id} in the SDC4 namespace https://semanticdatacharter.com/ns/sdc4/.`,
        { root: rootTag },
      ),
    undecodable: (error: XmlParseError) =>
      new DomainError(400, 'invalid_xml', `The XML cannot be parsed: ${error.message}`, error.line ? { line: error.line } : {}),
  },
};

interface Inspected {
  text: string;
  dmCtId: string;
  /** The tree of a small instance (null past TREE_IN_FIRST_PASS_MAX_CHARS). */
  tree: InstanceTree | null;
}

/** Decodes, checks the limits and well-formedness, finds the `dm-{ct_id}` root and (for a small document, when
 * `wantTree`) builds its tree, in one parse; refuses in the door's words. */
function inspect(xml: string | Uint8Array, shape: SchemaErrorShape, wantTree = true): Inspected {
  const refuse = refusals[shape];
  let text: string;
  try {
    text = typeof xml === 'string' ? xml : decodeXmlBytes(xml);
  } catch (error) {
    if (error instanceof XmlParseError) throw refuse.undecodable(error);
    throw error;
  }
  let root: { rootTag: string; namespace: string | null; dmCtId: string | null };
  let tree: InstanceTree | null = null;
  try {
    if (wantTree && text.length <= TREE_IN_FIRST_PASS_MAX_CHARS) root = tree = parseInstanceTree(text);
    else {
      const scanned = scanXml(text);
      root = { ...scanned, dmCtId: dmCtIdOf(scanned.namespace, scanned.localName) };
    }
  } catch (error) {
    if (error instanceof XmlParseError) throw refuse.malformed(error);
    throw error;
  }
  if (root.dmCtId === null) throw refuse.notSdc4(root.rootTag, root.namespace);
  return { text, dmCtId: root.dmCtId, tree };
}

/** The tree of the instance an answer carries: the first pass's when it is the instance as sent. */
const answerTree = (sent: string, answered: string, tree: InstanceTree | null): TreeDocument =>
  answered === sent ? (tree ?? parseInstanceTree(sent)) : parseXmlDom(answered);

// ---------------------------------------------------------------------------------------------------------------
// Interface B: validate/xml
// ---------------------------------------------------------------------------------------------------------------

/** A data model's schema as the event loop has it: its whole set (the model XSD first). */
export interface TaskSchema {
  dmCtId: string;
  schema: PortableSchemaSet;
}

/**
 * One validation. The event loop names the model it expects and its schema's content key (`expected`); a thread
 * that has not compiled that key, or finds another root, answers `needSchema`, and the event loop sends the same
 * task again with `schema`.
 */
export interface ValidateTask {
  xml: string | Uint8Array;
  expected: { dmCtId: string; key: string } | null;
  schema: TaskSchema | null;
  generateInstanceId: boolean;
}

export interface ValidateResult {
  /** The decoded document, when bytes were sent. */
  decoded: string | null;
  dmCtId: string;
  instanceId: string;
  status: 'valid' | 'valid_with_ev';
  /** null when the instance was kept as sent (no copy back to the event loop). */
  correctedXml: string | null;
  corrections: EvCorrection[];
  validationErrors: Record<string, string> | null;
  /** The JSON rendering as JSON text (a string crosses to the event loop cheaper than the object, and is what
   * Postgres gets), and its `metadata.dm_label`. */
  jsonText: string;
  dmLabel: string;
  graphUri: string;
  /** The instance's graph as Turtle, the form it is stored in (src/xml/instance-rdf.ts). */
  turtle: string;
  tripleCount: number;
}

export type ValidateAnswer = { done: ValidateResult; needSchema?: undefined } | { done?: undefined; needSchema: string };

/** validate/xml's CPU work in one call: one parse (limits, root, the tree for JSON and triples), libxml2 validation
 * with EV correction against the compiled schema, the instance id, the JSON rendering and the triples. */
export function validate(task: ValidateTask): Promise<Outcome<ValidateAnswer>> {
  return settle(async (): Promise<ValidateAnswer> => {
    const { text: xml, dmCtId, tree } = inspect(task.xml, 'app');
    let entry: CompiledEntry | null = null;
    if (task.schema?.dmCtId === dmCtId) entry = compiledEntry(task.schema.schema);
    else if (task.expected?.dmCtId === dmCtId) entry = compiledEntry({ key: task.expected.key });
    if (!entry) return { needSchema: dmCtId };
    const outcome = corrected(xml, await compiledOrError(entry, 'app'));
    const document =
      outcome.correctedDocument ?? (outcome.correctedXml === xml ? (tree ?? parseInstanceTree(xml)) : parseXmlDom(outcome.correctedXml));
    const json = instanceToJson(document) as { metadata?: Record<string, string> };
    const instanceId = instanceIdFor(json.metadata, { generate: task.generateInstanceId, corrected: outcome.corrections.length > 0 });
    const rdf = extractInstanceTurtle({ document, instanceId, dmCtId, modelXsd: entry.xsd });
    return {
      done: {
        decoded: typeof task.xml === 'string' ? null : xml,
        dmCtId,
        instanceId,
        status: outcome.status,
        correctedXml: outcome.correctedXml === xml ? null : outcome.correctedXml,
        corrections: outcome.corrections,
        validationErrors: errorsByLine(outcome.remainingErrors),
        jsonText: JSON.stringify(json),
        dmLabel: json.metadata?.dm_label ?? '',
        graphUri: rdf.graphUri,
        turtle: rdf.turtle,
        tripleCount: rdf.tripleCount,
      },
    };
  });
}

/** Interface B's policy: recover, and anything recovery cannot excuse is 422 VALIDATION_FAILED. */
function corrected(xml: string, schema: CompiledSchema): CorrectionResult {
  try {
    return validateWithCorrection(xml, schema);
  } catch (error) {
    if (error instanceof XmlValidationError) {
      throw validationFailed(`XML failed validation against the schema: ${error.errors.length} error(s).`, { errors: error.errors });
    }
    if (error instanceof XmlParseError) throw refusals.app.malformed(error);
    throw error;
  }
}

/** Why an uploaded XSD cannot be kept, or null: well-formed XML under the parser's limits, without a DTD. */
export function unsafeSchema(bytes: Uint8Array): Promise<Outcome<string | null>> {
  return settle(() => {
    try {
      const xml = decodeXmlBytes(bytes);
      checkSize(xml);
      scanXml(xml);
      return null;
    } catch (error) {
      if (error instanceof XmlParseError) return `Invalid XML schema: ${error.message}.`;
      throw error;
    }
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The studio's validation as a service (POST /api/v1/vaas/validate/, GraphQL validateInstance/signInstance)
// ---------------------------------------------------------------------------------------------------------------

/** The code of the answer to a vaasValidate task without documents whose schema this thread has not compiled
 * (VaasService matches the literal: importing this module would apply the thread settings on the event loop). */
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
  /** libxml2's schema errors (XSD 1.0 structure and datatypes) not excused by an ExceptionalValue. */
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
  /** Send the decoded text back when bytes were sent (signing needs it). */
  keepText: boolean;
  /** Package the answer's instance (its JSON and N-Triples rendered, the files zipped) when it will not be signed
   * first: the megabytes of text, JSON and triples of a large instance then never cross to the event loop. */
  render: { instanceId: string; modelXsd: string; title: string } | null;
}

export type VaasOnceAnswer =
  { done: VaasValidation & { decoded: string | null; packaged: Uint8Array | null } } | { needSchema: true } | { otherRoot: string };

/** The ct_id the `dm-{ct_id}` root names, or 400 when the body is not a well-formed SDC4 instance. */
export function vaasRoot(xml: string | Uint8Array): Promise<Outcome<{ dmCtId: string; xml: string }>> {
  return settle(() => {
    try {
      const text = typeof xml === 'string' ? xml : decodeXmlBytes(xml);
      const inspection = inspectInstance(text);
      if (inspection.dmCtId === null) throw refusals.studio.notSdc4(inspection.rootTag);
      return { dmCtId: inspection.dmCtId, xml: text };
    } catch (error) {
      if (error instanceof XmlParseError) throw refusals.studio.malformed(error);
      throw error;
    }
  });
}

/** Validation of a well-formed instance by its schema key (409 schema_not_loaded until this thread was sent the
 * documents once; vaasOnce answers `needSchema` instead). */
export function vaasValidate(task: VaasValidateTask): Promise<Outcome<VaasValidation>> {
  return settle(async () => {
    const entry = compiledEntry(task.schema);
    if (!entry) throw new DomainError(409, SCHEMA_NOT_LOADED, 'This thread has not compiled the schema: send its documents.');
    return checked(task.xml, await compiledOrError(entry, 'studio'), task, null);
  });
}

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
    // The tree serves the EV count and the package's rendering only: a plain validation scans without one.
    const { text, dmCtId, tree } = inspect(task.xml, 'studio', task.countEvs || task.render !== null);
    if (dmCtId !== task.expected.dmCtId) return { otherRoot: dmCtId };
    const entry = compiledEntry(task.schema);
    if (!entry) return { needSchema: true };
    const result = checked(text, await compiledOrError(entry, 'studio'), task, tree);
    const decoded = typeof task.xml === 'string' || !task.keepText ? null : text;
    if (!task.render) return { done: { ...result, decoded, packaged: null } };
    const instance = result.recoveredXml ?? text;
    const { json, ntriples } = rendered(answerTree(text, instance, tree), { ...task.render, dmCtId });
    const zip = await packageZip(vaasPackageFiles({ dmCtId, title: task.render.title, xml: instance, xsd: task.render.modelXsd, json, ntriples }));
    return { done: { ...result, decoded, packaged: zip } };
  });
}

/** VaaS's policy over the one corrector: recover answers the corrected instance; strict reports what recovery would
 * have corrected as structural errors. `tree` is the instance's single-pass tree, if built. */
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
    if (error instanceof XmlParseError) throw refusals.studio.malformed(error);
    throw error;
  }
}

function rendered(document: TreeDocument, args: { dmCtId: string; instanceId: string; modelXsd: string }) {
  const rdf = extractInstanceRdf({ document, ...args });
  return { json: `${JSON.stringify(instanceToJson(document), null, 2)}\n`, ntriples: rdf.ntriples };
}

/** The instance's JSON rendering and its triples (N-Triples) for a package. */
export function vaasRender(task: VaasRenderTask): Promise<Outcome<{ json: string; ntriples: string }>> {
  return settle(() => rendered(parseXmlDom(task.xml), task));
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

// ---------------------------------------------------------------------------------------------------------------
// Batches: several validations in one hand-off (src/validation/thread-batches.ts)
// ---------------------------------------------------------------------------------------------------------------

const BATCHED = { validate, vaasOnce } as const;
export type BatchedTaskName = keyof typeof BATCHED;

export interface ThreadBatch {
  name: BatchedTaskName;
  inputs: unknown[];
}

/** Runs each input of the batch in turn, answering each one's outcome (its value or its domain error); any other
 * error fails the batch, whose members the event loop then sends alone. */
export function batch(task: ThreadBatch): Promise<Outcome<Array<Outcome<unknown>>>> {
  const run = BATCHED[task.name] as (input: unknown) => Promise<Outcome<unknown>>;
  return settle(async () => {
    const outcomes: Array<Outcome<unknown>> = [];
    for (const input of task.inputs) outcomes.push(await run(input));
    return outcomes;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Warm-up: a thread at full speed from the first request
// ---------------------------------------------------------------------------------------------------------------

const WARM_NS = 'https://semanticdatacharter.com/ns/sdc4/';
const WARM_XSD = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${WARM_NS}">
  <xs:element name="dm-warmup">
    <xs:complexType><xs:sequence>
      <xs:element name="dm-label" type="xs:string"/>
      <xs:element name="row" maxOccurs="unbounded">
        <xs:complexType><xs:sequence>
          <xs:element name="label" type="xs:string"/>
          <xs:element name="xdcount-value" type="xs:integer"/>
          <xs:element name="xdquantity-value" type="xs:decimal"/>
          <xs:element name="xdtemporal-date" type="xs:date"/>
        </xs:sequence></xs:complexType>
      </xs:element>
    </xs:sequence></xs:complexType>
  </xs:element>
</xs:schema>`;
const warmRow = (i: number, count: string) =>
  `  <row><label>Row ${i}</label><xdcount-value>${count}</xdcount-value><xdquantity-value>${i}.5</xdquantity-value><xdtemporal-date>2025-06-01</xdtemporal-date></row>`;
const warmXml = (count: (i: number) => string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sdc4:dm-warmup xmlns:sdc4="${WARM_NS}">\n  <dm-label>Warm-up</dm-label>\n${Array.from({ length: 24 }, (_, i) => warmRow(i, count(i))).join('\n')}\n</sdc4:dm-warmup>\n`;

/** How much a thread warms up: enough rounds for V8 to optimise the hot JavaScript and tier libxml2's WebAssembly
 * up from its baseline compiler, within a bound that keeps a start on a busy machine short. */
const WARM_ROUNDS = 100;
const WARM_MAX_MS = 3_000;

/**
 * Loads and instantiates libxml2, compiles a small self-contained schema and runs the validation path (one parse,
 * libxml2 validation, the error path that locates errors, the JSON rendering) WARM_ROUNDS times (at most
 * WARM_MAX_MS), so that a thread's first requests run at the speed of its later ones. Answers the rounds run.
 */
export function warm(): Promise<Outcome<number>> {
  return settle(async () => {
    const schema = await compileSchema({ name: 'dm-warmup.xsd', content: WARM_XSD }, async () => null);
    const valid = warmXml((i) => String(i));
    const invalid = warmXml((i) => (i === 7 ? 'N/A' : String(i)));
    const end = Date.now() + WARM_MAX_MS;
    let rounds = 0;
    while (rounds < WARM_ROUNDS && Date.now() < end) {
      instanceToJson(parseInstanceTree(valid));
      validateWithCorrection(valid, schema);
      try {
        validateWithCorrection(invalid, schema);
      } catch (error) {
        if (!(error instanceof XmlValidationError)) throw error;
      }
      rounds++;
    }
    return rounds;
  });
}
