import { SCOPES } from '../entities/api-key.entity';
import type { IssuedKeyView, KeyView, LegacyKeyView } from '../presenters/key.presenter';
import { MAX_ACTIVE_KEYS } from '../services/keys.service';
import { credits, csrfField, errorBox, escapeHtml, fieldErrors, invalidAttrs, layout, notice, when, type Viewer } from './layout';

/** What the create form was sent with, to show it again beside its errors. */
export interface KeyFormValues {
  name: string;
  scopes: string[];
  spendLimitCredits: string;
  expiresInDays: string;
}

export interface KeysPageOptions {
  viewer: Viewer;
  keys: KeyView[];
  /** A key just created or rotated, or the legacy key just generated: its plaintext, on this answer only. */
  issued?: { plaintext: string; label: string };
  message?: string;
  error?: string;
  errors?: Record<string, string[]>;
  values?: KeyFormValues;
}

const EMPTY: KeyFormValues = { name: '', scopes: ['read'], spendLimitCredits: '', expiresInDays: '' };

export const issuedNamed = (key: IssuedKeyView, rotated = false) => ({
  plaintext: key.key,
  label: rotated
    ? `Key "${key.name ?? ''}" was rotated: the old key stopped working and this new one has the same scopes, limit and expiry.`
    : `New key "${key.name ?? ''}" with scopes ${key.scopes.join(', ')}.`,
});

export const issuedLegacy = (key: LegacyKeyView) => ({
  plaintext: key.token,
  label: 'Your legacy key (every scope, no limit, no expiry); any earlier legacy key stopped working.',
});

function issuedBox(issued: { plaintext: string; label: string }): string {
  return `<div class="notice" role="status">
<p>${escapeHtml(issued.label)}</p>
<p><strong>Copy it now: it will not be shown again.</strong> The service keeps only its hash; if you lose it, rotate it.</p>
<code class="key" id="new-key" data-testid="new-key">${escapeHtml(issued.plaintext)}</code>
<p><button type="button" data-copy="new-key" hidden>Copy key</button></p>
<p class="hint">Send it as <code>Authorization: Token &lt;key&gt;</code>.</p></div>`;
}

function keyRow(key: KeyView, csrf: string): string {
  const limit = key.spendLimitCredits === null ? 'none' : credits(key.spendLimitCredits);
  const actions =
    key.status === 'active'
      ? `<form class="inline" method="post" action="/account/keys/${key.id}/rotate/">${csrf}<button type="submit">Rotate…</button></form>
<form class="inline" method="post" action="/account/keys/${key.id}/revoke/">${csrf}<button type="submit">Revoke…</button></form>`
      : key.status === 'expired'
        ? `<form class="inline" method="post" action="/account/keys/${key.id}/revoke/">${csrf}<button type="submit">Revoke…</button></form>`
        : '';
  return `<tr data-key-id="${key.id}">
<td>${escapeHtml(key.name)}</td><td><code>${escapeHtml(key.prefix)}…</code></td><td>${key.scopes.join(', ')}</td>
<td class="num">${limit}</td><td class="num">${credits(key.spentCredits)}</td><td>${key.expiresAt ? when(key.expiresAt) : 'never'}</td>
<td class="status status-${key.status}">${key.status}</td><td>${when(key.created)}</td><td class="actions">${actions}</td></tr>`;
}

