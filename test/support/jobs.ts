import { issueKey, signedIn } from './factories';
import { startTestApp, type TestApp } from './app';

/** An app whose jobs no worker takes, so a test moves each job through its steps itself; with a signed-in user
 * and a read key for its subscriptions. */
export async function appWithoutWorkers(): Promise<{ app: TestApp; userId: number; token: string }> {
  const app = await startTestApp({}, { workers: false });
  const { user, client } = await signedIn(app.url, app.services);
  return { app, userId: user.id, token: (await issueKey(client, { scopes: ['read'] })).key };
}

/** A queued generate_package job of `userId`: its first event. */
export function queuedJob(app: TestApp, userId: number): Promise<{ id: number; ctId: string }> {
  return app.services.db.transaction((m) =>
    app.services.jobs.enqueue(m, { kind: 'generate_package', userId, apiKeyId: null, request: { dmCtId: 'none', profile: 'os' } }),
  );
}
