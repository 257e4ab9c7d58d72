import path from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { move } from 'piscina';
import { contentPart, contentSize } from '../db/queries/data-sources.sql';
import { queryOne } from '../db/sql';
import { transactionRetried } from '../db/transaction';
import type { Services } from '../container';
import { CsvError, type CsvModel } from '../domain/csv';
import { DataSourceRecord } from '../entities/data-source.entity';
import { CpuBudgetExceeded } from '../lib/cpu-errors';
import { csvUploadPrice } from '../money';
import type { AssemblyRequest } from '../parsers/assembly.parser';
import type { ModelLinks } from '../presenters/job.presenter';
import type { CsvPart, CsvTaskResult } from '../workers/csv.task';
import { infrastructureErrorsRetried, releaseHold, type JobTask } from './runner';

declare module '../entities/job.entity' {
  interface JobPayloads {
    /** The data source's file name; its content is the job's data source (jobs.data_source_ct_id). */
    upload: {
      request: { filename: string };
      /** The draft model proposed (neither published nor generated) and the type proposed for each column. */
      result: ModelLinks & { published: false; generated: false; columns: Array<{ label: string; dataType: string }> };
    };
  }
}

/** Bytes of the stored CSV read from the database and handed to the parsing thread at a time. */
const PART_BYTES = 1024 * 1024;

/** upload: an uploaded CSV's columns proposed as a draft model (the runner starts it at `parsing`): parse the CSV
 * and infer a type per column (both in the CPU pool, the file streamed to it), then mint the draft and capture the
 * upload's hold in one transaction. An unreadable file, or one past a CSV limit or the task budget, is a CsvError
 * (the job fails for good and its hold is released). */
export const uploadTask: JobTask<'upload'> = {
  kinds: ['upload'],
  queueOptions: { retryLimit: 3, retryDelay: 1, retryBackoff: false, expireInSeconds: 300 },
  firstStep: 'parsing',
  policy: infrastructureErrorsRetried,
  giveUp: releaseHold,
  async run(services, job, progress) {
    const source = await services.db.manager.findOneOrFail(DataSourceRecord, {
      where: { ctId: job.dataSourceCtId! },
      select: { id: true, ctId: true, filename: true },
    });
    const { columns } = await readModel(services, source.ctId);
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
    const model = await transactionRetried(services.db, async (m) => {
      const built = await services.builder.build(m, request, job.userId, { publish: false, mintKeyPrefix: `job:${job.ctId}` });
      const reason = `csv upload: ${source.filename} (${columns.length} columns)`;
      const amount = csvUploadPrice(columns.length);
      const charge = { userId: job.userId, amount, reason, idempotencyKey: `job:${job.ctId}:charge`, apiKeyId: job.apiKeyId, jobId: job.id };
      await services.ledger.capture(charge, m);
      return built;
    });
    await progress.step('finalizing', { dmCtId: model.dmCtId });
    const proposed = columns.map((c) => ({ label: c.label, dataType: c.dataType }));
    return { result: { ...services.pipeline.links(model.dmCtId, null), published: false, generated: false, columns: proposed } };
  },
};

/** Parses the stored CSV in the pool: the thread asks for each part, read here from the database on demand. */
async function readModel(services: Pick<Services, 'db' | 'cpu'>, ctId: string): Promise<CsvModel> {
  const { db, cpu } = services;
  const size = (await queryOne(db, contentSize(ctId)))?.size ?? 0;
  const { port1, port2 } = new MessageChannel();
  let offset = 0;
  const reading: { failure?: Error } = {};
  port1.on('message', () => {
    const send = async (): Promise<CsvPart> => {
      if (offset >= size) return null;
      const part = (await queryOne(db, contentPart(ctId, offset, PART_BYTES)))?.part ?? Buffer.alloc(0);
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
    result = await cpu.run<MessagePort, CsvTaskResult>('csv', 'modelFromCsvStream', move(port2) as unknown as MessagePort);
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
