import path from 'node:path';
import { TextDecoder } from 'node:util';
import type { DataSource } from 'typeorm';
import { newId } from '../lib/ids';
import { CSV_LIMITS, CsvError, parseCsv } from '../domain/csv';
import { transactionRetried } from '../db/transaction';
import { csvUploadPrice, recordOutcome, replayOr, type LedgerService } from '../money';
import { DataSourceRecord } from '../entities/data-source.entity';
import type { Job } from '../entities/job.entity';
import { badRequest } from '../lib/errors';
import type { Caller } from './auth.service';
import type { Clock } from './clock';
import type { JobsService } from './jobs.service';

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
  job: Job<'upload'>;
  charge: UploadCharge;
}

/** What an upload will cost (N columns × component + model) and the balance beside its hold: the 202's estimate. */
interface UploadCharge {
  columns: number;
  estimatedCostCredits: number;
  balanceCredits: number;
}

/** Uploads of source files (CSV): a data source and an `upload` job that proposes a draft model for a person
 * to review (its work is src/jobs/upload.task.ts). Publishes nothing. Money, as a mixed assembly: the upload mints one component per column and a model,
 * priced by the price table (csvUploadPrice); the header's columns are counted on admission and their price held
 * with the job (402 or the key's 403 before any work), the job captures the hold in the transaction that mints
 * the draft, and a failed job's hold is released. */
export class DataSourcesService {
  constructor(
    private readonly db: DataSource,
    private readonly jobs: JobsService,
    private readonly clock: Clock,
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
}
