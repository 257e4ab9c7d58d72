import pino from 'pino';
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
  return pino(options, pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,reqId' }));
}

/** The message of a request's one log line: method, path (query included, capped), status and time. */
export function requestLogLine(method: string, url: string, status: number | 'aborted', ms: number): string {
  return `${method} ${url.length > 200 ? `${url.slice(0, 200)}…` : url} ${status} ${ms} ms`;
}

export type Logger = pino.Logger;
