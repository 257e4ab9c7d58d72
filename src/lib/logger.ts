import pino from 'pino';
import pretty from 'pino-pretty';

/** Where logs go: colourised lines for a person at a terminal, one JSON object a line for everything else. */
export type LogFormat = 'pretty' | 'json';

/** LOG_FORMAT when set, otherwise pretty on a terminal and JSON when stdout is a pipe or a file. */
function logFormat(env: Record<string, string | undefined> = process.env, tty = process.stdout.isTTY === true): LogFormat {
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

/** A request's log line at one of these levels. */
export type RequestLogLevel = 'info' | 'warn' | 'error';

/**
 * Writes a request's log line: the JSON object `logger[level]({ reqId }, message)` writes (level, time, the
 * logger's bindings such as pid and hostname, reqId, msg), built as one string and handed to the logger's own
 * destination. pino's generic path (redaction of every key, the serializer lookup, its string escaper) cost about
 * 7 µs a line under load, the most of anything a keyed no-op request does besides its socket write; none of it
 * applies to these two string fields. Null when the logger is not at info or below: requests are not logged.
 */
export function requestLogWriter(logger: pino.Logger): ((level: RequestLogLevel, reqId: string, message: string) => void) | null {
  if (!logger.isLevelEnabled('info')) return null;
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[pino.symbols.streamSym] as { write(line: string): unknown };
  const bindings = internals[pino.symbols.chindingsSym] as string;
  const levels = logger.levels.values;
  const prefix = { info: `{"level":${levels.info}`, warn: `{"level":${levels.warn}`, error: `{"level":${levels.error}` };
  return (level, reqId, message) =>
    void stream.write(`${prefix[level]},"time":${Date.now()}${bindings},"reqId":${JSON.stringify(reqId)},"msg":${JSON.stringify(message)}}\n`);
}

/** The message of a request's one log line: method, path (query included, capped), status and time. */
export function requestLogLine(method: string, url: string, status: number | 'aborted', ms: number): string {
  return `${method} ${url.length > 200 ? `${url.slice(0, 200)}…` : url} ${status} ${ms} ms`;
}

export type Logger = pino.Logger;
