import express, { type Request, type Response, type Router } from 'express';
import type { Services } from '../container';
import { clearSessionCookies, readCookie, SESSION_COOKIE, setSessionCookies } from '../http/session-cookies';
import { constantTimeEqual, randomToken } from '../lib/crypto';
import { DomainError } from '../lib/errors';
import { parseLogin } from '../parsers/auth.parser';
import { parseCreateKeyFields } from '../parsers/keys.parser';
import { parseAutoReloadFields } from '../parsers/wallet.parser';
import { loginPage, logoutPage } from './auth.pages';
import { autoReloadFormFields, fieldMessages, keyFormFields } from './forms';
import { field, formBody, optionalCaller, pageCaller, refusedPage, safeNext, signedIn } from './guard';
import { jobPage, jobsPage } from './jobs.pages';
import { confirmPage, issuedLegacy, issuedNamed, keysPage, type KeyAction, type KeysPageOptions } from './keys.pages';
import { errorBox, layout, type Viewer } from './layout';
import { walletPage, type WalletPageOptions } from './wallet.pages';

const LOGIN_CSRF_COOKIE = 'account_login_csrf';
const LOGIN_PATH = '/account/login/';
const LEDGER_PAGE_SIZE = 25;

const viewerOf = (res: Response): Viewer => {
  const caller = pageCaller(res);
  return { email: caller.user.email, csrfToken: caller.session.csrfToken };
};

