import type { HttpClient } from './http';

/** Reads until `done` holds (a failed read counts as its error), or throws naming `what` and the last value read;
 * `context` adds what explains a timeout (e.g. a service's log). */
export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  what: string,
  context: () => string = () => '',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch((error: unknown) => error as T);
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached in ${timeoutMs} ms; last: ${JSON.stringify(value)}\n${context()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What `promise` settles to, or `fallback` after `ms`; the timer is cleared either way, so a finished test file
 * leaves no timer that keeps its Jest worker from exiting. */
export async function within<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls GET /jobs/<ct_id>/ with backoff until the job is completed or failed, and returns its body. */
export async function finalJob(client: HttpClient, ctId: string, timeoutMs = 60000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
    const res = await client.get(`/api/v1/jobs/${ctId}/`);
    if (res.body.status === 'completed' || res.body.status === 'failed') return res.body;
    if (Date.now() > deadline) throw new Error(`job ${ctId} still ${res.body.status}/${res.body.step}`);
    await new Promise((r) => setTimeout(r, delay));
  }
}
