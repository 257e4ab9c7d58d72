import { performance } from 'node:perf_hooks';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export interface JobState {
  ctId: string;
  status: string;
  step: string | null;
  error: string | null;
  updated: string;
}

/** One item as this client received it: wall-clock time (to compare with the row's `updated`) and a monotonic one. */
export interface Received {
  job: JobState;
  receivedAtMs: number;
  receivedPerfMs: number;
}

const JOB_UPDATED = 'subscription ($ctId: String!) { jobUpdated(ctId: $ctId) { ctId status step error updated } }';

/** One graphql-ws connection (key in connectionParams) over which jobs are followed to their final state. */
export class JobSubscriptions {
  private readonly client: Client;

  constructor(baseUrl: string, key: string) {
    this.client = createClient({
      url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Token ${key}` },
      retryAttempts: 0,
      lazy: false,
    });
  }

  /** Every state of the job from its current one on; resolves when the server ends the stream after a final state. */
  follow(ctId: string): Promise<Received[]> {
    const items: Received[] = [];
    return new Promise((resolve, reject) => {
      this.client.subscribe<{ jobUpdated: JobState }>(
        { query: JOB_UPDATED, variables: { ctId } },
        {
          next: (value) => {
            if (value.errors?.length) reject(new Error(JSON.stringify(value.errors)));
            else if (value.data) items.push({ job: value.data.jobUpdated, receivedAtMs: Date.now(), receivedPerfMs: performance.now() });
          },
          error: (error) => reject(error instanceof Error ? error : new Error(JSON.stringify(error))),
          complete: () => resolve(items),
        },
      );
    });
  }

  close(): Promise<void> {
    return this.client.dispose() as Promise<void>;
  }
}
