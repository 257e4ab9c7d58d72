import { anyJson, arr, bool, dict, int, nullable, num, obj, str, strEnum } from '../lib/json-schema';
import { jwkSchema } from '../presenters/signing.schema';

/** The settlement bodies (src/presenters/vsl.presenter.ts), for the OpenAPI document. */

const receiptSchema = obj({
  version: str(),
  canonicalization: str(),
  receipt_id: str(),
  timestamp: str(),
  payload_hash: str(),
  schema_ct_id: str(),
  governance: dict(anyJson),
  settlement: obj({ condition_hash: str(), parties: arr(str()), triggers: arr(obj({ key_id: str(), signature: str(), timestamp: str() })) }),
  previous_hash: nullable(str()),
  receipt_hash: str(),
  signatures: arr(obj({ key_id: str(), alg: str(), sig: str() })),
});

const transition = obj({
  target_symbol: str(),
  target_state: str(),
  target_label: str(),
  target_ordinal: num(),
  target_component_id: str(),
  paths: arr(str()),
});
const workflow = arr(obj({ path: str(), states: arr(str()) }));

export const settleSchema = obj({
  receipt: receiptSchema,
  governance: obj(
    {
      decision: strEnum('PERMIT', 'DENY'),
      settleable: bool,
      current_state: str(),
      allowed_transitions: arr(transition),
      workflow,
      hint: str(),
      decision_receipt: dict(anyJson),
    },
    ['current_state', 'allowed_transitions', 'workflow', 'hint'],
  ),
  verification: dict(str()),
  wallet: obj({ charged: str(), balance: str(), charged_credits: int(), balance_credits: int() }),
});

const statusFields = { status: strEnum('settled', 'awaiting_triggers', 'denied'), triggered: arr(str()), awaiting: arr(str()) };

export const receiptStatusSchema = obj({
  receipt: receiptSchema,
  receipt_id: str(),
  decision: strEnum('PERMIT', 'DENY'),
  settleable: bool,
  parties: arr(str()),
  ...statusFields,
});

export const triggerSchema = obj({ accepted: bool, receipt_id: str(), key_id: str(), ...statusFields });

/** The merged key document: Ed25519 JWKs and P-256 issuer keys (sdcreceipt's fields plus the EC JWK ones). */
export const keyDocumentSchema = obj({ issuer: str(), keys: arr(jwkSchema) });
