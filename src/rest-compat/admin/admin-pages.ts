import type { AppKeyView, IssuedAppKeyView } from '../../presenters/app-key.presenter';

export function escapeHtml(value: string | number | null | undefined): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d2329;background:#f6f7f9}
header{background:#264b5d;color:#fff;padding:10px 24px;display:flex;flex-wrap:wrap;gap:8px;justify-content:space-between;align-items:center}
header a,header button{color:#fff;background:transparent;border:1px solid #fff;border-radius:3px;cursor:pointer}
main{padding:24px;max-width:1100px}
.table-scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border-bottom:1px solid #dde1e6;padding:6px 8px;text-align:left;vertical-align:middle}
th{background:#eef1f4}
td.actions{white-space:nowrap}
form.inline{display:inline}
.notice{background:#fff7d6;border:1px solid #e5c84a;padding:12px;margin:0 0 16px}
.error{background:#fde8e8;border:1px solid #d66;padding:12px;margin:0 0 16px}
code.key{font-size:16px;background:#fff;padding:4px 6px;border:1px solid #ccc;user-select:all;overflow-wrap:anywhere}
fieldset{background:#fff;border:1px solid #dde1e6;margin:16px 0;padding:12px;min-width:0}
label{display:inline-block;min-width:140px}
input{max-width:100%;box-sizing:border-box}
.danger{background:#b3261e;color:#fff;border:1px solid #8c1d18;border-radius:3px;padding:4px 10px;cursor:pointer}
@media (max-width:600px){main{padding:12px}header{padding:8px 12px}label{min-width:0;display:block}}
`;

function layout(title: string, body: string, signedInAs: string | null, csrfToken: string | null): string {
  const account =
    signedInAs && csrfToken
      ? `<span>${escapeHtml(signedInAs)}</span>
         <form class="inline" method="post" action="/admin/logout/"><input type="hidden" name="csrfmiddlewaretoken" value="${escapeHtml(csrfToken)}">
         <button type="submit">Sign out</button></form>`
      : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} | Application administration</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>
<body><header><strong>Application administration</strong><div>${account}</div></header>
<main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

export function loginPage(opts: { csrfToken: string; next: string; error?: string; email?: string }): string {
  return layout(
    'Sign in',
    `${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="post" action="/admin/login/">
  <input type="hidden" name="csrfmiddlewaretoken" value="${escapeHtml(opts.csrfToken)}">
  <input type="hidden" name="next" value="${escapeHtml(opts.next)}">
  <p><label for="id_username">Email</label> <input id="id_username" name="username" type="email" required autocomplete="username" value="${escapeHtml(opts.email ?? '')}"></p>
  <p><label for="id_password">Password</label> <input id="id_password" name="password" type="password" required autocomplete="current-password"></p>
  <p><button type="submit">Sign in</button></p>
</form>`,
    null,
    null,
  );
}

export interface KeysPageOptions {
  keys: AppKeyView[];
  csrfToken: string;
  staffEmail: string;
  /** A key just created or rotated: its plaintext, shown on this page only. */
  issued?: IssuedAppKeyView & { rotatedFrom?: number };
  error?: string;
  message?: string;
}

export function keysPage(opts: KeysPageOptions): string {
  const csrf = `<input type="hidden" name="csrfmiddlewaretoken" value="${escapeHtml(opts.csrfToken)}">`;
  const issued = opts.issued
    ? `<div class="notice" role="status" id="issued-key">
        <p>${opts.issued.rotatedFrom ? `Key ${opts.issued.rotatedFrom} was deactivated and replaced. ` : ''}New API key for
        <strong>${escapeHtml(opts.issued.key.organization)}</strong>. Copy it now: it is shown only once and cannot be recovered.</p>
        <p><code class="key" data-testid="plaintext-key">${escapeHtml(opts.issued.plaintext)}</code></p></div>`
    : '';
  const rows = opts.keys
    .map(
      (k) => `<tr data-key-id="${k.id}">
  <td>${k.id}</td><td><code>${escapeHtml(k.prefix)}…</code></td><td>${escapeHtml(k.organization)}</td><td>${escapeHtml(k.contactEmail)}</td>
  <td class="active">${k.isActive ? 'yes' : 'no'}</td><td class="request-count">${k.requestCount}</td>
  <td>${k.lastUsed ? escapeHtml(k.lastUsed) : '—'}</td><td>${escapeHtml(k.createdAt)}</td>
  <td class="actions">${
    k.isActive
      ? `<form class="inline" method="post" action="/admin/api/apikey/${k.id}/deactivate/">${csrf}<button type="submit">Deactivate…</button></form>
         <form class="inline" method="post" action="/admin/api/apikey/${k.id}/rotate/">${csrf}<button type="submit">Rotate…</button></form>`
      : ''
  }</td></tr>`,
    )
    .join('\n');
  return layout(
    'API keys',
    `${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
${opts.message ? `<p class="notice" role="status">${escapeHtml(opts.message)}</p>` : ''}
${issued}
<fieldset><legend>Add API key</legend>
<form method="post" action="/admin/api/apikey/add/">${csrf}
  <p><label for="id_organization">Organisation</label> <input id="id_organization" name="organization" required maxlength="200"></p>
  <p><label for="id_contact_email">Contact email</label> <input id="id_contact_email" name="contact_email" type="email" required maxlength="254"></p>
  <p><button type="submit">Create key</button></p>
</form></fieldset>
<div class="table-scroll"><table><thead><tr><th>ID</th><th>Prefix</th><th>Organisation</th><th>Contact</th><th>Active</th><th>Requests</th><th>Last used</th><th>Created</th><th></th></tr></thead>
<tbody>${rows || '<tr><td colspan="9">No keys yet.</td></tr>'}</tbody></table></div>`,
    opts.staffEmail,
    opts.csrfToken,
  );
}

export type KeyAction = 'deactivate' | 'rotate';

const CONSEQUENCES: Record<KeyAction, string> = {
  deactivate: 'The key stops working at once: every request that sends it is refused. This cannot be undone.',
  rotate: 'A new key is issued and shown once; this key stops working at once. Clients must switch to the new key.',
};

/** The confirmation step before Deactivate or Rotate: a page of its own, so it works without JavaScript. */
export function confirmPage(opts: { action: KeyAction; key: AppKeyView; csrfToken: string; staffEmail: string }): string {
  const { action, key } = opts;
  const verb = action === 'deactivate' ? 'Deactivate' : 'Rotate';
  return layout(
    `${verb} key ${key.id}?`,
    `<p class="notice" role="alert">${CONSEQUENCES[action]}</p>
<p>Key <code>${escapeHtml(key.prefix)}…</code> of <strong>${escapeHtml(key.organization)}</strong> (${escapeHtml(key.contactEmail)}),
${key.requestCount} requests so far.</p>
<form method="post" action="/admin/api/apikey/${key.id}/${action}/">
  <input type="hidden" name="csrfmiddlewaretoken" value="${escapeHtml(opts.csrfToken)}">
  <input type="hidden" name="confirm" value="yes">
  <p><button type="submit" class="danger" data-testid="confirm">Yes, ${verb.toLowerCase()} it</button> <a href="/admin/api/apikey/">Cancel</a></p>
</form>`,
    opts.staffEmail,
    opts.csrfToken,
  );
}

export function forbiddenPage(message: string): string {
  return layout(
    'Not allowed',
    `<p class="error" role="alert">${escapeHtml(message)}</p><p><a href="/admin/login/">Sign in as staff</a></p>`,
    null,
    null,
  );
}
