import { DomainError } from '../lib/errors';
import type { AllowedTransition, WorkflowPath } from './governance';

/** The settlement refusals (vsl.md §1.2, §4.3): each a stable code and status, in the contract's `{error}` body. */

export const workflowBody = (paths: readonly WorkflowPath[]) => paths.map((p) => ({ path: p.path, states: p.states.map((s) => s.symbol) }));

const REFUSAL_HINT =
  'No Receipt was issued and nothing was charged. `allowed_transitions` lists what leaves `current_state`; `workflow` lists every path and its states, in order.';
export const DENY_HINT =
  'Governance refused this transition. The Receipt records the refusal and accepts no triggers. `allowed_transitions` lists what leaves `current_state`; `workflow` lists every path and its states, in order.';

/** 422, no Receipt, no charge: an unreadable or invalid payload, no workflow, or a state outside it. */
export function settlementRefused(
  message: string,
  governance: { currentState: string | null; allowed: AllowedTransition[]; paths: readonly WorkflowPath[]; modelDefinesStates: boolean },
  extra: Record<string, unknown> = {},
  cause?: unknown,
): DomainError {
  return new DomainError(
    422,
    'settlement_refused',
    message,
    {
      current_state: governance.currentState,
      allowed_transitions: governance.allowed,
      workflow: workflowBody(governance.paths),
      hint: governance.modelDefinesStates
        ? `${REFUSAL_HINT} Send a target_state from allowed_transitions.`
        : `${REFUSAL_HINT} The model constrains no workflow states: fixing the state will not help; settle against a model that defines its workflow.`,
      model_defines_workflow_states: governance.modelDefinesStates,
      ...extra,
    },
    cause === undefined ? undefined : { cause },
  );
}

export const receiptNotFound = (what = 'Receipt') => new DomainError(404, 'receipt_not_found', `${what} not found.`);
export const notAParty = (keyId: string) => new DomainError(403, 'not_a_party', `${keyId} is not a party to this Receipt.`);
export const alreadyTriggered = (keyId: string) =>
  new DomainError(409, 'already_triggered', `${keyId} has already triggered this Receipt; a party triggers once.`);
export const receiptDenied = (decision: string) =>
  new DomainError(409, 'receipt_not_settleable', `This Receipt records a ${decision}: it accepts no triggers.`, { decision });
export const triggerRefused = (code: string, message: string) => new DomainError(422, code, message);
