import PgBoss from 'pg-boss';

/** A bare pg-boss worker process for bench:jobs: no-op handlers on the queue named in argv, polled the way the
 * service's workers poll (two subscriptions, one job per fetch, every half second when idle). */
async function main(): Promise<void> {
  const [connectionString, schema, queue] = process.argv.slice(2);
  const boss = new PgBoss({ connectionString, schema, migrate: false, supervise: false, schedule: false, max: 6 });
  boss.on('error', (error) => console.error(error));
  await boss.start();
  for (let i = 0; i < 2; i++) {
    await boss.work(queue, { pollingIntervalSeconds: 0.5, batchSize: 1 }, async () => undefined);
  }
  process.on('SIGTERM', () => void boss.stop({ graceful: false, wait: true }).finally(() => process.exit(0)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
