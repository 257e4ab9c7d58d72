import PgBoss from 'pg-boss';
import { PgListener } from '../db/pg-listener';
import { RETRYABLE_SQLSTATES } from '../db/transaction';
import { pgCode, PG } from '../lib/errors';
import { QUEUE_WAKE_CHANNEL, releaseActiveMessages, releaseMessages, wakeQueue } from '../db/queries/queue.sql';
import { QUEUE_SCHEMA, type QueueName, type QueuePayloads, type QueueSender } from '../db/queues';
import { JOB_KINDS, type JobKind } from '../entities/job.entity';

const isJobKind = (name: QueueName): name is JobKind => (JOB_KINDS as readonly string[]).includes(name);

/** `retryCount` is 0 on the first attempt; the attempt with `retryCount === retryLimit` is the last. */
export interface Attempt {
  id: string;
  retryCount: number;
  retryLimit: number;
}

export type QueueHandler<K extends QueueName> = (payload: QueuePayloads[K], attempt: Attempt) => Promise<void>;

/** A queue's row in pg-boss's queue table, declared by its task: a failed attempt is retried up to `retryLimit`
 * times, `retryDelay` seconds later (doubled each time with `retryBackoff`); an attempt held longer than
 * `expireInSeconds` (a dead worker) is given to another worker. Every field is stated, so a change reaches the row. */
export interface QueueOptions {
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  expireInSeconds: number;
}

/** Creates the queues pg-boss lacks and updates those whose row differs from its declaration: idempotent. Several
 * processes starting at once on a new database can deadlock in pg-boss's queue creation (its row and its partition
 * table), or one can find the row the other just inserted: the loser reads the queues again and goes on, a few times
 * after a short random pause. */
async function declareQueues(boss: PgBoss, queues: Record<QueueName, QueueOptions>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await declareQueuesOnce(boss, queues);
    } catch (error) {
      const code = pgCode(error);
      const raced = code !== undefined && (RETRYABLE_SQLSTATES.has(code) || code === PG.uniqueViolation);
      if (!raced || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
    }
  }
}

async function declareQueuesOnce(boss: PgBoss, queues: Record<QueueName, QueueOptions>): Promise<void> {
  const existing = new Map((await boss.getQueues()).map((queue) => [queue.name, queue]));
  for (const [name, options] of Object.entries(queues)) {
    const row = existing.get(name);
    if (!row) await boss.createQueue(name, { name, ...options });
    else if ((Object.keys(options) as Array<keyof QueueOptions>).some((key) => row[key] !== options[key]))
      await boss.updateQueue(name, { name, ...options });
  }
}

/** pg-boss behind one typed facade. `send` takes the caller's transaction, so a job row and its queue message
 * commit or roll back together ("a job is created before its task is sent"). */
export class JobQueue implements QueueSender {
  private readonly workerIds = new Map<string, string[]>();
  private wakeListener: PgListener | null = null;
  /** Messages this process is working on, by id: what `stop` hands back. */
  private readonly active = new Map<string, QueueName>();
  private handingBack: (() => void) | null = null;
  private readonly handedBack = new Promise<void>((resolve) => (this.handingBack = resolve));

  private constructor(
    private readonly boss: PgBoss,
    private readonly databaseUrl: string,
    private readonly expireInSeconds: number | undefined,
    private readonly onError: (error: Error) => void,
  ) {}

  /** `queues`: every queue's options, from the task declarations (jobs/workers.ts `QUEUES`), written to pg-boss's
   * queue table before anything is sent; `expireInSeconds` (JOB_EXPIRE_SECONDS): how long a worker may hold a
   * job's message before pg-boss gives it to another worker (a killed worker's job comes back after it), set on
   * each job kind's message; `maintenanceIntervalSeconds`: how often expiry is checked. */
  static async start(
    databaseUrl: string,
    options: {
      queues: Record<QueueName, QueueOptions>;
      supervise: boolean;
      onError: (error: Error) => void;
      expireInSeconds?: number;
      maintenanceIntervalSeconds?: number;
    },
  ): Promise<JobQueue> {
    const boss = new PgBoss({
      connectionString: databaseUrl,
      schema: QUEUE_SCHEMA,
      migrate: false,
      supervise: options.supervise,
      schedule: false,
      max: 6,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
      monitorStateIntervalSeconds: 30,
    });
    boss.on('error', options.onError);
    await boss.start();
    try {
      await declareQueues(boss, options.queues);
    } catch (error) {
      await boss.stop({ graceful: false, wait: true });
      throw error;
    }
    return new JobQueue(boss, databaseUrl, options.expireInSeconds, options.onError);
  }

