import { requestLogLine } from '../../../src/lib/logger';

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
