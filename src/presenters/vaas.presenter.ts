import { chargeHeaders } from '../money';
import type { EvCorrection } from '../xml/ev';
import type { XmlError } from '../xml/xml-errors';
import { renderSignature, type SignatureView } from './signing.presenter';
import type { Static } from '../lib/json-schema';
import type { vaasSchema } from './vaas.schema';

/** Validation as a service as it leaves the process: camelCase views, rendered once to the wire shape that
 * `../shared/spec/clients.md` lists for `POST /api/v1/vaas/validate/` and `/validate/sign/`. */

export interface VaasVerificationView {
  publicKeyUrl: string;
  verifyCommand: string;
}

export interface VaasSignView {
  signed: boolean;
  signedXml: string | null;
  signature: SignatureView | null;
  verification: VaasVerificationView | null;
}

export interface VaasView {
  valid: boolean;
  mode: 'strict' | 'recover';
  schema: { ctId: string; title: string };
  structuralErrors: number;
  semanticErrors: number;
  recovered: boolean;
  recoveredXml: string | null;
  errors: XmlError[];
  corrections: EvCorrection[];
  /** Present on a sign request. */
  sign: VaasSignView | null;
  packageUrl: string | null;
  /** ISO 8601. */
  packageExpiresAt: string | null;
  chargedCredits: number;
  balanceRemainingCredits: number;
}

export function renderVaas(view: VaasView): Static<typeof vaasSchema> {
  return {
    valid: view.valid,
    mode: view.mode,
    schema: { ct_id: view.schema.ctId, title: view.schema.title },
    structural_errors: view.structuralErrors,
    semantic_errors: view.semanticErrors,
    recovered: view.recovered,
    ...(view.recoveredXml !== null ? { recovered_xml: view.recoveredXml } : {}),
    errors: view.errors.map((e) => ({ line: e.line, message: e.message })),
    corrections: view.corrections.map((c) => ({ line: c.line, ev: c.ev, element: c.element, original: c.original })),
    ...(view.sign
      ? {
          signed: view.sign.signed,
          signed_xml: view.sign.signedXml,
          signature: view.sign.signature ? renderSignature(view.sign.signature) : null,
          verification: view.sign.verification
            ? { public_key_url: view.sign.verification.publicKeyUrl, verify_command: view.sign.verification.verifyCommand }
            : null,
        }
      : {}),
    ...(view.packageUrl && view.packageExpiresAt ? { package_url: view.packageUrl, package_expires_at: view.packageExpiresAt } : {}),
    charged_credits: view.chargedCredits,
  };
}

/** X-SDC headers (what was charged, what is left) and X-Package-Url. */
export function vaasHeaders(view: VaasView): Record<string, string> {
  return { ...chargeHeaders(view.chargedCredits, view.balanceRemainingCredits), ...(view.packageUrl ? { 'X-Package-Url': view.packageUrl } : {}) };
}
