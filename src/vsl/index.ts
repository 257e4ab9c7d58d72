/** The Verifiable Settlement Layer (vsl.md): governance, signed Receipts, party triggers and the offline verifier.
 * The only door into src/vsl. */
export { canonicalJson } from './jcs';
export { verifyReceipt, type Check, type Verdict, type VerifyOptions } from './verify';
export { decide as decideGovernance, instanceGovernance, modelWorkflow } from './governance';
