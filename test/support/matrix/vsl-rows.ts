import type { Expected } from './oracle';
import type { GraphQLScenario } from './graphql-rows';
import type { StudioScenario } from './studio-rows';

/** The settlement operations (src/vsl): settling needs `spend` (a one-party body is refused before anything is
 * charged); triggers and Receipt reads are public. */

const ONE_PARTY = 'At least two parties (key_id URIs).';
const onlyOneParty: Expected = {
  status: 400,
  body: { error: `parties: ${ONE_PARTY}`, error_type: 'invalid_request', details: { parties: [ONE_PARTY] } },
};
const noReceipt: Expected = { status: 404, body: { error: 'Receipt not found.', error_type: 'receipt_not_found' } };
const UNKNOWN_ID = 'a'.repeat(24);
const trigger = { receipt_id: UNKNOWN_ID, key_id: 'https://a.example/k.json', signature: 'A'.repeat(86), timestamp: '2026-11-27T12:00:00Z' };

export const VSL_SCENARIOS: Record<string, StudioScenario> = {
  'POST /api/v1/vsl/settle': {
    requirement: 'spend',
    body: () => ({ json: { payload: '<x/>', target_state: 'review', condition: {}, parties: ['https://a.example/k.json'] } }),
    expect: () => onlyOneParty,
  },
  'POST /api/v1/vsl/trigger': { requirement: 'public', body: () => ({ json: trigger }), expect: () => noReceipt },
  'GET /api/v1/vsl/receipt/:receipt_id': { requirement: 'public', params: () => ({ receipt_id: UNKNOWN_ID }), expect: () => noReceipt },
};

export const vslGraphqlScenarios = (asGraphQL: (expected: Expected) => Expected): Record<string, GraphQLScenario> => ({
  settle: {
    requirement: 'spend',
    args: () => ({ payload: '<x/>', targetState: 'review', condition: {}, parties: ['https://a.example/k.json'] }),
    expect: () => asGraphQL(onlyOneParty),
  },
  trigger: {
    requirement: 'public',
    args: () => ({ receiptId: trigger.receipt_id, keyId: trigger.key_id, signature: trigger.signature, timestamp: trigger.timestamp }),
    expect: () => asGraphQL(noReceipt),
  },
  receipt: { requirement: 'public', args: () => ({ receiptId: UNKNOWN_ID }), expect: () => asGraphQL(noReceipt) },
  settlementUpdated: { requirement: 'public', args: () => ({ receiptId: UNKNOWN_ID }), expect: () => asGraphQL(noReceipt) },
});
