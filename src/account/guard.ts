import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Services } from '../container';
import { readCookie, SESSION_COOKIE } from '../http/session-cookies';
import { constantTimeEqual } from '../lib/crypto';
import type { Caller } from '../services/auth.service';
import { errorBox, layout } from './layout';

/** The form bodies of these pages: small, flat, a few fields. */
export const formBody = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 30 });

const PAGE_CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'";

/** What every page of /account/ and /catalog/ answers with: never cached, never framed, no inline code. */
export const pageHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('Content-Security-Policy', PAGE_CSP);
  next();
};

/** The signed-in person of a page (a session: keys are for scripts, not for these pages). */
export function pageCaller(res: Response): Caller & { via: 'session' } {
  return res.locals.caller as Caller & { via: 'session' };
}

export function refusedPage(message: string): string {
  return layout({
    title: 'Not allowed',
    section: 'login',
    viewer: null,
    body: `${errorBox(message)}<p><a href="/account/login/">Sign in</a></p>`,
  });
}

/** A form's field as a string ('' when absent or repeated). */
export function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/**
 * A signed-in session, and for a POST the session's CSRF token from the form (a page of another site cannot know
 * it) and no cross-site fetch metadata. A GET without a session goes to the sign-in page, which says when the
 * session expired; a POST without one is refused.
 */
export function signedIn(services: Services): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = readCookie(req, SESSION_COOKIE);
    const caller = token === undefined ? null : await services.auth.authenticate({ sessionToken: token });
    const safe = req.method === 'GET' || req.method === 'HEAD';
    if (!caller || caller.via !== 'session') {
      if (safe) {
        const expired = token !== undefined ? '&expired=1' : '';
        res.redirect(303, `/account/login/?next=${encodeURIComponent(req.originalUrl)}${expired}`);
      } else {
        res.status(403).type('html').send(refusedPage('Your session ended (it expired or you signed out). Sign in again.'));
      }
      return;
    }
    if (!safe) {
      const sent = field(req, 'csrfmiddlewaretoken');
      if (req.headers['sec-fetch-site'] === 'cross-site' || !sent || !constantTimeEqual(sent, caller.session.csrfToken)) {
        res
          .status(403)
          .type('html')
          .send(refusedPage('This form did not come from this site or has expired (CSRF check failed). Reload the page and try again.'));
        return;
      }
    }
    res.locals.caller = caller;
    next();
  };
}

/** The signed-in person when there is one, for public pages that show more to their owner (the catalog). */
export async function optionalCaller(services: Services, req: Request): Promise<Caller | null> {
  const token = readCookie(req, SESSION_COOKIE);
  return token === undefined ? null : services.auth.authenticate({ sessionToken: token });
}

/** Where to go after signing in: only a path of the account pages, never another site. */
export function safeNext(value: unknown): string {
  return typeof value === 'string' && /^\/account\/[A-Za-z0-9/_-]*$/.test(value) ? value : '/account/keys/';
}
