import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'sessionid';
const CSRF_COOKIE = 'csrftoken';

/** What a new session puts in its cookies. */
export interface SessionCookies {
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

/** The session token is HttpOnly; the CSRF token is readable by the page, which echoes it in X-CSRFToken. */
export function setSessionCookies(res: Response, session: SessionCookies, options: { secure: boolean }): void {
  const common = { sameSite: 'lax', secure: options.secure, expires: session.expiresAt, path: '/' } as const;
  res.cookie(SESSION_COOKIE, session.token, { httpOnly: true, ...common });
  res.cookie(CSRF_COOKIE, session.csrfToken, { httpOnly: false, ...common });
}

export function clearSessionCookies(res: Response): void {
  res.clearCookie(SESSION_COOKIE, { path: '/' });
  res.clearCookie(CSRF_COOKIE, { path: '/' });
}

/** A cookie of the request (cookie-parser leaves `req.cookies` untyped). */
export function readCookie(req: Request, name: string): string | undefined {
  const cookies = req.cookies as Record<string, string | undefined> | undefined;
  return cookies?.[name];
}
