import { randomUUID } from 'node:crypto';
import http from 'node:http';
import express, { type Express } from 'express';
import pinoHttp from 'pino-http';
import { answerClientError } from './client-errors';
import type { Services } from '../container';
import { pendingMigrations } from '../db/migrate';
import { parseCookies } from '../lib/cookies';
import { requestLogOptions } from '../lib/logger';
import { mountMetrics } from '../metrics/metrics';

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
  mountMetrics(app, services);
  app.use((req, _res, next) => {
    req.cookies = parseCookies(req.headers.cookie);
    next();
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const [database, storage] = await Promise.all([databaseReadiness(services), storageReadiness(services)]);
    const status = database.problem ?? (storage.storage === 'ok' ? 'ready' : 'unavailable');
    res.status(status === 'ready' ? 200 : 503).json({ status, ...database.fields, ...storage });
  });
  return { app, httpServer };
}

/** Startup refused because another process holds the port: main prints its message alone and exits 1. */
export class PortInUse extends Error {
  constructor(port: number, host: string, cause: Error) {
    super(`port ${port} on ${host} is already in use (EADDRINUSE): stop the other process or set PORT to a free port`, { cause });
    this.name = 'PortInUse';
  }
}

/** Listens and returns the loopback URL of the bound port; rejects when the port cannot be bound. */
export async function listen(httpServer: http.Server, port: number, host = '0.0.0.0'): Promise<string> {
  // The WebSocket server re-emits a listen failure and graphql-ws prints it with a stack: until bound, it is ours alone.
  const others = httpServer.listeners('error') as Array<(error: Error) => void>;
  httpServer.removeAllListeners('error');
  await new Promise<void>((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new PortInUse(port, host, error)
          : new Error(`cannot listen on ${host}:${port}: ${error.message}`, { cause: error }),
      );
    httpServer.once('error', refused);
    httpServer.listen(port, host, () => {
      httpServer.off('error', refused);
      resolve();
    });
  });
  for (const listener of others) httpServer.on('error', listener);
  const address = httpServer.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
}

async function databaseReadiness(services: Services): Promise<{ problem?: string; fields: Record<string, unknown> }> {
  try {
    const pending = await pendingMigrations((sql) => services.db.query(sql));
    return pending.length ? { problem: 'migrations_pending', fields: { pending } } : { fields: { database: 'ok' } };
  } catch (error) {
    return { problem: 'unavailable', fields: { database: 'unreachable', error: (error as Error).message } };
  }
}

/** Storage is ready when this node's staging directory is writable and the shared storage (STORAGE_URL) answers. */
async function storageReadiness(services: Services): Promise<{ storage: string; storage_error?: string }> {
  try {
    await services.app.files.check();
    await services.app.storage.check();
    return { storage: 'ok' };
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return { storage: 'unavailable', storage_error: `${services.app.storage.kind}: ${code ?? message ?? 'unknown'}` };
  }
}
