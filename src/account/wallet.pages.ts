import { creditsToUsd, type LedgerEntryView, type LedgerPageView, type WalletView } from '../money';
import { credits, csrfField, errorBox, escapeHtml, fieldErrors, invalidAttrs, layout, notice, when, type Viewer } from './layout';

export interface WalletPageOptions {
  viewer: Viewer;
  wallet: WalletView;
  ledger: LedgerPageView;
  /** Whether this page is the newest one of the ledger. */
  first: boolean;
  message?: string;
  error?: string;
  errors?: Record<string, string[]>;
}

const KIND_MEANING: Record<string, string> = {
  credit: 'added to the wallet',
  charge: 'charged',
  refund: 'refunded',
  hold: 'reserved for work in progress',
  capture: 'reserved credits charged',
  release: 'reserved credits released',
};

function entryRow(entry: LedgerEntryView): string {
  const sign = entry.amountCredits > 0 ? '+' : '';
  const job = entry.job
    ? `<a href="/account/jobs/${encodeURIComponent(entry.job.ctId)}/">${escapeHtml(entry.job.kind)} job ${escapeHtml(entry.job.ctId)}</a>`
    : '';
  const key = entry.key ? `key ${escapeHtml(entry.key.name ?? 'legacy')} (<code>${escapeHtml(entry.key.prefix)}…</code>)` : '';
  return `<tr data-entry-id="${entry.id}" data-kind="${entry.kind}"><td>${when(entry.created)}</td>
<td><span class="kind">${entry.kind}</span> <span class="hint">${KIND_MEANING[entry.kind] ?? ''}</span></td>
<td class="num">${sign}${credits(entry.amountCredits)}</td><td class="num">${credits(entry.balanceAfterCredits)}</td>
<td>${escapeHtml(entry.reason)}${job || key ? `<br><span class="hint">${[job, key].filter(Boolean).join(' · ')}</span>` : ''}</td></tr>`;
}

export function walletPage(opts: WalletPageOptions): string {
  const { wallet, ledger } = opts;
  const errors = opts.errors ?? {};
  const reload = wallet.autoReload;
  const rows = ledger.entries.map(entryRow).join('\n');
  const pager = `<nav class="pager" aria-label="Ledger pages">${opts.first ? '' : '<a href="/account/wallet/">Newest entries</a>'}${
    ledger.nextBefore !== null ? `<a href="/account/wallet/?before=${ledger.nextBefore}" rel="next">Older entries</a>` : ''
  }</nav>`;
  return layout({
    title: 'Wallet',
    section: 'wallet',
    viewer: opts.viewer,
    body: `${opts.error ? errorBox(opts.error) : ''}${opts.message ? notice(opts.message) : ''}
<dl class="wallet">
<dt>Balance</dt><dd data-testid="balance"><strong>${credits(wallet.balanceCredits)} credits</strong> ($${escapeHtml(wallet.balance)})</dd>
<dt>Held for work in progress</dt><dd data-testid="held">${credits(wallet.heldCredits)} credits ($${creditsToUsd(wallet.heldCredits)})</dd>
<dt>Available</dt><dd>${credits(wallet.balanceCredits - wallet.heldCredits)} credits</dd>
</dl>
<h2>Ledger</h2>
<p class="hint">Newest first. Holds reserve credits for a job or request; a capture charges them, a release returns them.</p>
<div class="table-scroll" role="region" tabindex="0" aria-label="Ledger"><table>
<thead><tr><th scope="col">When</th><th scope="col">Entry</th><th scope="col" class="num">Credits</th><th scope="col" class="num">Balance after</th><th scope="col">For</th></tr></thead>
<tbody>${rows || '<tr><td colspan="5">No entries yet.</td></tr>'}</tbody></table></div>
${pager}
<fieldset><legend>Auto-reload</legend>
${fieldErrors(errors, 'non_field_errors')}
<form method="post" action="/account/wallet/auto-reload/" novalidate>${csrfField(opts.viewer.csrfToken)}
  <p><label><input type="checkbox" name="enabled" value="true"${reload.enabled ? ' checked' : ''}> Reload automatically</label>${fieldErrors(errors, 'enabled')}</p>
  <p><label class="field" for="id_threshold_credits">When the balance falls below (credits)</label> <input id="id_threshold_credits" name="threshold_credits" inputmode="numeric" value="${reload.thresholdCredits}"${invalidAttrs(errors, 'threshold_credits')}>${fieldErrors(errors, 'threshold_credits')}</p>
  <p><label class="field" for="id_amount_credits">Add (credits)</label> <input id="id_amount_credits" name="amount_credits" inputmode="numeric" value="${reload.amountCredits}"${invalidAttrs(errors, 'amount_credits')}>${fieldErrors(errors, 'amount_credits')}</p>
  <p><button type="submit">Save auto-reload</button></p>
</form></fieldset>`,
  });
}
