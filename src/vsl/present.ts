import { chargeHeaders, creditsToUsd } from '../money';
import { renderJwk, type SigningKeyView } from '../presenters/signing.presenter';
import type { Static } from '../lib/json-schema';
import { DENY_HINT } from './errors';
import type { settleSchema } from './wire.schema';
import type { IssuerKeyView } from './issuer-keys';
import type { ReceiptStatusView, SettleView, TriggerView } from './service';

/** Settlement views in the clients' wire shapes (vsl.md §1.1, §1.2, §3). */

export function renderSettle(view: SettleView): Static<typeof settleSchema> {
  const g = view.governance;
  return {
    receipt: view.receipt,
    governance: {
      decision: g.decision,
      settleable: g.settleable,
      ...(g.decision === 'DENY' ? { current_state: g.currentState, allowed_transitions: g.allowed, workflow: g.workflow, hint: DENY_HINT } : {}),
      decision_receipt: g.decisionRecord,
    },
    verification: {
      tool: 'pip install sdcreceipt',
      command: 'sdcreceipt verify receipt.json --keys keys.json',
      keys_url: view.keysUrl,
      schema_url: view.schemaUrl,
      schema_resolver_url: `${view.schemaUrl}?sha256=${view.receipt.schema_hash}`,
    },
    wallet: {
      charged: creditsToUsd(view.chargedCredits),
      balance: creditsToUsd(view.balanceCredits),
      charged_credits: view.chargedCredits,
      balance_credits: view.balanceCredits,
    },
  };
}

export const settleHeaders = (view: SettleView) => chargeHeaders(view.chargedCredits, view.balanceCredits);

export function renderReceiptStatus(view: ReceiptStatusView) {
  return {
    receipt: view.receipt,
    receipt_id: view.receipt.receipt_id,
    status: view.status,
    decision: view.decision,
    settleable: view.decision === 'PERMIT',
    parties: view.parties,
    triggered: view.triggered,
    awaiting: view.awaiting,
  };
}

export function renderTrigger(view: TriggerView) {
  return {
    accepted: true,
    receipt_id: view.receipt.receipt_id,
    key_id: view.keyId,
    status: view.status,
    triggered: view.triggered,
    awaiting: view.awaiting,
  };
}

/** One issuer key in sdcreceipt's form plus its EC JWK fields, so a JWK-set reader sees a valid P-256 JWK and the
 * Ed25519 readers (`vaas verify`) skip it. */
export function renderIssuerKey(key: IssuerKeyView) {
  return {
    key_id: key.keyId,
    algorithm: 'EC_SIGN_P256_SHA256',
    alg: 'ES256',
    public_key_pem: key.publicKeyPem,
    status: key.status,
    not_before: key.notBefore.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    not_after: key.notAfter ? key.notAfter.toISOString().replace(/\.\d{3}Z$/, 'Z') : null,
    kty: 'EC',
    crv: 'P-256',
    x: key.x,
    y: key.y,
    kid: key.keyId,
    use: 'sig',
    created_at: key.notBefore.toISOString(),
    retired_at: key.notAfter?.toISOString() ?? null,
  };
}

/** The one key document at /.well-known/sdcstudio-signing-keys.json: the XML-signature Ed25519 JWKs unchanged and
 * first, then the settlement issuer's P-256 keys (every key ever used, so old Receipts keep verifying). */
export function renderKeyDocument(issuer: string, xmlKeys: SigningKeyView[], receiptKeys: IssuerKeyView[]) {
  return { issuer, keys: [...xmlKeys.map(renderJwk), ...receiptKeys.map(renderIssuerKey)] };
}
