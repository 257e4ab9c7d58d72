import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Services } from '../../container';
import { constantTimeEqual, randomToken } from '../../lib/crypto';
import { DomainError } from '../../lib/errors';
import { clearSessionCookies, readCookie, SESSION_COOKIE, setSessionCookies } from '../../http/session-cookies';
import { parseLogin } from '../../parsers/auth.parser';
import { parseNewAppKey } from '../../parsers/app.parser';
import type { Caller } from '../../services/auth.service';
import { confirmPage, forbiddenPage, keysPage, loginPage, type KeyAction, type KeysPageOptions } from './admin-pages';

const LOGIN_CSRF_COOKIE = 'admin_login_csrf';
const KEYS_PATH = '/admin/api/apikey/';
const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 });

/**
 * The application's administrative pages (server-rendered): staff sign-in and the API key list with add,
 * deactivate and rotate. Sessions are the service's own (cookie `sessionid`); every form carries the session's
 * CSRF token, and the sign-in form a double-submit token of its own.
 */
export function buildAdminRouter(services: Services): Router {
  const router = express.Router();
  const secure = services.settings.cookieSecure;

  router.use('/admin', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
    next();
  });

  router.get('/admin/', (_req, res) => res.redirect(303, KEYS_PATH));

  router.get('/admin/login/', (req, res) => {
    const token = randomToken(32);
    res.cookie(LOGIN_CSRF_COOKIE, token, { httpOnly: true, sameSite: 'strict', secure, path: '/admin/login/' });
    res.type('html').send(loginPage({ csrfToken: token, next: safeNext(req.query.next) }));
  });

  router.post('/admin/login/', form, async (req, res) => {
    const fields = (req.body ?? {}) as Record<string, string>;
    const next = safeNext(fields.next);
    const again = (status: number, error: string) => {
      const token = randomToken(32);
      res.cookie(LOGIN_CSRF_COOKIE, token, { httpOnly: true, sameSite: 'strict', secure, path: '/admin/login/' });
      res
        .status(status)
        .type('html')
        .send(loginPage({ csrfToken: token, next, error, email: fields.username }));
    };
    const expected = readCookie(req, LOGIN_CSRF_COOKIE);
    if (!expected || typeof fields.csrfmiddlewaretoken !== 'string' || !constantTimeEqual(fields.csrfmiddlewaretoken, expected)) {
      again(403, 'The form expired or did not come from this site (CSRF check failed). Please sign in again.');
      return;
    }
    try {
      const credentials = parseLogin({ email: fields.username, password: fields.password });
      const session = await services.auth.login(credentials.email, credentials.password, req.ip ?? 'unknown');
      if (!session.user.isStaff) {
        await services.auth.logout(session.token);
        again(403, 'This account is not a staff account.');
        return;
      }
      setSessionCookies(res, session, { secure });
      res.clearCookie(LOGIN_CSRF_COOKIE, { path: '/admin/login/' });
      res.redirect(303, next);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      again(
        error.status === 429 ? 429 : 400,
        error.status === 429 ? error.message : 'Please enter the correct email and password of a staff account.',
      );
    }
  });

  /** A staff session, with the CSRF token of unsafe requests checked; otherwise the page answers itself. */
  const staff = async (req: Request, res: Response, next: NextFunction) => {
    const caller: Caller | null = await services.auth.authenticate({ sessionToken: readCookie(req, SESSION_COOKIE) });
    if (!caller) {
      if (req.method === 'GET') res.redirect(303, `/admin/login/?next=${encodeURIComponent(req.originalUrl)}`);
      else res.status(403).type('html').send(forbiddenPage('Your session ended. Sign in again.'));
      return;
    }
    if (!caller.user.isStaff) {
      res.status(403).type('html').send(forbiddenPage('Staff only.'));
      return;
    }
    if (req.method !== 'GET') {
      const token = (req.body as Record<string, unknown> | undefined)?.csrfmiddlewaretoken;
      if (typeof token !== 'string' || !constantTimeEqual(token, caller.session!.csrfToken)) {
        res.status(403).type('html').send(forbiddenPage('CSRF check failed: reload the page and try again.'));
        return;
      }
    }
    res.locals.caller = caller;
    next();
  };

  const render = async (res: Response, status: number, extra: Partial<KeysPageOptions> = {}) => {
    const caller = res.locals.caller as Caller;
    const keys = await services.app.keys.list();
    res
      .status(status)
      .type('html')
      .send(keysPage({ keys, csrfToken: caller.session!.csrfToken, staffEmail: caller.user.email, ...extra }));
  };
  const failure = (res: Response, error: unknown) => {
    if (!(error instanceof DomainError)) throw error;
    return render(res, error.status, { error: error.message });
  };

  router.post('/admin/logout/', form, staff, async (req, res) => {
    await services.auth.logout(readCookie(req, SESSION_COOKIE));
    clearSessionCookies(res);
    res.redirect(303, '/admin/login/');
  });

  router.get(KEYS_PATH, staff, async (_req, res) => render(res, 200));

  router.post(`${KEYS_PATH}add/`, form, staff, async (req, res) => {
    const fields = req.body as Record<string, unknown>;
    try {
      const issued = await services.app.keys.create(parseNewAppKey({ organization: fields.organization, contactEmail: fields.contact_email }));
      await render(res, 201, { issued });
    } catch (error) {
      await failure(res, error);
    }
  });

  /** Deactivate and rotate act only with `confirm=yes`; without it they answer the confirmation page. */
  const confirmed = (action: KeyAction) => async (req: Request, res: Response, next: NextFunction) => {
    if ((req.body as Record<string, unknown>).confirm === 'yes') return next();
    const caller = res.locals.caller as Caller;
    try {
      const key = await services.app.keys.get(Number(req.params.id));
      res.type('html').send(confirmPage({ action, key, csrfToken: caller.session!.csrfToken, staffEmail: caller.user.email }));
    } catch (error) {
      await failure(res, error);
    }
  };

  router.post(`${KEYS_PATH}:id/deactivate/`, form, staff, confirmed('deactivate'), async (req, res) => {
    try {
      const key = await services.app.keys.deactivate(Number(req.params.id));
      await render(res, 200, { message: `Key ${key.id} (${key.prefix}…, ${key.organization}) is deactivated.` });
    } catch (error) {
      await failure(res, error);
    }
  });

  router.post(`${KEYS_PATH}:id/rotate/`, form, staff, confirmed('rotate'), async (req, res) => {
    try {
      const id = Number(req.params.id);
      const issued = await services.app.keys.rotate(id);
      await render(res, 201, { issued: { ...issued, rotatedFrom: id } });
    } catch (error) {
      await failure(res, error);
    }
  });

  return router;
}

/** Where to go after signing in: only a path of these pages, never another site. */
function safeNext(value: unknown): string {
  return typeof value === 'string' && /^\/admin\/[A-Za-z0-9/_-]*$/.test(value) ? value : KEYS_PATH;
}
