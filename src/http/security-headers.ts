import type http from 'node:http';

/**
 * Headers every response of this service carries, whatever route (or none) answers it: `nosniff`, so a browser
 * never reads a JSON or text answer as HTML or script, and `X-Frame-Options: DENY`, so no page of this service
 * (the landing page, the API docs, GraphiQL, the admin and account pages) can be framed by another site to
 * trick a signed-in user into clicking. A page that needs a stricter policy (a CSP) adds it itself.
 */
export function setSecurityHeaders(res: http.ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
}
