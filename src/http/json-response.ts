import type { ServerResponse } from 'node:http';

/**
 * A JSON answer, byte for byte what Express's `res.json` sends (the body, `Content-Type: application/json;
 * charset=utf-8` unless one is set, `Content-Length`), written straight to the response: no content-type parsing,
 * Buffer copy and freshness check a call (the cacheable answers check `If-None-Match` themselves). A HEAD request's
 * body is dropped by Node.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
