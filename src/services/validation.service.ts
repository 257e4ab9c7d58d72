import { createId } from '@paralleldrive/cuid2';
import type { DataSource } from 'typeorm';
import { transactionDb } from '../db/pg-boss-adapter';
import { rows } from '../db/sql';
import type { QueueSender } from '../db/queues';
import { PG, pgCode } from '../lib/errors';
import { validateWithCorrection } from '../xml/ev';
import { instanceToJson } from '../xml/instance-json';
import { extractInstanceRdf } from '../xml/instance-rdf';
import { decodeXmlBytes, inspectInstance } from '../xml/instance';
import { parseXmlDom } from '../xml/safe-parse';
import type { CompiledSchema } from '../xml/schema';
import { errorsByLine, XmlParseError, XmlValidationError } from '../xml/xml-errors';
import { invalidInstanceId, invalidXml, validationFailed } from '../lib/app-api-errors';
import type { AppCaller } from './app-keys.service';
import type { CompiledSchemas } from '../xml/compiled-schemas';
import type { RdfSyncStatus } from '../entities/app-instance.entity';
import type { ValidationView } from '../presenters/validation.presenter';

export interface ValidateInput {
  /** Uploaded bytes (decoded strictly by the XML declaration or BOM) or the JSON body's text. */
  xml: string | Uint8Array;
  generateInstanceId: boolean;
  syncTriplestore: boolean;
  caller: AppCaller;
}

/** The instance and its graph in one statement (one round trip; the graph row is visible to the foreign key). */
const STORE_INSTANCE = `
WITH graph AS (
  INSERT INTO app_graphs (graph_uri, source, ntriples, triple_count) VALUES ($12, 'instance', $15, $16)
  ON CONFLICT (graph_uri) DO UPDATE SET ntriples = EXCLUDED.ntriples, triple_count = EXCLUDED.triple_count,
    revision = nextval('app_graph_revision'), updated_at = clock_timestamp()
  RETURNING graph_uri)
INSERT INTO app_instances (instance_id, dm_ct_id, dm_label, validation_status, storage_type, original_xml, corrected_xml,
  validation_errors, auto_corrected_fields, corrections, json_rendering, graph_uri, rdf_sync_status, api_key_id)
SELECT $1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10::jsonb, $11::jsonb, graph.graph_uri, $13, $14::bigint FROM graph`;

/** An instance's own id, when it is kept (`generate_instance_id=false`): it names a graph and a URL segment. */
const OWN_INSTANCE_ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/;

/**
 * validate/xml: parse safely, find the stored XSD of the root's data model, compile it once (cached by content),
 * validate with EV correction, then store the instance, its JSON rendering and its triples, and queue the
 * triplestore sync, all in one transaction. Nothing is stored unless the instance is valid.
 */
export class ValidationService {
  constructor(
    private readonly db: DataSource,
    private readonly queue: QueueSender,
    private readonly schemas: CompiledSchemas,
    private readonly triplestoreConfigured: boolean,
  ) {}

  async validate(input: ValidateInput): Promise<ValidationView> {
    const xml = decode(input.xml);
    const dmCtId = rootModel(xml);
    const { xsd, schema } = await this.schemas.forModel(dmCtId);
    const outcome = correct(xml, schema);

    const document = outcome.correctedDocument ?? parseXmlDom(outcome.correctedXml);
    const json = instanceToJson(document) as { metadata?: Record<string, string> };
    const corrected = outcome.corrections.length > 0;
    const instanceId = input.generateInstanceId ? `${corrected ? 'i-ev-' : 'i-'}${createId()}` : ownInstanceId(json);
    const rdf = extractInstanceRdf({ document, instanceId, dmCtId, modelXsd: xsd });
    const syncStatus: RdfSyncStatus = input.syncTriplestore && this.triplestoreConfigured ? 'pending' : 'disabled';
    const result: ValidationView = {
      instanceId,
      dmCtId,
      dmLabel: json.metadata?.dm_label ?? '',
      validationStatus: outcome.status,
      storageType: 'generic',
      autoCorrectedFields: [...new Set(outcome.corrections.map((c) => `line-${c.line}`))],
      validationErrors: errorsByLine(outcome.remainingErrors),
      rdfSyncStatus: syncStatus,
    };

    const values = [
      instanceId,
      dmCtId,
      result.dmLabel,
      result.validationStatus,
      result.storageType,
      xml,
      outcome.correctedXml,
      result.validationErrors === null ? null : JSON.stringify(result.validationErrors),
      JSON.stringify(result.autoCorrectedFields),
      JSON.stringify(outcome.corrections),
      JSON.stringify(json),
      rdf.graphUri,
      syncStatus,
      input.caller.keyId,
      rdf.ntriples,
      rdf.quads.length,
    ];
    try {
      if (syncStatus === 'pending') {
        await this.db.transaction(async (manager) => {
          await rows(manager, STORE_INSTANCE, values);
          await this.queue.send('rdf_sync', { instanceId }, transactionDb(manager));
        });
      } else await rows(this.db, STORE_INSTANCE, values);
    } catch (error) {
      if (pgCode(error) === PG.uniqueViolation) throw invalidInstanceId(`instance_id ${instanceId} is already taken.`, instanceId);
      throw error;
    }
    return result;
  }
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

/** The ct_id of the `dm-{ct_id}` root in the SDC4 namespace, or INVALID_XML. */
function rootModel(xml: string): string {
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
