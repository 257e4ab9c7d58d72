import WebSocket from 'ws';

/** A graphql-transport-ws message as received. */
interface SocketMessage {
  type: string;
  id?: string;
  payload?: { data?: Record<string, Record<string, unknown> | null> | null; errors?: unknown[] } | unknown[];
}

/** A graphql-ws socket driven message by message, to observe exactly what the server answers and how it closes. */
export interface RawSocket {
  messages: SocketMessage[];
  /** Resolves with the close code and reason, and when it came (Date.now()). */
  closed: Promise<{ code: number; reason: string; at: number }>;
  /** Resolves true on connection_ack, false if the socket closes first. */
  acked: Promise<boolean>;
  send: (message: unknown) => void;
  subscribe: (id: string, query: string, variables?: Record<string, unknown>) => void;
  /** Resolves with the first message satisfying `predicate` (rejects after `timeoutMs`). */
  next: (predicate: (message: SocketMessage) => boolean, timeoutMs?: number) => Promise<SocketMessage>;
  close: () => void;
}

export function openSocket(
  baseUrl: string,
  options: { cookie?: string; origin?: string; params?: Record<string, unknown>; init?: boolean } = {},
): RawSocket {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  const socket = new WebSocket(baseUrl.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws', {
    headers,
    ...(options.origin ? { origin: options.origin } : {}),
  });
  const messages: SocketMessage[] = [];
  const waiters: Array<{ predicate: (m: SocketMessage) => boolean; resolve: (m: SocketMessage) => void }> = [];
  const send = (message: unknown) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  };
  const closed = new Promise<{ code: number; reason: string; at: number }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString(), at: Date.now() })),
  );
  socket.on('error', () => undefined);
  const acked = new Promise<boolean>((resolve) => {
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as SocketMessage;
      messages.push(message);
      if (message.type === 'connection_ack') resolve(true);
      for (const w of [...waiters])
        if (w.predicate(message)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(message);
        }
    });
    void closed.then(() => resolve(false));
  });
  if (options.init !== false) socket.on('open', () => send({ type: 'connection_init', payload: options.params ?? {} }));
  return {
    messages,
    closed,
    acked,
    send,
    subscribe: (id, query, variables = {}) => send({ id, type: 'subscribe', payload: { query, variables } }),
    next: (predicate, timeoutMs = 15000) => {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<SocketMessage>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching message in ${timeoutMs} ms: ${JSON.stringify(messages)}`)), timeoutMs);
        waiters.push({ predicate, resolve: (m) => (clearTimeout(timer), resolve(m)) });
      });
    },
    close: () => socket.close(1000),
  };
}
