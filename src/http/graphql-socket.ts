import type http from 'node:http';
import { CloseCode, handleProtocols, makeServer, type ServerOptions } from 'graphql-ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { WebSocketSettings } from '../config';
import { constantTimeEqual } from '../lib/crypto';
import { parseCookies } from '../lib/cookies';
import type { Logger } from '../lib/logger';
import type { Caller, Credentials } from '../services/auth.service';
import { runAsCpuCaller } from '../workers/pool';
import { SESSION_COOKIE } from './session-cookies';

/** Close code of every limit (sockets per address or credential, subscriptions per socket, message rate):
 * graphql-ws's 4429, which its clients do not retry. A message larger than the limit is refused by the
 * WebSocket layer itself with 1009 "Message Too Big". */
export const TOO_MANY = CloseCode.TooManyInitialisationRequests;
const KEEP_ALIVE_MS = 12_000;
/** Synchronous work (parsing, validation, the start of execution) socket messages may do in one turn of the event
 * loop before HTTP requests and other I/O get theirs. */
const MESSAGE_SLICE_MS = 5;

/**
 * Socket messages start here in turns: one message of each socket with messages waiting, round-robin, for at most
 * MESSAGE_SLICE_MS per turn of the event loop, then the loop runs its I/O. A client sends a hundred operations in
 * one TCP read and ws emits them all at once; started as they came they held the loop for as long as their parsing
 * and validation took (a burst of 100 subscriptions on each of 20 sockets: 300 ms, every other request waiting).
 * Each socket's messages keep their order.
 */
class MessageTurns {
  /** Sockets with messages waiting, in turn order (a served socket goes to the back). */
  private readonly waiting = new Map<WebSocket, Array<() => void>>();
  private scheduled = false;

  push(socket: WebSocket, start: () => void): void {
    const queue = this.waiting.get(socket);
    if (queue) queue.push(start);
    else this.waiting.set(socket, [start]);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
  }

  /** Forgets a closed socket's messages. */
  drop(socket: WebSocket): void {
    this.waiting.delete(socket);
  }

  private drain(): void {
    this.scheduled = false;
    const until = performance.now() + MESSAGE_SLICE_MS;
    while (this.waiting.size > 0 && performance.now() < until) {
      const [socket, queue] = this.waiting.entries().next().value!;
      this.waiting.delete(socket);
      const start = queue.shift()!;
      if (queue.length) this.waiting.set(socket, queue);
      start();
    }
    if (this.waiting.size > 0 && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
  }
}

/** What every graphql-ws callback of this service sees in `ctx.extra`; `credentials`, the caller it counts
 * against, its user and the budget slots its operations hold (by operation id) are set once the connection is
 * accepted. */
export type SocketExtra = {
  socket: WebSocket;
  request: http.IncomingMessage;
  credentials?: Credentials;
  callerId?: string;
  userId?: number;
  held?: Map<string, () => void>;
};

/** The credentials a socket presents: an `Authorization` entry of `connection_init` (any case; GraphiQL sends
 * its headers pane there) wins over the session cookie of the upgrade request. */
export function socketCredentials(params: Record<string, unknown> | undefined, request: http.IncomingMessage): Credentials {
  const authorization = paramOf(params, 'authorization');
  if (authorization !== undefined) return { authorization };
  const sessionToken = parseCookies(request.headers.cookie)[SESSION_COOKIE];
  return sessionToken !== undefined ? { sessionToken } : {};
}

function paramOf(params: Record<string, unknown> | undefined, ...names: string[]): string | undefined {
  for (const [name, value] of Object.entries(params ?? {})) {
    if (typeof value === 'string' && names.includes(name.toLowerCase())) return value;
  }
  return undefined;
}

/** Whether a page of `origin` may use this service's session cookie over a socket: the service's own origin
 * (the Host it was reached at, or PUBLIC_BASE_URL) or one listed in WS_ALLOWED_ORIGINS. No Origin header means
 * no browser, and only browsers attach cookies on another site's behalf. */
export function originAllowed(origin: string | undefined, host: string | undefined, publicBaseUrl: string, allowed: string[]): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const normalised = url.origin.toLowerCase();
  return (host !== undefined && url.host === host.toLowerCase()) || normalised === new URL(publicBaseUrl).origin || allowed.includes(normalised);
}

/** A session socket opened from a foreign origin is accepted only with the session's CSRF token in
 * `connection_init` (`csrfToken` or `X-CSRFToken`), which a foreign page cannot read. */