  /** Sends inside the caller's transaction (`db`, an open TypeORM transaction) and announces the message on the
   * wake channel in that same transaction: workers in every process are woken when it commits, not before. */
  async send<K extends QueueName>(name: K, payload: QueuePayloads[K], db?: PgBoss.Db): Promise<string> {
    const expiry = this.expireInSeconds && isJobKind(name) ? { expireInSeconds: this.expireInSeconds } : {};
    const id = await this.boss.send(name, payload, { ...expiry, ...(db ? { db } : {}) });
    if (!id) throw new Error(`pg-boss refused the ${name} message`);
    const wake = wakeQueue(name);
    await (db ?? this.boss.getDb()).executeSql(wake.text, wake.values);
    return id;
  }

  /** `concurrency` loops, each taking one message at a time. A loop fetches again at once after a message (pg-boss
   * 10 would sleep out its polling interval even then) and when a send is announced; it polls every half second
   * only while the queue looks empty. */
  async work<K extends QueueName>(name: K, concurrency: number, handler: QueueHandler<K>): Promise<void> {
    await this.listenForWakes();
    for (let i = 0; i < concurrency; i++) {
      // Declared before the call: pg-boss may run the handler before `work` resolves.
      let workerId: string | undefined = undefined;
      workerId = await this.boss.work<QueuePayloads[K]>(name, { pollingIntervalSeconds: 0.5, batchSize: 1, includeMetadata: true }, async (jobs) => {
        if (workerId) this.boss.notifyWorker(workerId);
        for (const job of jobs) {
          this.active.set(job.id, name);
          // Once stop has handed the message back, pg-boss's completion of it is a no-op (it is no longer active).
          await Promise.race([handler(job.data, { id: job.id, retryCount: job.retryCount, retryLimit: job.retryLimit }), this.handedBack]).finally(
            () => this.active.delete(job.id),
          );
        }
      });
      this.workerIds.set(name, [...(this.workerIds.get(name) ?? []), workerId]);
    }
  }

  private async listenForWakes(): Promise<void> {
    if (this.wakeListener) return;
    // After a lost connection every queue is woken: announcements were missed meanwhile (polling would find
    // those messages too, only later). A worker process starts even while the database refuses connections.
    this.wakeListener = new PgListener(this.databaseUrl, QUEUE_WAKE_CHANNEL, {
      notify: (queue) => this.wake(queue),
      restored: () => this.wake(null),
      problem: (message, error) => this.onError(new Error(`queue wake listener: ${message}: ${error.message}`, { cause: error })),
    });
    await this.wakeListener.start({ retryInBackground: true });
  }

  /** Wakes this process's loops on `queue` (every queue when null); a busy loop fetches again as soon as it is done. */
  private wake(queue: string | null): void {
    const ids = queue === null ? [...this.workerIds.values()].flat() : (this.workerIds.get(queue) ?? []);
    for (const workerId of ids) this.boss.notifyWorker(workerId);
  }

  /** Stops fetching and hands the messages still being worked on back to the queue (as if never started, no attempt
   * spent), announcing them so another process resumes them at once; the next start would too. */
  async stop(): Promise<void> {
    await this.wakeListener?.stop();
    const messages = [...this.active.entries()];
    if (messages.length)
      await this.release(
        messages.map(([id]) => id),
        [...new Set(messages.map(([, name]) => name))],
      );
    this.handingBack?.();
    await this.boss.stop({ graceful: true, wait: true, timeout: 1000 });
  }

  /** Every message left active by processes that are gone (a crash, or an interrupted embedded Postgres): only
   * safe when no other process can be working, i.e. right after this process started the database itself. */
  async releaseAbandoned(): Promise<number> {
    const sql = releaseActiveMessages();
    const { rows } = await this.boss.getDb().executeSql(sql.text, sql.values);
    const names = rows.map((row: { name: string }) => row.name);
    for (const name of new Set(names)) await this.announce(name);
    return names.length;
  }

  private async release(ids: string[], names: QueueName[]): Promise<void> {
    const sql = releaseMessages(ids);
    await this.boss.getDb().executeSql(sql.text, sql.values);
    for (const name of names) await this.announce(name);
  }

  private async announce(name: string): Promise<void> {
    const wake = wakeQueue(name);
    await this.boss.getDb().executeSql(wake.text, wake.values);
  }
}
