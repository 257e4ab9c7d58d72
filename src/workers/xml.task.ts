import { createId } from '@paralleldrive/cuid2';
import { invalidInstanceId, invalidXml, validationFailed } from '../lib/app-api-errors';
import { validateWithCorrection, type EvCorrection } from '../xml/ev';
import { instanceToJson } from '../xml/instance-json';
import { extractInstanceRdf } from '../xml/instance-rdf';
import { decodeXmlBytes, inspectInstance } from '../xml/instance';
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

export interface ValidateTask {
  xml: string | Uint8Array;
  xsd: string;
  schema: PortableSchemaSet;
  dmCtId: string;
  generateInstanceId: boolean;
}

export interface ValidateResult {
  /** The decoded document, when bytes were sent. */
  decoded: string | null;
  instanceId: string;
  status: 'valid' | 'valid_with_ev';
  correctedXml: string;
  corrections: EvCorrection[];
  validationErrors: Record<string, string> | null;
  json: { metadata?: Record<string, string> };
  graphUri: string;
  ntriples: string;
  tripleCount: number;
}

/** An instance's own id, when it is kept (`generate_instance_id=false`): it names a graph and a URL segment. */
const OWN_INSTANCE_ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/;
const MAX_COMPILED = 32;

/** This thread's compiled schemas by content key: a re-uploaded schema has a new key, so no entry goes stale. */
const compiled = new Map<string, Promise<CompiledSchema>>();

/** The ct_id of the instance's `dm-{ct_id}` root in the SDC4 namespace, or INVALID_XML. */
export function rootModel(xml: string | Uint8Array): Promise<Outcome<string>> {
  return settle(() => modelOf(decode(xml)));
}

/** validate/xml's CPU work: EV correction against the compiled schema, the JSON rendering and the triples. */
export function validate(task: ValidateTask): Promise<Outcome<ValidateResult>> {
  return settle(async () => {
    const xml = decode(task.xml);
    const outcome = correct(xml, await compiledSchema(task.schema));
    const document = outcome.correctedDocument ?? parseXmlDom(outcome.correctedXml);
    const json = instanceToJson(document) as { metadata?: Record<string, string> };
    const corrected = outcome.corrections.length > 0;
    const instanceId = task.generateInstanceId ? `${corrected ? 'i-ev-' : 'i-'}${createId()}` : ownInstanceId(json);
    const rdf = extractInstanceRdf({ document, instanceId, dmCtId: task.dmCtId, modelXsd: task.xsd });
    return {
      decoded: typeof task.xml === 'string' ? null : xml,
      instanceId,
      status: outcome.status,
      correctedXml: outcome.correctedXml,
      corrections: outcome.corrections,
      validationErrors: errorsByLine(outcome.remainingErrors),
      json,
      graphUri: rdf.graphUri,
      ntriples: rdf.ntriples,
      tripleCount: rdf.quads.length,
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
  let entry = compiled.get(set.key);
  if (entry) compiled.delete(set.key);
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
    throw validationFailed(`The schema ${set.documents[0].name} does not compile: ${error.problems.map((p) => p.message).join('; ')}`, {
      schema: set.documents[0].name,
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

function modelOf(xml: string): string {
  let inspection;
  try {
    inspection = inspectInstance(xml);
  } catch (error) {
    if (error instanceof XmlParseError) throw invalidXml(`The XML cannot be parsed: ${error.message}`, error.rootTag, { line: error.line });
    throw error;
  }
  if (inspection.dmCtId === null) {
    throw invalidXml(
      `Invalid root element <${inspection.rootTag}>: expected dm-{ct_id} in the SDC4 namespace https://semanticdatacharter.com/ns/sdc4/.`,
      inspection.rootTag,
      { namespace: inspection.namespace },
    );
  }
  return inspection.dmCtId;
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
