import { readFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalJson, verifyReceipt, type Verdict } from '../../../src/vsl';
import { FIXTURES } from '../xml/fixtures';

const VSL = path.join(FIXTURES, 'vsl');
const KIT = path.join(VSL, 'sdcreceipt/conformance');
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

interface Vector {
  name: string;
  file: string;
  expect: 'valid' | 'invalid';
  breaks?: string;
  withhold?: string[];
}

const manifest = json(path.join(KIT, 'manifest.json')) as unknown as { vectors: Vector[] };
const kitKeys = json(path.join(KIT, 'keys.json')) as { issuer_keys: Record<string, string>; party_keys: Record<string, string> };
const issuerDocument = {
  issuer: 'conformance kit',
  keys: Object.entries(kitKeys.issuer_keys).map(([key_id, public_key_pem]) => ({ key_id, public_key_pem, status: 'active' })),
};
const partyDocuments = Object.entries(kitKeys.party_keys).map(([key_id, public_key_pem]) => ({ issuer: key_id, keys: [{ key_id, public_key_pem }] }));
const payload = readFileSync(path.join(KIT, 'payload.xml'));
const governance = json(path.join(KIT, 'governance-receipt.json'));
const schemas: Record<string, Record<string, unknown>> = {
  '1.0': json(path.join(KIT, 'settlement-receipt-1.0.schema.json')),
  '1.1': json(path.join(KIT, 'settlement-receipt-1.1.schema.json')),
};

const statusOf = (verdict: Verdict, name: string) => verdict.checks.find((c) => c.name === name)?.status;
const failed = (verdict: Verdict) => verdict.checks.filter((c) => c.status !== 'pass').map((c) => c.name);

function run(vector: Vector, schema: 'kit' | 'built-in' | false) {
  const receipt = json(path.join(KIT, vector.file));
  const keys = vector.withhold?.includes('party_keys') ? [issuerDocument] : [issuerDocument, ...partyDocuments];
  const override = schema === 'kit' ? schemas[String(receipt.version)] : schema === false ? false : undefined;
  return verifyReceipt(receipt, { keys, payload, governance, schema: override });
}

describe("the offline verifier on sdcreceipt 4.3.0's conformance kit", () => {
  it('reads all 16 vectors of the manifest', () => {
    expect(manifest.vectors).toHaveLength(16);
  });

  for (const vector of manifest.vectors) {
    for (const schema of ['kit', 'built-in'] as const) {
      it(`${vector.name} is ${vector.expect}${vector.breaks ? ` on ${vector.breaks}` : ''} (${schema} schema)`, async () => {
        const verdict = await run(vector, schema);
        if (vector.expect === 'valid') {
          expect(failed(verdict)).toEqual([]);
          expect(verdict.verified).toBe(true);
          return;
        }
        expect(verdict.verified).toBe(false);
        expect(statusOf(verdict, vector.breaks!)).toBe(vector.breaks === 'settlement.complete' ? 'unestablished' : 'fail');
      });
    }
  }

  // What the kit says an implementation that skips the schema must still catch, and where.
  const withoutSchema: Record<string, string> = {
    'signature-der-not-p1363': 'signature[sdcstudio-signing-key-v1]',
    'missing-canonicalization-field': 'receipt_hash',
    'unsupported-alg': 'signatures.algorithms',
    'missing-mldsa-signature-1.1': 'signatures.algorithms',
    'mldsa-signature-wrong-length-1.1': 'signature[sdcstudio-pq-signing-key-v1]',
  };
  for (const [name, check] of Object.entries(withoutSchema)) {
    it(`${name} still fails on ${check} without the schema`, async () => {
      const verdict = await run(
        manifest.vectors.find((v) => v.name === name)!,
        false,
      );
      expect(verdict.verified).toBe(false);
      expect(statusOf(verdict, check)).toBe('fail');
    });
  }

  it('says why a DER signature fails: its length, not a bad curve point', async () => {
    const verdict = await run(
      manifest.vectors.find((v) => v.name === 'signature-der-not-p1363')!,
      false,
    );
    expect(verdict.checks.find((c) => c.name === 'signature[sdcstudio-signing-key-v1]')?.detail).toMatch(/exactly 86 .* this one has 95/);
  });
});

describe("the offline verifier on HalvorsenDemo's live Receipts", () => {
  const demo = path.join(VSL, 'halvorsendemo');
  const keys = [
    json(path.join(demo, 'issuer-keys.json')),
    json(path.join(demo, 'keys/halvorsen-key.json')),
    json(path.join(demo, 'keys/kestrel-key.json')),
  ];

  it('VERIFIES the live PERMIT Receipt after both triggers', async () => {
    const verdict = await verifyReceipt(json(path.join(demo, 'receipts/oivyshun6fmpxre5ow6o7ery.json')), { keys });
    expect(failed(verdict)).toEqual([]);
  });

  it('passes the live DENY on hash and signature and fails it only on settlement.complete', async () => {
    const verdict = await verifyReceipt(json(path.join(demo, 'receipts/bcwiqmil3bmwlgirxyrfuzt0.json')), { keys });
    expect(failed(verdict)).toEqual(['settlement.complete']);
  });
});

describe('RFC 8785 canonicalisation', () => {
  const file = json(path.join(VSL, 'sdcgovernance/test-vectors/rfc8785-canonicalization.json')) as {
    vectors: Array<{ description: string; input: unknown; output: string }>;
  };
  it('has the 21 vectors', () => expect(file.vectors).toHaveLength(21));
  for (const vector of file.vectors) {
    it(`${vector.description}: byte for byte`, async () => {
      expect(Buffer.from(await canonicalJson(vector.input), 'utf8').equals(Buffer.from(vector.output, 'utf8'))).toBe(true);
    });
  }
});
