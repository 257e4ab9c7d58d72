import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';

/** The Receipt JSON Schemas (draft 2020-12, `additionalProperties: false` throughout), as sdcreceipt 4.3.0
 * publishes them (`settlement-receipt-1.0.schema.json`, `-1.1`): 1.0 signs with ES256 only; 1.1 carries one ES256
 * and one ML-DSA-65 signature over the same digest. A verifier given another copy (`--schema`) uses that one. */

type Schema = Record<string, unknown>;

const sha256 = { type: 'string', pattern: '^[0-9a-f]{64}$' };
const keyId = { type: 'string', minLength: 1, maxLength: 256 };
const es256 = { type: 'string', pattern: '^[A-Za-z0-9_-]{86}$' };
const mldsa65 = { type: 'string', pattern: '^[A-Za-z0-9_-]{4412}$' };
const cuid2 = { type: 'string', pattern: '^[a-z][a-z0-9]{23}$' };
const timestamp = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$' };
const closed = (properties: Schema, required = Object.keys(properties)): Schema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

function receiptSchema(version: '1.0' | '1.1', signatures: Schema): Schema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...closed({
      version: { const: version },
      canonicalization: { const: 'rfc8785' },
      receipt_id: cuid2,
      timestamp,
      payload_hash: sha256,
      payload_media_type: { type: 'string', pattern: '^[a-z]+/[a-zA-Z0-9.+-]+$' },
      schema_ct_id: cuid2,
      schema_url: { type: 'string', minLength: 1 },
      schema_hash: sha256,
      rm_version: { enum: ['SDC4', 'SDC5'] },
      validation: closed({
        valid: { type: 'boolean' },
        structural_errors: { type: 'integer', minimum: 0 },
        semantic_errors: { type: 'integer', minimum: 0 },
        recovered: { type: 'boolean' },
        ev_injections: {
          type: 'array',
          items: closed({
            xpath: { type: 'string', minLength: 1 },
            ev_type: { type: 'string', minLength: 1 },
            reason: { type: 'string', minLength: 1 },
          }),
        },
        validator_version: { type: 'string', pattern: '^sdcvalidator \\d+\\.\\d+\\.\\d+$' },
      }),
      provenance_hash: sha256,
      governance: closed({
        decision: { enum: ['PERMIT', 'DENY', 'INDETERMINATE'] },
        dimensions_checked: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
        receipt_hash: sha256,
        receipt_url: { oneOf: [{ type: 'string', minLength: 1 }, { type: 'null' }] },
      }),
      settlement: closed({
        condition_hash: sha256,
        parties: { type: 'array', minItems: 2, uniqueItems: true, items: keyId },
        triggers: { type: 'array', uniqueItems: true, items: closed({ key_id: keyId, signature: es256, timestamp }) },
      }),
      previous_hash: { oneOf: [sha256, { type: 'null' }] },
      receipt_hash: sha256,
      signatures,
    }),
  };
}

const SCHEMAS: Record<string, Schema> = {
  '1.0': receiptSchema('1.0', {
    type: 'array',
    minItems: 1,
    uniqueItems: true,
    items: closed({ key_id: keyId, alg: { const: 'ES256' }, sig: es256 }),
  }),
  '1.1': receiptSchema('1.1', {
    type: 'array',
    minItems: 2,
    uniqueItems: true,
    items: {
      ...closed({ key_id: keyId, alg: { enum: ['ES256', 'ML-DSA-65'] }, sig: { type: 'string' } }),
      allOf: [
        { if: { properties: { alg: { const: 'ES256' } } }, then: { properties: { sig: es256 } } },
        { if: { properties: { alg: { const: 'ML-DSA-65' } } }, then: { properties: { sig: mldsa65 } } },
      ],
    },
    allOf: [{ contains: { properties: { alg: { const: 'ES256' } } } }, { contains: { properties: { alg: { const: 'ML-DSA-65' } } } }],
  }),
};

const RECEIPT_VERSIONS = Object.keys(SCHEMAS);

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const compiled = new WeakMap<Schema, ValidateFunction>();

/** The schema problems of `receipt` against its version's schema (`override` when given), [] when it conforms. */
export function schemaProblems(receipt: unknown, override?: Schema): string[] {
  const version = receipt && typeof receipt === 'object' ? (receipt as Record<string, unknown>).version : undefined;
  const schema = override ?? (typeof version === 'string' ? SCHEMAS[version] : undefined);
  if (!schema) return [`unsupported Receipt version ${JSON.stringify(version)}: this verifier reads ${RECEIPT_VERSIONS.join(' and ')}`];
  let validate = compiled.get(schema);
  if (!validate) {
    // A copy read twice would register its $id twice: compile it anonymously.
    const { $id: _id, ...anonymous } = schema;
    compiled.set(schema, (validate = ajv.compile(anonymous)));
  }
  if (validate(receipt)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}
