import pino from 'pino';
import { requestLogLine, requestLogWriter, type RequestLogLevel } from '../../../src/lib/logger';

describe('requestLogLine', () => {
  it('is one short line: method, path with query, status, time', () => {
    expect(requestLogLine('GET', '/api/v1/whoami/?a=1', 200, 3)).toBe('GET /api/v1/whoami/?a=1 200 3 ms');
    expect(requestLogLine('POST', '/api/v1/validate/xml/', 'aborted', 12)).toBe('POST /api/v1/validate/xml/ aborted 12 ms');
  });

  it('caps a long path, so a hostile URL cannot make a long line', () => {
    const line = requestLogLine('GET', `/${'x'.repeat(5000)}`, 404, 1);
    expect(line.length).toBeLessThan(230);
    expect(line).toMatch(/^GET \/x+… 404 1 ms$/);
  });
});

describe('requestLogWriter', () => {
  /** A logger as the service makes one (bindings, redaction), writing into an array. */
  const capturing = (level: string) => {
    const lines: string[] = [];
    const logger = pino({ level, redact: { paths: ['key', '*.key'], censor: '[redacted]' } }, { write: (line: string) => void lines.push(line) });
    return { logger, lines };
  };
  const withoutTime = (line: string) => line.replace(/,"time":\d+,/, ',"time":0,');

  it("writes, byte for byte but the time, the line pino's own call writes", () => {
    const { logger, lines } = capturing('info');
    const write = requestLogWriter(logger)!;
    const before = Date.now();
    const cases: Array<[RequestLogLevel, string, string]> = [
      ['info', 'b945d45e-4405-4d9a-b938-00e45b5ab324', 'GET /api/v1/whoami/ 200 1 ms'],
      ['warn', 'client "id"\\ \u2028 é', 'POST /api/v1/validate/xml/?q=%22 aborted 12 ms'],
      ['error', 'x'.repeat(100), 'GET /\u0001\n 500 3 ms'],
    ];
    for (const [level, reqId, message] of cases) {
      logger[level]({ reqId }, message);
      write(level, reqId, message);
    }
    expect(lines).toHaveLength(6);
    for (let i = 0; i < lines.length; i += 2) {
      expect(lines[i + 1]).toMatch(/^\{"level":\d+,"time":\d+,"pid":/);
      expect(withoutTime(lines[i + 1])).toBe(withoutTime(lines[i]));
    }
    const written = JSON.parse(lines[1]) as { time: number };
    // The writer stamps the time of the call, like pino does.
    expect(written.time).toBeGreaterThanOrEqual(before);
    expect(written.time).toBeLessThanOrEqual(Date.now());
  });

  it('is null when requests are not logged (a level above info)', () => {
    expect(requestLogWriter(capturing('warn').logger)).toBeNull();
    expect(requestLogWriter(capturing('silent').logger)).toBeNull();
  });
});