/** The sign-in page's message for a refused attempt: the JSON login's rules, said for a person. */
function loginFailure(error: DomainError): { status: number; message: string } {
  if (error.status === 429) {
    const minutes = Math.ceil((Number(error.fields.retry_after_seconds) || 60) / 60);
    return {
      status: 429,
      message: `Sign-in is locked after too many failed attempts for this account or from your address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    };
  }
  if (error.code === 'invalid_credentials') return { status: 400, message: 'Wrong email or password.' };
  return { status: 400, message: 'Enter your email and password.' };
}

function notFoundPage(res: Response, viewer: Viewer | null, what: string): void {
  res
    .status(404)
    .type('html')
    .send(layout({ title: 'Not found', section: 'login', viewer, body: errorBox(`${what} was not found.`) }));
}

/** Sign-in, sign-out, keys, wallet and jobs of the signed-in person: parse the form, call one service, render. */
export function accountRoutes(services: Services): Router {
  const router = express.Router();
  const secure = services.settings.cookieSecure;
  const session = signedIn(services);

  router.get('/account/', (_req, res) => res.redirect(303, '/account/keys/'));

  const showLogin = (res: Response, status: number, opts: { next: string; error?: string; message?: string; email?: string }) => {
    const token = randomToken(32);
    res.cookie(LOGIN_CSRF_COOKIE, token, { httpOnly: true, sameSite: 'strict', secure, path: LOGIN_PATH });
    res
      .status(status)
      .type('html')
      .send(loginPage({ csrfToken: token, ...opts }));
  };

  router.get(LOGIN_PATH, async (req, res) => {
    const next = safeNext(req.query.next);
    if (await optionalCaller(services, req)) return res.redirect(303, next);
    const message =
      req.query.expired === '1' ? 'Your session has expired. Sign in again.' : req.query.signed_out === '1' ? 'You are signed out.' : undefined;
    showLogin(res, 200, { next, message });
  });

  router.post(LOGIN_PATH, formBody, async (req, res) => {
    const next = safeNext(field(req, 'next'));
    const email = field(req, 'email');
    const expected = readCookie(req, LOGIN_CSRF_COOKIE);
    const sent = field(req, 'csrfmiddlewaretoken');
    if (!expected || !sent || !constantTimeEqual(sent, expected)) {
      return showLogin(res, 403, { next, email, error: 'The form expired or did not come from this site (CSRF check failed). Sign in again.' });
    }
    try {
      const credentials = parseLogin({ email, password: field(req, 'password') });
      const signed = await services.auth.login(credentials.email, credentials.password, req.ip ?? 'unknown');
      setSessionCookies(res, signed, { secure });
      res.clearCookie(LOGIN_CSRF_COOKIE, { path: LOGIN_PATH });
      res.redirect(303, next);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const failure = loginFailure(error);
      showLogin(res, failure.status, { next, email, error: failure.message });
    }
  });

  router.get('/account/logout/', session, (_req, res) => void res.type('html').send(logoutPage(viewerOf(res))));

  router.post('/account/logout/', formBody, session, async (req, res) => {
    await services.auth.logout(readCookie(req, SESSION_COOKIE));
    clearSessionCookies(res);
    res.redirect(303, `${LOGIN_PATH}?signed_out=1`);
  });

  // Keys.
  const renderKeys = async (res: Response, status: number, extra: Partial<KeysPageOptions> = {}) => {
    const keys = await services.keys.list(pageCaller(res).user.id);
    res
      .status(status)
      .type('html')
      .send(keysPage({ viewer: viewerOf(res), keys, ...extra }));
  };
  const keyFailure = (res: Response, error: unknown, extra: Partial<KeysPageOptions> = {}) => {
    if (!(error instanceof DomainError)) throw error;
    const errors = fieldMessages(error);
    return renderKeys(res, error.status, { ...extra, errors, error: Object.keys(errors).length ? undefined : error.message });
  };

  router.get('/account/keys/', session, (_req, res) => renderKeys(res, 200));

  router.post('/account/keys/', formBody, session, async (req, res) => {
    const { fields, values } = keyFormFields(req);
    try {
      const issued = await services.keys.create(pageCaller(res).user.id, parseCreateKeyFields(fields));
      await renderKeys(res, 201, { issued: issuedNamed(issued) });
    } catch (error) {
      await keyFailure(res, error, { values });
    }
  });

  /** Rotate, revoke and a new legacy key act only with `confirm=yes`; without it they answer the confirmation page. */
  const confirmOr = (action: KeyAction, act: (req: Request, res: Response) => Promise<void>) => async (req: Request, res: Response) => {
    try {
      if (field(req, 'confirm') === 'yes') return await act(req, res);
      const viewer = viewerOf(res);
      if (action === 'legacy') return void res.type('html').send(confirmPage({ viewer, action, key: null }));
      const key = (await services.keys.list(pageCaller(res).user.id)).find((k) => String(k.id) === req.params.id);
      if (!key) return notFoundPage(res, viewer, 'This API key');
      res.type('html').send(confirmPage({ viewer, action, key }));
    } catch (error) {
      await keyFailure(res, error);
    }
  };

  router.post(
    '/account/keys/:id/rotate/',
    formBody,
    session,
    confirmOr('rotate', async (req, res) => {
      const issued = await services.keys.rotate(pageCaller(res).user.id, Number(req.params.id));
      await renderKeys(res, 201, { issued: issuedNamed(issued, true) });
    }),
  );

  router.post(
    '/account/keys/:id/revoke/',
    formBody,
    session,
    confirmOr('revoke', async (req, res) => {
      const key = await services.keys.revoke(pageCaller(res), Number(req.params.id));
      await renderKeys(res, 200, { message: `Key "${key.name ?? ''}" (${key.prefix}…) is revoked.` });
    }),
  );

  router.post(
    '/account/keys/legacy/',
    formBody,
    session,
    confirmOr('legacy', async (_req, res) => {
      const legacy = await services.keys.generateLegacy(pageCaller(res).user.id);
      await renderKeys(res, 201, { issued: issuedLegacy(legacy) });
    }),
  );

  // Wallet.
  const renderWallet = async (res: Response, status: number, before: number | null, extra: Partial<WalletPageOptions> = {}) => {
    const userId = pageCaller(res).user.id;
    const wallet = await services.ledger.walletView(userId);
    const ledger = await services.ledger.history(userId, before, LEDGER_PAGE_SIZE);
    res
      .status(status)
      .type('html')
      .send(walletPage({ viewer: viewerOf(res), wallet, ledger, first: before === null, ...extra }));
  };

  router.get('/account/wallet/', session, async (req, res) => {
    const before = req.query.before;
    if (before === undefined) return renderWallet(res, 200, null);
    if (typeof before !== 'string' || !/^[1-9]\d{0,15}$/.test(before)) {
      return renderWallet(res, 400, null, { error: 'The ledger page asked for does not exist; this is the newest one.' });
    }
    await renderWallet(res, 200, Number(before));
  });

  router.post('/account/wallet/auto-reload/', formBody, session, async (req, res) => {
    try {
      await services.ledger.updateAutoReload(pageCaller(res).user.id, parseAutoReloadFields(autoReloadFormFields(req)));
      await renderWallet(res, 200, null, { message: 'Auto-reload saved.' });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const errors = fieldMessages(error);
      await renderWallet(res, error.status, null, { errors, error: Object.keys(errors).length ? undefined : error.message });
    }
  });

  // Jobs.
  router.get('/account/jobs/', session, async (_req, res) => {
    const caller = pageCaller(res);
    const jobs = await services.jobs.views(await services.jobs.listFor(caller, {}));
    res.type('html').send(jobsPage({ viewer: viewerOf(res), jobs }));
  });

  router.get('/account/jobs/:ctId/', session, async (req, res) => {
    try {
      const task = await services.jobs.taskFor(pageCaller(res), String(req.params.ctId));
      const events = await services.jobs.eventsAfter(task.job.ctId, 0);
      res.type('html').send(jobPage({ viewer: viewerOf(res), task, events }));
    } catch (error) {
      if (!(error instanceof DomainError) || error.status !== 404) throw error;
      notFoundPage(res, viewerOf(res), 'This job');
    }
  });

  // Any other unsafe request under /account/ without a session or token is refused like the rest.
  router.post('/account/*rest', formBody, session, (_req, res) => {
    res.status(404).type('html').send(refusedPage('There is no such form.'));
  });

  return router;
}
