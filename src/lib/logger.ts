import type { IncomingMessage, ServerResponse } from 'node:http';
import pino from 'pino';
import type { Options as HttpLogOptions } from 'pino-http';
import pretty from 'pino-pretty';

/** Where logs go: colourised lines for a person at a terminal, one JSON object a line for everything else. */
export type LogFormat = 'pretty' | 'json';

/** LOG_FORMAT when set, otherwise pretty on a terminal and JSON when stdout is a pipe or a file. */
export function logFormat(env: Record<string, string | undefined> = process.env, tty = process.stdout.isTTY === true): LogFormat {
  if (env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty') return env.LOG_FORMAT;
  return tty ? 'pretty' : 'json';
}

/** Secrets are redacted wherever they could appear. */
export function createLogger(level: string, format: LogFormat = logFormat()): pino.Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        'req.headers["x-csrftoken"]',
        'res.headers["set-cookie"]',
        'password',
        'key',
        '*.password',
        '*.key',
      ],
      censor: '[redacted]',
    },
  };
  if (format === 'json') return pino(options);
  return pino(options, pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,req,res,responseTime' }));
}

/** One short line a request (method, path, status, time, request id) instead of every header of both sides. */
export const requestLogOptions: Pick<HttpLogOptions, 'serializers' | 'customSuccessMessage' | 'customErrorMessage'> = {
  serializers: {
    req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
    res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
  },
  customSuccessMessage: (req: IncomingMessage, res: ServerResponse, ms: number) => `${req.method} ${req.url} ${res.statusCode} ${Math.round(ms)} ms`,
  customErrorMessage: (req: IncomingMessage, res: ServerResponse, error: Error) =>
    `${req.method} ${req.url} ${res.statusCode} failed: ${error.message}`,
};

export type Logger = pino.Logger;
