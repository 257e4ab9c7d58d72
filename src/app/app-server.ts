import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import express from 'express';
import pinoHttp from 'pino-http';
import type { Services } from '../container';
import { pendingMigrations } from '../db/migrate';
import { parseCookies } from '../lib/cookies';
import { buildAdminRouter } from './admin/admin.routes';
import { AppGeneralError } from './app-errors';
import { appNotFound, buildAppRouter } from './app.routes';

/** A request Node refuses before any handler runs (oversized headers, malformed HTTP): answered in the general
 * error format instead of a bare status line, then the connection is closed. */
export function answerClientError(error: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // Bytes past a short Content-Length parse as a broken second request: the first one's answer goes out first.
  const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
  if (inFlight && !inFlight.writableFinished && inFlight.req.complete) {
    inFlight.shouldKeepAlive = false;
    inFlight.once('finish', () => socket.end());
    inFlight.once('close', () => socket.destroy());
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const status = tooLarge ? 431 : timedOut ? 408 : 400;
  const body = new AppGeneralError(
    status,
    tooLarge ? 'REQUEST_HEADERS_TOO_LARGE' : timedOut ? 'REQUEST_TIMEOUT' : 'BAD_REQUEST',
    tooLarge ? 'Request headers too large.' : timedOut ? 'The request was not received in time.' : 'Malformed HTTP request.',
    {},
  ).body();
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

/** ROLE=app: the generated application alone (its API, the admin pages, health), with no studio routes. */
export async function startAppServer(services: Services, options: { port: number; host?: string }) {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  const httpServer = http.createServer(app);
  httpServer.requestTimeout = services.settings.requestTimeoutMs;
  httpServer.headersTimeout = Math.min(services.settings.requestTimeoutMs, 60000);
  httpServer.on('clientError', answerClientError);

  app.use(
    pinoHttp({
      logger: services.logger,
      genReqId: (req, res) => {
        const id = (req.headers['x-request-id'] as string | undefined)?.slice(0, 100) || randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
    }),
  );
  app.use((req, _res, next) => {
    req.cookies = parseCookies(req.headers.cookie);
    next();
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      const pending = await pendingMigrations((sql) => services.db.query(sql));
      if (pending.length) res.status(503).json({ status: 'migrations_pending', pending });
      else res.json({ status: 'ready', database: 'ok' });
    } catch (error) {
      res.status(503).json({ status: 'unavailable', database: 'unreachable', error: (error as Error).message });
    }
  });
  app.use(buildAppRouter(services));
  app.use(buildAdminRouter(services));
  app.use(appNotFound);

  await new Promise<void>((resolve) => httpServer.listen(options.port, options.host ?? '0.0.0.0', resolve));
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    server: httpServer,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