export function crossSiteRefused(caller: Caller, params: Record<string, unknown> | undefined, sameSite: boolean): boolean {
  if (caller.via !== 'session' || sameSite) return false;
  const token = paramOf(params, 'csrftoken', 'x-csrftoken');
  return token === undefined || !constantTimeEqual(token, caller.session.csrfToken);
}

/** graphql-ws on `path` of the HTTP server, with the WebSocket limits applied before a message reaches the
 * protocol: sockets per address, message size (maxPayload) and messages a second. Replaces graphql-ws's
 * `useServer`, whose keep-alive it keeps. */
export function serveGraphqlSockets(
  httpServer: http.Server,
  options: ServerOptions<Record<string, unknown> | undefined, SocketExtra>,
  limits: WebSocketSettings,
  logger: Logger,
): { dispose: () => Promise<void> } {
  const wsServer = new WebSocketServer({ server: httpServer, path: '/graphql', maxPayload: limits.maxMessageBytes, handleProtocols });
  const server = makeServer(options);
  const turns = new MessageTurns();
  const perAddress = new Map<string, number>();
  /** Messages of each caller in the current second, over all its sockets (WS_MAX_MESSAGES_PER_SECOND_PER_CALLER). */
  const perCaller = new Map<string, { windowStart: number; count: number }>();
  /** Windows past their second are dropped by the next message after five seconds, not by a timer of their own. */
  let lastCallerSweep = Date.now();
  const sweepCallers = (now: number) => {
    if (now - lastCallerSweep < 5_000) return;
    lastCallerSweep = now;
    for (const [caller, window] of perCaller) if (now - window.windowStart >= 1000) perCaller.delete(caller);
  };
  wsServer.on('connection', (socket, request) => {
    const address = request.socket.remoteAddress ?? 'unknown';
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    socket.once('error', (error) => {
      logger.warn({ err: error }, 'graphql-ws socket error');
      socket.close(CloseCode.InternalServerError, 'Internal server error');
    });
    let pongWait: NodeJS.Timeout | undefined;
    const pings = setInterval(() => {
      if (socket.readyState !== socket.OPEN) return;
      pongWait = setTimeout(() => socket.terminate(), KEEP_ALIVE_MS);
      socket.once('pong', () => clearTimeout(pongWait));
      socket.ping();
    }, KEEP_ALIVE_MS);
    let windowStart = Date.now();
    let inWindow = 0;
    const extra: SocketExtra = { socket, request };
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (error) => (error ? reject(error) : resolve()));
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (handle) =>
          socket.on('message', (data: Buffer) => {
            // A closing socket runs nothing more, whatever was already in flight.
            if (socket.readyState !== socket.OPEN) return;
            const now = Date.now();
            if (now - windowStart >= 1000) [windowStart, inWindow] = [now, 0];
            if (++inWindow > limits.maxMessagesPerSecond) {
              return socket.close(TOO_MANY, `Too many messages: at most ${limits.maxMessagesPerSecond} a second`);
            }
            sweepCallers(now);
            if (extra.callerId !== undefined) {
              let window = perCaller.get(extra.callerId);
              if (!window || now - window.windowStart >= 1000) perCaller.set(extra.callerId, (window = { windowStart: now, count: 0 }));
              if (++window.count > limits.maxMessagesPerSecondPerCaller) {
                const max = limits.maxMessagesPerSecondPerCaller;
                return socket.close(TOO_MANY, `Too many messages from one caller: at most ${max} a second over all its sockets`);
              }
            }
            const text = data.toString('utf8');
            turns.push(socket, () => {
              if (socket.readyState !== socket.OPEN) return;
              // CPU tasks of an operation wait in its caller's lane of the pool's fair queue.
              const caller = extra.callerId ?? `address:${address}`;
              runAsCpuCaller(caller, () => handle(text)).catch((error: unknown) => {
                logger.error({ err: error }, 'graphql-ws message failed');
                socket.close(CloseCode.InternalServerError, 'Internal server error');
              });
            });
          }),
      },
      extra,
    );
    socket.once('close', (code, reason) => {
      turns.drop(socket);
      clearInterval(pings);
      clearTimeout(pongWait);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
      void closed(code, String(reason));
    });
    if ((perAddress.get(address) ?? 0) > limits.maxSocketsPerAddress) {
      socket.close(TOO_MANY, `Too many sockets from this address: at most ${limits.maxSocketsPerAddress}`);
    }
  });
  return {
    dispose: async () => {
      for (const client of wsServer.clients) client.close(1001, 'Going away');
      wsServer.removeAllListeners();
      await new Promise<void>((resolve, reject) => wsServer.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
