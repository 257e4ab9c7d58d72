import { invalidInstanceId, invalidXml, validationFailed } from '../lib/app-api-errors';
import { validateWithCorrection, type EvCorrection } from '../xml/ev';
import { instanceToJson } from '../xml/instance-json';
import { extractInstanceRdf } from '../xml/instance-rdf';
import { decodeXmlBytes } from '../xml/instance';
import { newId } from '../lib/ids';
import { parseInstanceTree, type InstanceTree } from '../xml/instance-tree';
import { dmCtIdOf } from '../xml/sdc4';
import { checkSize, parseXmlDom, scanXml } from '../xml/safe-parse';
import { SchemaCompileError, type CompiledSchema } from '../xml/schema';
import { compileSchemaSet } from '../xml/schema-compiler';
import { gatherSchemaSet } from '../xml/schema-set';
import { errorsByLine, XmlParseError, XmlValidationError } from '../xml/xml-errors';
import { settle, type Outcome } from './outcome';
import { applyThreadSettings } from './thread-setup';

applyThreadSettings();

/** A schema set as plain data (main document first), with its content key; see CompiledSchemas.forModel. */
export interface PortableSchemaSet {
  key: string;
  documents: Array<{ location: string; name: string; text: string }>;
}

/** A data model's schema as the event loop has it: the model XSD (for the triples) and its whole set. */
export interface TaskSchema {
  dmCtId: string;
  xsd: string;
  schema: PortableSchemaSet;
}

/**
 * One validation. The schema documents are large (sdc4.xsd alone is 240 KB), so they are not copied to the thread
 * on every call: the event loop names the model it expects and its schema's content key (`expected`), and a
 * thread that has not compiled that key, or finds another root, answers `needSchema`; the event loop then sends
 * the same task again with `schema`.
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
  ntriples: string;
  tripleCount: number;
}

export type ValidateAnswer = { done: ValidateResult; needSchema?: undefined } | { done?: undefined; needSchema: string };

/** An instance's own id, when it is kept (`generate_instance_id=false`): it names a graph and a URL segment. */
const OWN_INSTANCE_ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/;
const MAX_COMPILED = 32;

interface CompiledEntry {
  schema: Promise<CompiledSchema>;
  /** The model XSD, kept as one string so the triples' model cache finds it without rehashing a copy. */
  xsd: string;
  /** The main document's name, for errors. */
  name: string;
}

/** This thread's compiled schemas by content key: a re-uploaded schema has a new key, so no entry goes stale. */
const compiled = new Map<string, CompiledEntry>();

/**
 * validate/xml's CPU work in one call: one saxes pass (limits, root, the tree for JSON and triples), libxml2
 * validation with EV correction against the compiled schema, the JSON rendering and the triples.
 */
export function validate(task: ValidateTask): Promise<Outcome<ValidateAnswer>> {
  return settle(async (): Promise<ValidateAnswer> => {
    const xml = decode(task.xml);
    const { dmCtId, tree } = inspect(xml);
    let entry: CompiledEntry | undefined;
    if (task.schema?.dmCtId === dmCtId) entry = entryOf(task.schema.schema, task.schema.xsd);
    else if (task.expected?.dmCtId === dmCtId) entry = cached(task.expected.key);
    if (!entry) return { needSchema: dmCtId };
    const outcome = correct(xml, await compiledOrError(entry));
    const document =
      outcome.correctedDocument ?? (outcome.correctedXml === xml ? (tree ?? parseInstanceTree(xml)) : parseXmlDom(outcome.correctedXml));
    const json = instanceToJson(document) as { metadata?: Record<string, string> };
    const corrected = outcome.corrections.length > 0;
    const instanceId = task.generateInstanceId ? `${corrected ? 'i-ev-' : 'i-'}${newId()}` : ownInstanceId(json);
    const rdf = extractInstanceRdf({ document, instanceId, dmCtId, modelXsd: entry.xsd });
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
        ntriples: rdf.ntriples,
        tripleCount: rdf.tripleCount,
      },
    };
  });
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

