import { randomUUID } from 'node:crypto';
import http from 'node:http';
import express, { type Express } from 'express';
import pinoHttp from 'pino-http';
import { answerClientError } from './client-errors';
import type { Services } from '../container';
import { pendingMigrations } from '../db/migrate';
import { parseCookies } from '../lib/cookies';
import { requestLogOptions } from '../lib/logger';

/** What every role's HTTP server starts with: timeouts, malformed-request answers, request ids and structured
 * logs, cookies, and the health endpoints. */
export function createBaseApp(services: Services): { app: Express; httpServer: http.Server } {
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
      ...requestLogOptions,
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
  return { app, httpServer };
}

/** Listens and returns the loopback URL of the bound port. */
export async function listen(httpServer: http.Server, port: number, host = '0.0.0.0'): Promise<string> {
  await new Promise<void>((resolve) => httpServer.listen(port, host, resolve));
  const address = httpServer.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
}
