import { clearSessionCookies, readCookie, SESSION_COOKIE, setSessionCookies } from '../../http/session-cookies';
import { parseLogin } from '../../parsers/auth.parser';
import { parseCreateKey } from '../../parsers/keys.parser';
import { parseProfileUpdate } from '../../parsers/users.parser';
import { parseAutoReload } from '../../parsers/wallet.parser';
import { renderIssuedKey, renderKey, renderLegacyKey } from '../../presenters/key.presenter';
import { renderSession, renderUser, userView } from '../../presenters/user.presenter';
import { renderWallet } from '../../money';
import { route, type RouteContext } from '../route-table';
import { arr, bool, obj, str } from '../../lib/json-schema';
import { autoReloadBodySchema, createKeyBodySchema, loginBodySchema, profileBodySchema } from '../../parsers/auth.schema';
import { issuedKeySchema, keySchema, legacyKeySchema } from '../../presenters/key.schema';
import { sessionSchema, userSchema } from '../../presenters/user.schema';
import { walletSchema } from '../../presenters/wallet.schema';

function keyId(ctx: RouteContext): number {
  return Number(ctx.params.id);
}

export const authRoutes = [
  route({
    method: 'post',
    path: '/api/v1/auth/login/',
    requirement: 'public',
    doc: {
      summary: 'Sign in (sets the session and CSRF cookies)',
      tag: 'Auth',
      requestBody: { contentType: 'application/json', schema: loginBodySchema },
      responses: { 200: { description: 'Signed in.', schema: sessionSchema } },
    },
    handle: async (ctx) => {
      const { email, password } = parseLogin(ctx.body);
      const session = await ctx.services.auth.login(email, password, ctx.req.ip ?? 'unknown');
      setSessionCookies(ctx.res, session, { secure: ctx.services.settings.cookieSecure });
      return { status: 200, body: renderSession(session) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/auth/logout/',
    requirement: 'session',
    doc: { summary: 'Sign out', tag: 'Auth', responses: { 200: { description: 'Signed out.', schema: obj({ detail: str() }) } } },
    handle: async (ctx) => {
      await ctx.services.auth.logout(readCookie(ctx.req, SESSION_COOKIE));
      clearSessionCookies(ctx.res);
      return { status: 200, body: { detail: 'Signed out.' } };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/auth/me/',
    requirement: 'read',
    doc: {
      summary: 'The caller',
      tag: 'Auth',
      responses: { 200: { description: 'The signed-in user and how it authenticated.', schema: obj({ user: userSchema, via: str() }) } },
    },
    handle: async (ctx) => ({ status: 200, body: { user: renderUser(userView(ctx.caller.user)), via: ctx.caller.via } }),
  }),
  route({
    method: 'patch',
    path: '/api/v1/auth/profile/',
    requirement: 'session',
    doc: {
      summary: 'Update your profile',
      tag: 'Auth',
      requestBody: { contentType: 'application/json', schema: profileBodySchema },
      responses: { 200: { description: 'The updated user.', schema: userSchema } },
    },
    handle: async (ctx) => {
      const user = await ctx.services.users.updateProfile(ctx.caller.user.id, parseProfileUpdate(ctx.body));
      return { status: 200, body: renderUser(user) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/auth/api-tokens/',
    requirement: 'read',
    doc: {
      summary: 'List your API keys',
      tag: 'API keys',
      responses: { 200: { description: 'Your keys (never their plaintext).', schema: arr(keySchema) } },
    },
    handle: async (ctx) => ({ status: 200, body: (await ctx.services.keys.list(ctx.caller.user.id)).map(renderKey) }),
  }),
  route({
    method: 'post',
    path: '/api/v1/auth/api-tokens/',
    requirement: 'session',
    doc: {
      summary: 'Create an API key',
      tag: 'API keys',
      requestBody: { contentType: 'application/json', schema: createKeyBodySchema },
      responses: { 201: { description: 'The new key (plaintext shown once).', schema: issuedKeySchema } },
    },
    handle: async (ctx) => {
      const issued = await ctx.services.keys.create(ctx.caller.user.id, parseCreateKey(ctx.body));
      return { status: 201, body: renderIssuedKey(issued) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/auth/api-tokens/:id/rotate/',
    requirement: 'session',
    doc: {
      summary: 'Rotate an API key',
      tag: 'API keys',
      responses: { 201: { description: 'The new key (plaintext shown once); the old one stops working.', schema: issuedKeySchema } },
    },
    handle: async (ctx) => ({ status: 201, body: renderIssuedKey(await ctx.services.keys.rotate(ctx.caller.user.id, keyId(ctx))) }),
  }),
  route({
    method: 'post',
    path: '/api/v1/auth/api-tokens/:id/revoke/',
    requirement: 'read',
    doc: {
      summary: 'Revoke an API key',
      tag: 'API keys',
      responses: { 200: { description: 'Revoked.', schema: obj({ revoked: bool, key: keySchema }) } },
    },
    handle: async (ctx) => ({ status: 200, body: { revoked: true, key: renderKey(await ctx.services.keys.revoke(ctx.caller, keyId(ctx))) } }),
  }),
  route({
    method: 'post',
    path: '/api/v1/auth/token/',
    requirement: 'session',
    doc: {
      summary: 'Issue a legacy token',
      tag: 'API keys',
      responses: { 201: { description: 'The token (plaintext shown once).', schema: legacyKeySchema } },
    },
    handle: async (ctx) => ({ status: 201, body: renderLegacyKey(await ctx.services.keys.generateLegacy(ctx.caller.user.id)) }),
  }),
  route({
    method: 'get',
    path: '/api/v1/wallet/',
    requirement: 'read',
    doc: { summary: 'Your wallet', tag: 'Wallet', responses: { 200: { description: 'Balance, holds and auto-reload.', schema: walletSchema } } },
    handle: async (ctx) => ({ status: 200, body: renderWallet(await ctx.services.ledger.walletView(ctx.caller.user.id)) }),
  }),
  route({
    method: 'patch',
    path: '/api/v1/wallet/auto-reload/',
    requirement: 'session',
    doc: {
      summary: 'Change auto-reload',
      tag: 'Wallet',
      requestBody: { contentType: 'application/json', schema: autoReloadBodySchema },
      responses: { 200: { description: 'The wallet.', schema: walletSchema } },
    },
    handle: async (ctx) => {
      const wallet = await ctx.services.ledger.updateAutoReload(ctx.caller.user.id, parseAutoReload(ctx.body));
      return { status: 200, body: renderWallet(wallet) };
    },
  }),
];