export function keysPage(opts: KeysPageOptions): string {
  const errors = opts.errors ?? {};
  const values = opts.values ?? EMPTY;
  const csrf = csrfField(opts.viewer.csrfToken);
  const active = opts.keys.filter((k) => k.status === 'active').length;
  const scopeBoxes = SCOPES.map((scope) =>
    scope === 'read'
      ? `<label><input type="checkbox" name="scopes" value="read" checked disabled> read (always on)</label>`
      : `<label><input type="checkbox" name="scopes" value="${scope}"${values.scopes.includes(scope) ? ' checked' : ''}> ${scope}</label>`,
  ).join(' ');
  const rows = opts.keys.map((k) => keyRow(k, csrf)).join('\n');
  return layout({
    title: 'API keys',
    section: 'keys',
    viewer: opts.viewer,
    scripts: ['account.js'],
    body: `${opts.error ? errorBox(opts.error) : ''}${opts.message ? notice(opts.message) : ''}${opts.issued ? issuedBox(opts.issued) : ''}
<fieldset><legend>Create a key</legend>
${fieldErrors(errors, 'non_field_errors')}
<p class="hint">${active} of ${MAX_ACTIVE_KEYS} active keys in use. Creating a named key retires your legacy key.</p>
<form method="post" action="/account/keys/" novalidate>${csrf}
  <p><label class="field" for="id_name">Name</label> <input id="id_name" name="name" required maxlength="100" value="${escapeHtml(values.name)}"${invalidAttrs(errors, 'name')}>${fieldErrors(errors, 'name')}</p>
  <div role="group" aria-labelledby="scopes-label"${invalidAttrs(errors, 'scopes')}><span class="field" id="scopes-label">Scopes</span> ${scopeBoxes}${fieldErrors(errors, 'scopes')}</div>
  <p><label class="field" for="id_spend_limit_credits">Spend limit (credits)</label> <input id="id_spend_limit_credits" name="spend_limit_credits" inputmode="numeric" value="${escapeHtml(values.spendLimitCredits)}"${invalidAttrs(errors, 'spend_limit_credits')} aria-describedby="hint-limit${errors.spend_limit_credits ? ' error-spend_limit_credits' : ''}">
     <span class="hint" id="hint-limit">Optional; empty means no limit.</span>${fieldErrors(errors, 'spend_limit_credits')}</p>
  <p><label class="field" for="id_expires_in_days">Expires in (days)</label> <input id="id_expires_in_days" name="expires_in_days" inputmode="numeric" value="${escapeHtml(values.expiresInDays)}"${invalidAttrs(errors, 'expires_in_days')} aria-describedby="hint-days${errors.expires_in_days ? ' error-expires_in_days' : ''}">
     <span class="hint" id="hint-days">Optional, 1 to 3,660; empty means it never expires.</span>${fieldErrors(errors, 'expires_in_days')}</p>
  <p><button type="submit">Create key</button></p>
</form></fieldset>
<h2>Your keys</h2>
<p class="hint">Newest first; revoked and expired keys stay listed.</p>
<div class="table-scroll" role="region" tabindex="0" aria-label="Your keys"><table>
<thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Scopes</th><th scope="col" class="num">Spend limit</th><th scope="col" class="num">Spent</th><th scope="col">Expires</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col"><span class="hint">Actions</span></th></tr></thead>
<tbody>${rows || '<tr><td colspan="9">No keys yet.</td></tr>'}</tbody></table></div>
<fieldset><legend>Legacy key</legend>
<p>One key with every scope, no limit and no expiry, for older clients. Generating it again replaces the previous one.</p>
<form method="post" action="/account/keys/legacy/">${csrf}<button type="submit">Generate legacy key…</button></form></fieldset>`,
  });
}

export type KeyAction = 'rotate' | 'revoke' | 'legacy';

const CONSEQUENCES: Record<KeyAction, string> = {
  rotate: 'A new key with the same name, scopes, limit and expiry is issued and shown once; this key stops working at once.',
  revoke: 'The key stops working at once: every request that sends it is refused, and its open live subscriptions end. This cannot be undone.',
  legacy: 'A new legacy key is issued and shown once; your previous legacy key, if any, stops working at once.',
};

/** The confirmation step before rotate, revoke or a new legacy key: a page of its own, so it works without JavaScript. */
export function confirmPage(opts: { viewer: Viewer; action: KeyAction; key: KeyView | null }): string {
  const { action, key } = opts;
  const title = action === 'legacy' ? 'Generate a legacy key?' : `${action === 'rotate' ? 'Rotate' : 'Revoke'} key "${key?.name ?? ''}"?`;
  const target = action === 'legacy' ? '/account/keys/legacy/' : `/account/keys/${key!.id}/${action}/`;
  const about = key
    ? `<p>Key <code>${escapeHtml(key.prefix)}…</code>, scopes ${key.scopes.join(', ')}, ${credits(key.spentCredits)} credits spent.</p>`
    : '';
  return layout({
    title,
    section: 'keys',
    viewer: opts.viewer,
    body: `<p class="notice" role="alert">${CONSEQUENCES[action]}</p>${about}
<form method="post" action="${target}">${csrfField(opts.viewer.csrfToken)}
  <input type="hidden" name="confirm" value="yes">
  <p><button type="submit" class="danger" data-testid="confirm">Yes, ${action === 'legacy' ? 'generate it' : `${action} it`}</button> <a href="/account/keys/">Cancel</a></p>
</form>`,
  });
}