/** The compiled schema of a set, from this thread's cache (compiled on first use). */
export function compiledSchema(set: PortableSchemaSet): Promise<CompiledSchema> {
  return compiledOrError(entryOf(set, set.documents[0].text));
}

function cached(key: string): CompiledEntry | undefined {
  const entry = compiled.get(key);
  if (entry) {
    compiled.delete(key);
    compiled.set(key, entry);
  }
  return entry;
}

function entryOf(set: PortableSchemaSet, xsd: string): CompiledEntry {
  let entry = cached(set.key);
  if (!entry) {
    const byLocation = new Map(set.documents.map((d) => [d.location, d.text]));
    const [main] = set.documents;
    const schema = gatherSchemaSet({ name: main.name, content: main.text }, async (location) => byLocation.get(location) ?? null).then(
      compileSchemaSet,
    );
    schema.catch(() => undefined);
    entry = { schema, xsd, name: main.name };
    compiled.set(set.key, entry);
    while (compiled.size > MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
  }
  return entry;
}

function compiledOrError({ schema, name }: CompiledEntry): Promise<CompiledSchema> {
  return schema.catch((error: unknown) => {
    if (!(error instanceof SchemaCompileError)) throw error;
    throw validationFailed(`The schema ${name} does not compile: ${error.problems.map((p) => p.message).join('; ')}`, {
      schema: name,
      errors: error.problems.map((p) => ({ line: p.line, message: p.message, file: p.file })),
    });
  });
}

function decode(xml: string | Uint8Array): string {
  if (typeof xml === 'string') return xml;
  try {
    return decodeXmlBytes(xml);
  } catch (error) {
    if (error instanceof XmlParseError) throw invalidXml(error.message, null);
    throw error;
  }
}

/** Past this size the tree is built only once the instance is known valid: a large hostile document within
 * the limits is refused by a scan that keeps nothing, as before validation, instead of after building a tree. */
const TREE_IN_FIRST_PASS_MAX_CHARS = 256 * 1024;

/** The model of an instance with a `dm-{ct_id}` root in the SDC4 namespace (and its tree, for a small one), or
 * INVALID_XML. */
function inspect(xml: string): { dmCtId: string; tree: InstanceTree | null } {
  let root: { rootTag: string; namespace: string | null; dmCtId: string | null };
  let tree: InstanceTree | null = null;
  try {
    if (xml.length <= TREE_IN_FIRST_PASS_MAX_CHARS) root = tree = parseInstanceTree(xml);
    else {
      const scanned = scanXml(xml);
      root = { ...scanned, dmCtId: dmCtIdOf(scanned.namespace, scanned.localName) };
    }
  } catch (error) {
    if (error instanceof XmlParseError) throw invalidXml(`The XML cannot be parsed: ${error.message}`, error.rootTag, { line: error.line });
    throw error;
  }
  if (root.dmCtId === null) {
    throw invalidXml(
      `Invalid root element <${root.rootTag}>: expected dm-{ct_id} in the SDC4 namespace https://semanticdatacharter.com/ns/sdc4/.`,
      root.rootTag,
      { namespace: root.namespace },
    );
  }
  return { dmCtId: root.dmCtId, tree };
}

function correct(xml: string, schema: CompiledSchema): ReturnType<typeof validateWithCorrection> {
  try {
    return validateWithCorrection(xml, schema);
  } catch (error) {
    if (error instanceof XmlValidationError) {
      throw validationFailed(`XML failed validation against the schema: ${error.errors.length} error(s).`, { errors: error.errors });
    }
    if (error instanceof XmlParseError) throw invalidXml(`The XML cannot be parsed: ${error.message}`, error.rootTag, { line: error.line });
    throw error;
  }
}

function ownInstanceId(json: { metadata?: Record<string, string> }): string {
  const own = json.metadata?.instance_id?.trim();
  if (!own) throw invalidInstanceId('generate_instance_id is false but the XML has no instance_id.', null);
  if (!OWN_INSTANCE_ID.test(own)) {
    throw invalidInstanceId(
      'The XML\'s instance_id must be 1-200 characters of letters, digits, ".", "_", "~" and "-", starting with a letter or digit.',
      own.slice(0, 200),
    );
  }
  return own;
}
