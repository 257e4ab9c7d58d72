import { parseSigningKeyQuery } from '../../parsers/signing.parser';
import { renderJwk, renderPem } from '../../presenters/signing.presenter';
import { keyDocumentSchema, renderKeyDocument } from '../../vsl';
import { route } from '../route-table';
import { jwkSchema } from '../../presenters/signing.schema';
import { str } from '../../lib/json-schema';

/** Public keys change only on rotation; a short cache keeps verifiers from asking on every instance. */
const CACHE = { 'Cache-Control': 'public, max-age=300' };

/** The studio's public signing keys, for anyone verifying a signed instance or a settlement Receipt: no
 * credentials needed. One document serves both (vsl.md §3). */
export const signingRoutes = [
  route({
    method: 'get',
    path: '/.well-known/sdcstudio-signing-keys.json',
    requirement: 'public',
    doc: {
      summary: "The studio's public signing keys (JWK set and sdcreceipt key document)",
      tag: 'Signing',
      responses: {
        200: {
          description:
            'Every signing key, current and retired: the Ed25519 JWKs of XML signatures, then the P-256 keys of settlement Receipts (key_id, alg ES256, public_key_pem, status, not_before, not_after, and their EC JWK fields).',
          schema: keyDocumentSchema,
        },
      },
    },
    handle: async ({ services }) => {
      const [xmlKeys, receiptKeys] = await Promise.all([services.signing.keys(), services.vsl.issuerKeys()]);
      return { status: 200, body: renderKeyDocument(new URL(services.links.base).host, xmlKeys, receiptKeys), headers: CACHE };
    },
  }),
  route({
    method: 'get',
    path: '/.well-known/sdc-signing-key',
    requirement: 'public',
    doc: {
      summary: 'One public signing key (PEM, or JWK with format=jwk)',
      tag: 'Signing',
      query: { kid: str(), format: str() },
      responses: { 200: { description: 'The key.', schema: jwkSchema, alternatives: { 'application/x-pem-file': {} } } },
    },
    handle: async (ctx) => {
      const query = parseSigningKeyQuery(ctx.query);
      const key = query.kid === null ? await ctx.services.signing.currentKey() : await ctx.services.signing.key(query.kid);
      if (query.format === 'jwk') return { status: 200, body: renderJwk(key), headers: CACHE };
      return { status: 200, raw: renderPem(key), headers: { ...CACHE, 'Content-Type': 'application/x-pem-file' } };
    },
  }),
];
