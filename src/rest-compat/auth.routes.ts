import type { Response } from 'express';
import { presentUser } from '../presenters/user.presenter';
import { presentIssuedKey, presentKey } from '../presenters/key.presenter';
import { presentWallet } from '../presenters/wallet.presenter';
import { route, type RouteContext } from './route-table';

export const SESSION_COOKIE = 'sessionid';
export const CSRF_COOKIE = 'csrftoken';

function setSessionCookies(ctx: RouteContext, token: string, csrfToken: string, expiresAt: Date): void {
  const secure = ctx.services.settings.cookieSecure;
  ctx.res.cookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, expires: expiresAt, path: '/' });
  ctx.res.cookie(CSRF_COOKIE, csrfToken, { httpOnly: false, sameSite: 'lax', secure, expires: expiresAt, path: '/' });
}

export function clearSessionCookies(res: Response): void {
  res.clearCookie(SESSION_COOKIE, { path: '/' });
  res.clearCookie(CSRF_COOKIE, { path: '/' });
}

function keyId(ctx: RouteContext): number {
  return Number(ctx.params.id);
}

const body = (ctx: RouteContext): Record<string, unknown> =>
  ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? (ctx.body as Record<string, unknown>) : {};

export const authRoutes = [
  route({
    method: 'post',
    path: '/api/v1/auth/login/',
    requirement: 'public',
    handle: async (ctx) => {
      const { email, password } = body(ctx);
      const session = await ctx.services.auth.login(email, password, ctx.req.ip ?? 'unknown');
      setSessionCookies(ctx, session.token, session.csrfToken, session.expiresAt);
      return { status: 200, body: { user: presentUser(session.user), csrf_token: session.csrfToken, expires_at: session.expiresAt.toISOString() } };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/auth/logout/',
    requirement: 'session',
    handle: async (ctx) => {
      await ctx.services.auth.logout(ctx.req.cookies?.[SESSION_COOKIE]);
      clearSessionCookies(ctx.res);
      return { status: 200, body: { detail: 'Signed out.' } };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/auth/me/',
    requirement: 'read',
    handle: async (ctx) => ({ status: 200, body: { user: presentUser(ctx.caller!.user), via: ctx.caller!.via } }),
  }),
  route({
    method: 'patch',
    path: '/api/v1/auth/profile/',
    requirement: 'session',
    handle: async (ctx) => {
      const { name, email } = body(ctx);
      const user = await ctx.services.users.updateProfile(ctx.caller!.user.id, { name, email });
      return { status: 200, body: presentUser(user) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/auth/api-tokens/',
    requirement: 'read',
    handle: async (ctx) => {
      const now = ctx.services.clock.now();
      const keys = await ctx.services.keys.list(ctx.caller!.user.id);
      return { status: 200, body: keys.map((k) => presentKey(k, now)) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/auth/api-tokens/',
    requirement: 'session',
    handle: async (ctx) => {
      const { key, plaintext } = await ctx.services.keys.create(ctx.caller!.user.id, body(ctx));
      return { status: 201, body: presentIssuedKey(key, plaintext, ctx.services.clock.now()) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/auth/api-tokens/:id/rotate/',
    requirement: 'session',
    handle: async (ctx) => {
      const { key, plaintext } = await ctx.services.keys.rotate(ctx.caller!.user.id, keyId(ctx));
      return { status: 201, body: presentIssuedKey(key, plaintext, ctx.services.clock.now()) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/auth/api-tokens/:id/revoke/',
    requirement: 'read',
    handle: async (ctx) => {
      const key = await ctx.services.keys.revoke(ctx.caller!, keyId(ctx));
      return { status: 200, body: { revoked: true, key: presentKey(key, ctx.services.clock.now()) } };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/auth/token/',
    requirement: 'session',
    handle: async (ctx) => {
      const { key, plaintext } = await ctx.services.keys.generateLegacy(ctx.caller!.user.id);
      return { status: 201, body: { token: plaintext, prefix: key.prefix, created: key.createdAt.toISOString() } };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/wallet/',
    requirement: 'read',
    handle: async (ctx) => ({ status: 200, body: presentWallet(await ctx.services.ledger.wallet(ctx.caller!.user.id)) }),
  }),
  route({
    method: 'patch',
    path: '/api/v1/wallet/auto-reload/',
    requirement: 'session',
    handle: async (ctx) => {
      const wallet = await ctx.services.ledger.updateAutoReload(ctx.caller!.user.id, body(ctx));
      return { status: 200, body: presentWallet(wallet) };
    },
  }),
];
