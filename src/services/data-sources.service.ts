import path from 'node:path';
import { TextDecoder } from 'node:util';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { move } from 'piscina';
import type { DataSource } from 'typeorm';
import { newId } from '../lib/ids';
import { contentPart, contentSize } from '../db/queries/data-sources.sql';
import { queryOne } from '../db/sql';
import { CSV_LIMITS, CsvError, parseCsv, type CsvModel } from '../domain/csv';
import { transactionRetried } from '../db/transaction';
import { csvUploadPrice, recordOutcome, replayOr, type LedgerService } from '../money';
import { CpuBudgetExceeded } from '../lib/cpu-errors';
import type { CpuPool } from '../workers/pool';
import type { CsvPart, CsvTaskResult } from '../workers/csv.task';
import type { AssemblyRequest } from '../parsers/assembly.parser';
import { DataSourceRecord } from '../entities/data-source.entity';
import type { Job } from '../entities/job.entity';
import { badRequest } from '../lib/errors';
import type { ModelBuilder } from './model-builder';
import type { Caller } from './auth.service';
import type { Clock } from './clock';
import type { JobOutcome, JobProgress, JobsService } from './jobs.service';
import type { PipelineService } from './pipeline.service';

const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel', 'application/octet-stream', '']);
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** The first row's fields, counted on admission to price the upload: 400 when there is none or too many. */
function headerColumns(content: Buffer): number {
  let header: string[] | undefined;
  try {
    header = parseCsv(content.toString('utf8'), 1)[0];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw badRequest(`The CSV's header row cannot be read: ${error.message}`, { details: { file: [error.message] } });
  }
  if (!header?.length) throw badRequest('The CSV has no header row.', { details: { file: ['No header row.'] } });
  if (header.length > CSV_LIMITS.maxColumns) {
    const message = `The CSV has more than ${CSV_LIMITS.maxColumns} columns (CSV_MAX_COLUMNS).`;
    throw badRequest(message, { details: { file: [message] } });
  }
  return header.length;
}

export interface AcceptedUpload {
  source: DataSourceRecord;
  job: Job;
  charge: UploadCharge;
}

/** Bytes of the stored CSV read from the database and handed to the parsing thread at a time. */
const PART_BYTES = 1024 * 1024;

/** What an upload will cost (N columns × component + model) and the balance beside its hold: the 202's estimate. */
interface UploadCharge {
  columns: number;
  estimatedCostCredits: number;
  balanceCredits: number;
}

/** Uploads of source files (CSV): a data source and an `upload` job that proposes a draft model for a person
 * to review. Publishes nothing. Money, as a mixed assembly: the upload mints one component per column and a model,
 * priced by the price table (csvUploadPrice); the header's columns are counted on admission and their price held
 * with the job (402 or the key's 403 before any work), the job captures the hold in the transaction that mints
 * the draft, and a failed job's hold is released. */
export class DataSourcesService {
  constructor(
    private readonly db: DataSource,
    private readonly jobs: JobsService,
    private readonly builder: ModelBuilder,
    private readonly pipeline: PipelineService,
    private readonly clock: Clock,
    private readonly cpu: CpuPool,
    private readonly ledger: LedgerService,
  ) {}

  /** Refuses at once what can be told at once (empty, binary, not UTF-8, not CSV); the rest is the job's. */
  accept(caller: Caller, file: { filename: string; contentType: string; content: Buffer }): Promise<AcceptedUpload> {
    return replayOr(() => this.admit(caller, file));
  }

  private async admit(caller: Caller, file: { filename: string; contentType: string; content: Buffer }): Promise<AcceptedUpload> {
    const extension = path.extname(file.filename).toLowerCase();
    if (extension !== '.csv' || !CSV_TYPES.has(file.contentType.split(';')[0].trim().toLowerCase())) {
      throw badRequest('Only CSV files (.csv) can be uploaded as data sources.', { details: { file: ['Not a CSV file.'] } });
    }
    if (file.content.length === 0) throw badRequest('The file is empty.', { details: { file: ['Empty file.'] } });
    if (file.content.includes(0)) throw badRequest('The file is binary, not CSV text.', { details: { file: ['Binary content.'] } });
    try {
      strictUtf8.decode(file.content);
    } catch {
      throw badRequest('The file is not UTF-8 text.', { details: { file: ['Invalid UTF-8.'] } });
    }
    const columns = headerColumns(file.content);
    const price = csvUploadPrice(columns);
    return transactionRetried(this.db, async (manager) => {
      const source = await manager.save(
        manager.create(DataSourceRecord, {
          ctId: newId(),
          userId: caller.user.id,
          filename: path.basename(file.filename).slice(0, 255),
          contentType: file.contentType || 'text/csv',
          sizeBytes: file.content.length,
          content: file.content,
          createdAt: this.clock.now(),
        }),
      );
      const job = await this.jobs.enqueue(manager, {
        kind: 'upload',
        userId: caller.user.id,
        apiKeyId: caller.key?.id ?? null,
        request: { filename: source.filename },
        dataSourceCtId: source.ctId,
      });
      const reason = `csv upload: ${source.filename} (${columns} columns)`;
      const held = await this.ledger.hold(
        { userId: caller.user.id, amount: price, reason, apiKeyId: caller.key?.id ?? null, jobId: job.id },
        manager,
      );
      const accepted: AcceptedUpload = { source, job, charge: { columns, estimatedCostCredits: price, balanceCredits: held.balanceCredits } };
      await recordOutcome(manager, { charged: price, ledgerEntryId: null, resource: { type: 'job', id: job.ctId }, result: accepted });
      return accepted;
    });
  }

