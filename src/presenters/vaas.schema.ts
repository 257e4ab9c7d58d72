import { arr, bool, dateTime, int, nullable, obj, str, strEnum } from '../lib/json-schema';

const signatureSchema = obj({ algorithm: str(), issuer: str(), timestamp: str(), schema_ct_id: str(), ev_count: int(), key_id: str() });

/** renderVaas's body: validate, and with the sign fields for /validate/sign/; package fields with package=true. */
export const vaasSchema = obj(
  {
    valid: bool,
    mode: strEnum('strict', 'recover', 'report'),
    schema: obj({ ct_id: str(), title: str() }),
    structural_errors: int(),
    semantic_errors: int(),
    recovered: bool,
    recovered_xml: str(),
    errors: arr(obj({ line: nullable(int()), message: str() })),
    corrections: arr(obj({ line: nullable(int()), ev: str(), element: str(), original: str() })),
    signed: bool,
    signed_xml: nullable(str()),
    signature: nullable(signatureSchema),
    verification: nullable(obj({ public_key_url: str(), verify_command: str() })),
    package_url: str(),
    package_expires_at: dateTime,
    charged_credits: int(),
  },
  ['recovered_xml', 'signed', 'signed_xml', 'signature', 'verification', 'package_url', 'package_expires_at'],
);
