import { generateKeyPairSync } from 'node:crypto';
import { DomainError } from '../../../src/lib/errors';
import { parseJwkSet, parseSigningKeyQuery } from '../../../src/parsers/signing.parser';

const x = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x as string;
const jwk = { kty: 'OKP', crv: 'Ed25519', x, kid: 'k1', use: 'sig', alg: 'EdDSA' };

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { status: error.status, body: { error: error.message, error_type: error.code, ...error.fields } };
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('signing key query', () => {
  it('defaults to the current key as a JWK', () => {
    expect(parseSigningKeyQuery({})).toEqual({ kid: null, format: 'jwk' });
    expect(parseSigningKeyQuery({ kid: 'k1', format: 'pem' })).toEqual({ kid: 'k1', format: 'pem' });
  });

  it('refuses an unknown format and a repeated kid with 400', () => {
    expect(refusal(() => parseSigningKeyQuery({ format: 'der' }))).toEqual({
      status: 400,
      body: { error: 'Unknown format: use "jwk" or "pem".', error_type: 'invalid_request', format: 'der' },
    });
    expect(refusal(() => parseSigningKeyQuery({ kid: ['a', 'b'] }))).toMatchObject({ status: 400, body: { error: 'kid must be one key id.' } });
  });
});

describe('JWK sets', () => {
  it('reads the Ed25519 keys of a set or a single JWK by kid, ignoring other key types', () => {
    expect([...parseJwkSet({ keys: [jwk, { kty: 'RSA', kid: 'r', n: 'x', e: 'AQAB' }] }).keys()]).toEqual(['k1']);
    expect(parseJwkSet(jwk).get('k1')!.asymmetricKeyType).toBe('ed25519');
  });

  it('refuses a set without any usable key', () => {
    expect(refusal(() => parseJwkSet({ keys: [] }))).toMatchObject({ status: 400 });
    expect(refusal(() => parseJwkSet('nonsense'))).toMatchObject({ status: 400 });
  });
});
