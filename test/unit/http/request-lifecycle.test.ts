import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { requestLifecycle } from '../../../src/http/base-app';

/** A real server whose every request goes through requestLifecycle, logging into an array. */
async function serving(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const begin = requestLifecycle(logger, null);
  const server = http.createServer((req, res) => {
    begin(req, res);
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url, lines, close };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('requestLifecycle', () => {
  it('logs one line a request with its id, at info, warn when the client went away, error for a 5xx', async () => {
    const server = await serving((req, res) => {
      if (req.url === '/hang') return; // never answered: the client gives up
      res.statusCode = req.url === '/boom' ? 500 : 200;
      res.end('{}');
    });
    try {
      const ok = await fetch(`${server.url}/ok?a=1`, { headers: { 'x-request-id': 'client-id-1' } });
      expect(ok.headers.get('x-request-id')).toBe('client-id-1');
      const failed = await fetch(`${server.url}/boom`);
      await fetch(`${server.url}/hang`, { signal: AbortSignal.timeout(100) }).catch(() => null);
      await fetch(`${server.url}/healthz`);
      await settled();
      expect(server.lines.map(({ level, reqId, msg }) => ({ level, reqId, msg: String(msg).replace(/ \d+ ms$/, '') }))).toEqual([
        { level: 30, reqId: 'client-id-1', msg: 'GET /ok?a=1 200' },
        { level: 50, reqId: failed.headers.get('x-request-id'), msg: 'GET /boom 500' },
        { level: 40, reqId: expect.stringMatching(/^[0-9a-f-]{36}$/), msg: 'GET /hang aborted' },
      ]);
    } finally {
      await server.close();
    }
  });
});
