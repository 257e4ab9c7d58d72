import pino from 'pino';

/** One JSON object a line; secrets are redacted wherever they could appear. */
export function createLogger(level: string): pino.Logger {
  return pino({
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
  });
}

export type Logger = pino.Logger;
