import { escapeHtml } from '../rest-compat/admin/admin-pages';
import { ASSET_PATH } from './assets';

export { escapeHtml };

/** Who the page is for: a signed-in person (with the session's CSRF token for its forms) or nobody. */
export interface Viewer {
  email: string;
  csrfToken: string;
}

type Section = 'keys' | 'wallet' | 'jobs' | 'catalog' | 'login';

const NAV: Array<{ section: Section; href: string; label: string }> = [
  { section: 'keys', href: '/account/keys/', label: 'API keys' },
  { section: 'wallet', href: '/account/wallet/', label: 'Wallet' },
  { section: 'jobs', href: '/account/jobs/', label: 'Jobs' },
  { section: 'catalog', href: '/catalog/', label: 'Catalog' },
];

/** The hidden field every form of these pages carries (the session's CSRF token). */
export const csrfField = (token: string) => `<input type="hidden" name="csrfmiddlewaretoken" value="${escapeHtml(token)}">`;

/** A page of the account area: the same header as the admin pages, a navigation, one `main`. */
export function layout(opts: { title: string; section: Section; viewer: Viewer | null; body: string; scripts?: string[] }): string {
  const nav = NAV.map((item) => `<a href="${item.href}"${item.section === opts.section ? ' aria-current="page"' : ''}>${item.label}</a>`).join(' ');
  const account = opts.viewer
    ? `<span class="who">${escapeHtml(opts.viewer.email)}</span>
<form class="inline" method="post" action="/account/logout/">${csrfField(opts.viewer.csrfToken)}<button type="submit">Sign out</button></form>`
    : `<a href="/account/login/">Sign in</a>`;
  const scripts = (opts.scripts ?? []).map((name) => `<script src="${ASSET_PATH}${name}" defer></script>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(opts.title)} | sdc-gateway</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${ASSET_PATH}account.css">${scripts}</head>
<body><header><a class="brand" href="/">sdc-gateway</a><nav aria-label="Account">${nav}</nav><div class="account">${account}</div></header>
<main><h1>${escapeHtml(opts.title)}</h1>${opts.body}</main></body></html>`;
}

export const notice = (text: string) => `<p class="notice" role="status">${escapeHtml(text)}</p>`;
export const errorBox = (text: string) => `<p class="error" role="alert">${escapeHtml(text)}</p>`;

/** The messages of one field, shown next to it and tied to it with aria-describedby. */
export function fieldErrors(errors: Record<string, string[]>, field: string): string {
  const messages = errors[field];
  if (!messages?.length) return '';
  return `<span class="field-error" id="error-${field}">${messages.map((m) => escapeHtml(m)).join(' ')}</span>`;
}

/** The attributes of an input whose field has errors. */
export const invalidAttrs = (errors: Record<string, string[]>, field: string) =>
  errors[field]?.length ? ` aria-invalid="true" aria-describedby="error-${field}"` : '';

export const credits = (n: number) => n.toLocaleString('en-US');

export const when = (date: Date | null) =>
  date ? `<time datetime="${date.toISOString()}">${date.toISOString().slice(0, 16).replace('T', ' ')} UTC</time>` : '—';
