import { PG, pgCode } from '../lib/errors';
import { asAppApiError } from '../lib/cpu-errors';
import type { CpuPool } from '../workers/pool';
import { instanceIdTaken, ThreadBatches } from '../validation';
import type { SchemaSets, TaskSchema, ValidateAnswer, ValidateResult, ValidateTask } from '../validation';
import { peekRootModel } from '../xml/root-peek';
import type { AppCaller } from './app-keys.service';
import type { RdfSyncStatus } from '../entities/app-instance.entity';
import type { InstanceStore } from './instance-store';
import type { ValidationView } from '../presenters/validation.presenter';
import type { AppStorageQuota } from './app-storage-quota';

export interface ValidateInput {
  /** Uploaded bytes (decoded strictly by the XML declaration or BOM) or the JSON body's text. */
  xml: string | Uint8Array;
  generateInstanceId: boolean;
  syncTriplestore: boolean;
  caller: AppCaller;
}

/**
 * validate/xml: parse safely, find the stored XSD of the root's data model, compile it once (cached by content),
 * validate with EV correction, then store the instance, its JSON rendering and its triples, and queue the
 * triplestore sync, all in one transaction (shared with concurrent validations: InstanceStore). Nothing is stored
 * unless the instance is valid. Parsing, validation and rendering run in the worker-thread pool, within its time
 * budget.
 */
export class ValidationService {
  private readonly batches: ThreadBatches;

  constructor(
    private readonly store: InstanceStore,
    private readonly schemas: SchemaSets,
    pool: CpuPool,
    private readonly triplestoreConfigured: boolean,
    private readonly quota: AppStorageQuota,
  ) {
    this.batches = new ThreadBatches(pool);
  }

  async validate(input: ValidateInput): Promise<ValidationView> {
    const outcome = await this.validateInPool(input);
    const { dmCtId } = outcome;
    const xml = outcome.decoded ?? (input.xml as string);
    const { instanceId } = outcome;
    const syncStatus: RdfSyncStatus = input.syncTriplestore && this.triplestoreConfigured ? 'pending' : 'disabled';
    const result: ValidationView = {
      instanceId,
      dmCtId,
      dmLabel: outcome.dmLabel,
      validationStatus: outcome.status,
      storageType: 'generic',
      autoCorrectedFields: [...new Set(outcome.corrections.map((c) => `line-${c.line}`))],
      validationErrors: outcome.validationErrors,
      rdfSyncStatus: syncStatus,
    };

    // The organisation's stored bytes and triples within their caps (507 otherwise), checked before the write.
    const storedBytes =
      Buffer.byteLength(xml) +
      (outcome.correctedXml === null ? Buffer.byteLength(xml) : Buffer.byteLength(outcome.correctedXml)) +
      Buffer.byteLength(outcome.jsonText);
    const release = await this.quota.admit(input.caller.organization, { triples: outcome.tripleCount, bytes: storedBytes });
    try {
      await this.store.store({
        instanceId,
        dmCtId,
        dmLabel: result.dmLabel,
        validationStatus: result.validationStatus,
        storageType: result.storageType,
        originalXml: xml,
        correctedXml: outcome.correctedXml,
        validationErrors: result.validationErrors === null ? null : JSON.stringify(result.validationErrors),
        autoCorrectedFields: JSON.stringify(result.autoCorrectedFields),
        corrections: JSON.stringify(outcome.corrections),
        jsonText: outcome.jsonText,
        graphUri: outcome.graphUri,
        rdfSyncStatus: syncStatus,
        apiKeyId: input.caller.keyId,
        organization: input.caller.organization,
        storedBytes,
        ntriples: outcome.turtle,
        tripleCount: outcome.tripleCount,
      });
    } catch (error) {
      release();
      if (pgCode(error) === PG.uniqueViolation) throw instanceIdTaken(instanceId);
      throw error;
    }
    return result;
  }

  /**
   * One pool trip per validation in the steady state: the root is peeked at on the event loop (first kilobytes
   * only) to name the expected model and its schema key; the thread parses, checks the root and validates. A
   * thread that lacks that compiled schema (or finds another root, or the peek found none) asks for the schema,
   * looked up only then, so an unparsable document is still refused before a missing schema is reported.
   */
  private async validateInPool(input: ValidateInput): Promise<ValidateResult> {
    const hint = peekRootModel(input.xml);
    const expected =
      hint === null
        ? null
        : await this.schemas.forModel(hint).then(
            ({ schema }) => ({ dmCtId: hint, key: schema.key }),
            () => null,
          );
    const task: ValidateTask = { xml: input.xml, expected, schema: null, generateInstanceId: input.generateInstanceId };
    const caller = `app-key:${input.caller.keyId}`;
    const bytes = typeof input.xml === 'string' ? input.xml.length : input.xml.byteLength;
    let answer = await this.inPool(caller, task, bytes);
    if (answer.needSchema !== undefined) {
      const dmCtId = answer.needSchema;
      const schema: TaskSchema = { dmCtId, schema: (await this.schemas.forModel(dmCtId)).schema };
      answer = await this.inPool(caller, { ...task, expected: null, schema }, bytes);
    }
    if (answer.done === undefined) throw new Error(`The validation thread did not take the schema of ${answer.needSchema}`);
    return answer.done;
  }

  /** A validation in the pool, batched with the caller's others under load (ThreadBatches). */
  private async inPool(caller: string, task: ValidateTask, bytes: number): Promise<ValidateAnswer> {
    try {
      return await this.batches.run<ValidateTask, ValidateAnswer>(caller, 'validate', task, bytes);
    } catch (error) {
      throw asAppApiError(error);
    }
  }
}