  /** The upload job's steps after `parsing` (the runner starts the job there): parse the CSV, infer a type per
   * column (both in the CPU pool, the file streamed to it), mint a draft model. An unreadable file, or one past a
   * CSV limit or the task budget, is a CsvError (the job fails for good). */
  async uploadJob(job: Job, progress: JobProgress): Promise<JobOutcome> {
    const source = await this.db.manager.findOneOrFail(DataSourceRecord, {
      where: { ctId: job.dataSourceCtId! },
      select: { id: true, ctId: true, filename: true },
    });
    const { columns } = await this.readModel(source.ctId);
    await progress.step('parsed');
    await progress.step('agent_processing');
    await progress.step('modeling');
    const title = path.basename(source.filename, path.extname(source.filename)).slice(0, 255) || 'Uploaded data';
    const request: AssemblyRequest = {
      title,
      description: `Proposed from ${source.filename}.`,
      root: {
        path: 'data',
        label: `${title} Data Cluster`.slice(0, 110),
        ctId: null,
        description: null,
        components: columns.map((c, i) => ({
          path: `data.components[${i}]`,
          kind: 'mint' as const,
          label: c.label,
          dataType: c.dataType,
          description: null,
          units: null,
        })),
        clusters: [],
      },
      contextual: [],
      allowRetired: false,
      publish: false,
      generate: false,
      estimateId: null,
    };
    // Minted and charged in one transaction: nothing exists that is not paid for (the hold caps the charge).
    const model = await transactionRetried(this.db, async (m) => {
      const built = await this.builder.build(m, request, job.userId, { publish: false, mintKeyPrefix: `job:${job.ctId}` });
      const reason = `csv upload: ${source.filename} (${columns.length} columns)`;
      const amount = csvUploadPrice(columns.length);
      const charge = { userId: job.userId, amount, reason, idempotencyKey: `job:${job.ctId}:charge`, apiKeyId: job.apiKeyId, jobId: job.id };
      await this.ledger.capture(charge, m);
      return built;
    });
    await progress.step('finalizing', { dmCtId: model.dmCtId });
    const columnTypes = columns.map((c) => ({ label: c.label, data_type: c.dataType }));
    return { result: { ...this.pipeline.links(model.dmCtId, null), published: false, generated: false, columns: columnTypes } };
  }

  /** Parses the stored CSV in the pool: the thread asks for each part, read here from the database on demand. */
  private async readModel(ctId: string): Promise<CsvModel> {
    const size = (await queryOne(this.db, contentSize(ctId)))?.size ?? 0;
    const { port1, port2 } = new MessageChannel();
    let offset = 0;
    const reading: { failure?: Error } = {};
    port1.on('message', () => {
      const send = async (): Promise<CsvPart> => {
        if (offset >= size) return null;
        const part = (await queryOne(this.db, contentPart(ctId, offset, PART_BYTES)))?.part ?? Buffer.alloc(0);
        if (!part.length) return null;
        offset += part.length;
        return new Uint8Array(part.buffer, part.byteOffset, part.length);
      };
      send().then(
        (part) => port1.postMessage(part),
        (error: unknown) => {
          reading.failure = error instanceof Error ? error : new Error(String(error));
          port1.postMessage({ failed: reading.failure.message });
        },
      );
    });
    let result: CsvTaskResult;
    try {
      result = await this.cpu.run<MessagePort, CsvTaskResult>('csv', 'modelFromCsvStream', move(port2) as unknown as MessagePort);
    } catch (error) {
      if (reading.failure) throw reading.failure;
      if (error instanceof CpuBudgetExceeded) {
        throw new CsvError(`Reading the CSV took longer than the ${error.budgetMs} ms budget (CPU_TASK_BUDGET_MS).`, { cause: error });
      }
      throw error;
    } finally {
      port1.close();
    }
    if (!result.ok) throw new CsvError(result.message);
    return result.model;
  }
}
