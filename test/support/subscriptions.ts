import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export interface Collected<T> {
  items: T[];
  errors: unknown[];
  done: Promise<void>;
  /** Resolves when an item satisfies `predicate` (or rejects after `timeoutMs`). */
  until: (predicate: (item: T) => boolean, timeoutMs?: number) => Promise<T>;
  close: () => Promise<void>;
  /** How many times the client connected (more than 1 after a reconnect). */
  connections: () => number;
}

/** Subscribes over graphql-ws (real WebSocket) and collects every `data[field]`. With `retryAttempts`, the client
 * reconnects like a browser's would (every 300 ms, whatever closed the socket) and subscribes again. */
export function subscribe<T = any>(
  baseUrl: string,
  query: string,
  field: string,
  auth: { token?: string; cookie?: string },
  variables: Record<string, unknown> = {},
  options: { retryAttempts?: number } = {},
): Collected<T> {
  let connections = 0;
  const client: Client = createClient({
    url: baseUrl.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: class extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, auth.cookie ? { headers: { cookie: auth.cookie } } : {});
      }
    },
    connectionParams: auth.token ? { authorization: `Token ${auth.token}` } : {},
    retryAttempts: options.retryAttempts ?? 0,
    retryWait: () => new Promise((resolve) => setTimeout(resolve, 300)),
    shouldRetry: () => true,
    on: { connected: () => void connections++ },
    lazy: false,
  });
  const items: T[] = [];
  const errors: unknown[] = [];
  const waiters: Array<{ predicate: (item: T) => boolean; resolve: (item: T) => void }> = [];
  const done = new Promise<void>((resolve) => {
    client.subscribe<Record<string, T>>(
      { query, variables },
      {
        next: (value) => {
          if (value.errors) errors.push(...value.errors);
          const item = value.data?.[field];
          if (item === undefined || item === null) return;
          items.push(item);
          for (const w of [...waiters])
            if (w.predicate(item)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(item);
            }
        },
        error: (error) => {
          errors.push(error);
          resolve();
        },
        complete: () => resolve(),
      },
    );
  });
  return {
    items,
    errors,
    done,
    until: (predicate, timeoutMs = 30000) => {
      const found = items.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no matching item in ${timeoutMs} ms; got ${JSON.stringify(items)} ${JSON.stringify(errors)}`)),
          timeoutMs,
        );
        waiters.push({ predicate, resolve: (item) => (clearTimeout(timer), resolve(item)) });
      });
    },
    close: () => client.dispose() as Promise<void>,
    connections: () => connections,
  };
}

/** `Job.result` with every kind's fields (the same name has the same type in each, so one selection asks all). */
export const JOB_RESULT = `result {
  __typename
  ... on AssembleJobResult { dmCtId modelUrl catalogUrl packageUrl published generated finalizeError }
  ... on UploadJobResult { dmCtId modelUrl catalogUrl packageUrl published generated columns { label dataType } }
  ... on Generation { dmCtId modelUrl catalogUrl packageUrl profile appName appUrl }
}`;

export const JOB_FIELDS = `ctId seq kind status step costCredits ${JOB_RESULT} error dmCtId dataSourceCtId`;
