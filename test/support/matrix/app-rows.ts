import type { Router } from 'express';
import { PASSWORD } from '../factories';
import type { Credentials } from './callers';
import type { Expected } from './oracle';
import type { CellContext } from './studio-rows';
import { sendHttp, type Payload } from './transport';

/** A route of an express router, read from its stack (the routers keep no table of their own). */
export interface RouterRoute {
  method: string;
  path: string;
}

export function routerRoutes(router: Router): RouterRoute[] {
  return router.stack.flatMap((layer) => {
    const route = layer.route as { path: string; methods: Record<string, boolean> } | undefined;
    if (!route) return [];
    return Object.keys(route.methods)
      .filter((m) => m !== '_all')
      .map((m) => ({ method: m.toUpperCase(), path: route.path }));
  });
}

/** How to call an Interface B endpoint once its key is accepted, and its answer. */
export interface AppScenario {
  params?: Record<string, string>;
  query?: string;
  body?: () => Payload;
  expect: (ctx: CellContext) => Expected;
}

const fileForm = (field: string, name: string, content: string): Payload => {
  const form = new FormData();
  form.append(field, new Blob([content]), name);
  return { form };
};

const appError = (status: number, code: string, message: string, details: Record<string, unknown>): Expected => ({
  status,
  body: { success: false, error: { code, message, details } },
});

const MISSING_INSTANCE = 'i-matrixmissing';

export const APP_SCENARIOS: Record<string, AppScenario> = {
  'POST /api/v1/upload/zip/': {
    body: () => fileForm('file', 'notes.txt', 'not a package'),
    expect: () => appError(400, 'INVALID_FILE_TYPE', 'Invalid file type: .zip expected.', { filename: 'notes.txt', allowed_extensions: ['.zip'] }),
  },
  'POST /api/v1/upload/schema/': {
    body: () => fileForm('files', 'notes.txt', 'not a schema'),
    expect: () => ({
      status: 201,
      body: {
        success: true,
        data: { stored_files: [], errors: [{ filename: 'notes.txt', error: 'Invalid file extension. Allowed extensions: .xsd, .html, .owl' }] },
      },
    }),
  },
  'POST /api/v1/upload/rdf/': {
    body: () => fileForm('file', 'notes.txt', 'not rdf'),
    expect: () =>
      appError(400, 'INVALID_FILE_TYPE', 'Invalid file type: .ttl or .rdf expected.', {
        filename: 'notes.txt',
        allowed_extensions: ['.ttl', '.rdf'],
      }),
  },
  'POST /api/v1/validate/xml/': {
    body: () => ({ json: {} }),
    expect: () => appError(400, 'XML_REQUIRED', 'No XML provided: send a multipart "file" or a JSON body with "xml_content".', {}),
  },
  'GET /api/v1/instances/:instanceId/': {
    params: { instanceId: MISSING_INSTANCE },
    expect: () => appError(404, 'INSTANCE_NOT_FOUND', `No instance ${MISSING_INSTANCE}.`, { instance_id: MISSING_INSTANCE }),
  },
  'GET /api/v1/sparql': {
    query: `?query=${encodeURIComponent('ASK {}')}`,
    expect: () => ({ status: 200, contentType: 'application/sparql-results+json' }),
  },
  'POST /api/v1/sparql': {
    body: () => ({ urlencoded: { query: 'ASK {}' } }),
    expect: () => ({ status: 200, contentType: 'application/sparql-results+json' }),
  },
  'GET /api/v1/whoami/': {
    expect: ({ world }) => ({ status: 200, body: { success: true, data: { organization: world.appOrganization } } }),
  },
};

/** The admin pages declare nothing in code: which are open and which need a staff session is stated here. */
export interface AdminScenario {
  requirement: 'public' | 'staff';
  params?: (ctx: CellContext) => Promise<Record<string, string>> | Record<string, string>;
  /** Form fields besides the CSRF token (which the caller adds when it holds one). */
  form?: (ctx: CellContext) => Record<string, string>;
  consumesSession?: boolean;
  /** Sends the request itself (sign-in needs the login form's own token first). */
  send?: (ctx: CellContext, credentials: Credentials, path: string) => ReturnType<typeof sendHttp>;
  expect: (ctx: CellContext) => Expected;
}

const KEYS_PAGE = '/admin/api/apikey/';

/** The keys page's fresh key where staff may act on it; otherwise the victim key, which must stay active. */
const appKeyFor = async (ctx: CellContext) => String(ctx.authorized ? await ctx.world.freshAppKey() : ctx.world.victimAppKeyId);

async function signInAsStaff(ctx: CellContext, credentials: Credentials, path: string) {
  const base = ctx.world.app.url;
  const page = await fetch(`${base}${path}`);
  const cookie = page.headers
    .getSetCookie()
    .find((c) => c.startsWith('admin_login_csrf='))!
    .split(';')[0];
  const token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(await page.text())![1];
  return sendHttp(
    base,
    'POST',
    path,
    credentials,
    { urlencoded: { csrfmiddlewaretoken: token, username: ctx.world.users.staff.email, password: PASSWORD } },
    { cookies: [cookie] },
  );
}

export const ADMIN_SCENARIOS: Record<string, AdminScenario> = {
  'GET /admin/': { requirement: 'public', expect: () => ({ status: 303, location: KEYS_PAGE }) },
  'GET /admin/login/': { requirement: 'public', expect: () => ({ status: 200, contentType: 'text/html', text: 'name="csrfmiddlewaretoken"' }) },
  'POST /admin/login/': { requirement: 'public', send: signInAsStaff, expect: () => ({ status: 303, location: KEYS_PAGE }) },
  'POST /admin/logout/': { requirement: 'staff', consumesSession: true, expect: () => ({ status: 303, location: '/admin/login/' }) },
  'GET /admin/api/apikey/': { requirement: 'staff', expect: ({ world }) => ({ status: 200, text: world.appOrganization }) },
  'POST /admin/api/apikey/add/': {
    requirement: 'staff',
    form: () => ({ organization: 'Matrix Admin Org', contact_email: 'admin@example.org' }),
    expect: () => ({ status: 201, text: 'Matrix Admin Org' }),
  },
  'POST /admin/api/apikey/:id/deactivate/': {
    requirement: 'staff',
    params: async (ctx) => ({ id: await appKeyFor(ctx) }),
    form: () => ({ confirm: 'yes' }),
    expect: () => ({ status: 200, text: 'is deactivated.' }),
  },
  'POST /admin/api/apikey/:id/rotate/': {
    requirement: 'staff',
    params: async (ctx) => ({ id: await appKeyFor(ctx) }),
    form: () => ({ confirm: 'yes' }),
    expect: () => ({ status: 201, text: 'sdcapp_' }),
  },
};
