import {
  parseReceiptId,
  parseSettleBody,
  parseTriggerBody,
  receiptStatusSchema,
  renderReceiptStatus,
  renderSettle,
  renderTrigger,
  settleHeaders,
  settleSchema,
  triggerSchema,
} from '../../vsl';
import { anyJson } from '../../lib/json-schema';
import { route } from '../route-table';

/** The Verifiable Settlement Layer (vsl.md §1): the clients build these paths without a trailing slash (Express
 * answers the slashed form too). Settling charges one credit per Receipt (`spend`, Idempotency-Key honoured);
 * triggers and reads are public: a trigger is authorised by its signature, a Receipt holds only hashes. */
const TAG = 'Settlement (VSL)';

export const vslRoutes = [
  route({
    method: 'post',
    path: '/api/v1/vsl/settle',
    requirement: 'spend',
    idempotent: true,
    charges: 'settlement',
    doc: {
      summary: 'Settle: validate, decide the workflow transition, issue a signed Receipt (one credit, PERMIT or DENY)',
      tag: TAG,
      requestBody: { contentType: 'application/json', schema: anyJson, required: true },
      responses: { 200: { description: 'The Receipt, the governance verdict, how to verify, and the charge.', schema: settleSchema } },
    },
    handle: async ({ services, caller, body }) => {
      const view = await services.vsl.settle(caller, parseSettleBody(body));
      return { status: 200, headers: settleHeaders(view), body: renderSettle(view) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/vsl/trigger',
    requirement: 'public',
    doc: {
      summary: "A party's trigger: its ES256 signature over {condition_hash, receipt_id}",
      tag: TAG,
      requestBody: { contentType: 'application/json', schema: anyJson, required: true },
      responses: { 200: { description: 'The trigger was verified and recorded.', schema: triggerSchema } },
    },
    handle: async ({ services, body }) => ({ status: 200, body: renderTrigger(await services.vsl.trigger(parseTriggerBody(body))) }),
  }),
  route({
    method: 'get',
    path: '/api/v1/vsl/receipt/:receipt_id',
    requirement: 'public',
    doc: {
      summary: 'A Receipt with its triggers and settlement status',
      tag: TAG,
      responses: { 200: { description: 'The Receipt and who has triggered.', schema: receiptStatusSchema } },
    },
    handle: async ({ services, params }) => ({
      status: 200,
      body: renderReceiptStatus(await services.vsl.receipt(parseReceiptId(params.receipt_id))),
    }),
  }),
];
