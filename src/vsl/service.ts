import { EventEmitter } from 'node:events';
import { verify as verifySignature } from 'node:crypto';
import type { DataSource } from 'typeorm';
import * as q from '../db/queries/vsl.sql';
import { query, queryOne } from '../db/sql';
import { transactionRetried } from '../db/transaction';
import { DomainError } from '../lib/errors';
import { replayOr } from '../money';
import { newId } from '../lib/ids';
import type { Links } from '../lib/links';
import type { Caller } from '../services/auth.service';
import type { Clock } from '../services/clock';
import { alreadyTriggered, notAParty, receiptDenied, receiptNotFound, settlementRefused, triggerRefused, workflowBody } from './errors';
import { decide, instanceGovernance, modelWorkflow, type AllowedTransition, type WorkflowPath } from './governance';
import type { IssuerKeys, IssuerKeyView } from './issuer-keys';
import { canonicalHash, sha256Hex } from './jcs';
import { KeyDocumentError, parseKeyDocument, partyKey } from './key-document';
import { fetchKeyDocument, keyDocumentUrl, PartyKeyError, type PartyKeyFetchSettings } from './party-keys';
import type { PayloadValidation, VslPorts } from './ports';
import { decodeSignature, governanceReceiptHash, receiptDigest, triggerMessage, type Receipt, type UnsignedReceipt } from './receipt';

export interface SettleInput {
  payload: string;
  currentState: string | null;
  targetState: string;
  condition: Record<string, unknown>;
  parties: string[];
  previousReceiptId: string | null;
}

export interface TriggerInput {
  receiptId: string;
  keyId: string;
  signature: string;
  timestamp: string;
}

interface SettlementGovernanceView {
  decision: 'PERMIT' | 'DENY';
  settleable: boolean;
  currentState: string;
  targetState: string;
  allowed: AllowedTransition[];
  workflow: Array<{ path: string; states: string[] }>;
  /** The sdcgovernance-shaped decision record whose receipt_hash the Receipt binds (`verify --governance`). */
  decisionRecord: Record<string, unknown>;
}

export interface SettleView {
  receipt: Receipt;
  governance: SettlementGovernanceView;
  chargedCredits: number;
  balanceCredits: number;
  keysUrl: string;
  schemaUrl: string;
}

type SettlementStatus = 'settled' | 'awaiting_triggers' | 'denied';

export interface ReceiptStatusView {
  receipt: Receipt;
  status: SettlementStatus;
  decision: 'PERMIT' | 'DENY';
  parties: string[];
  triggered: string[];
  awaiting: string[];
}

export interface TriggerView extends ReceiptStatusView {
  keyId: string;
}

/** The validator named in `validation.validator_version` (the Receipt schema fixes the `sdcvalidator X.Y.Z` form). */
const VALIDATOR_VERSION = 'sdcvalidator 0.1.0';
const DIMENSIONS = ['workflow'];
const MAX_CACHED_WORKFLOWS = 64;

/** The status as it stood once the first `count` recorded triggers had landed. */
function statusAfter(view: ReceiptStatusView, count: number): ReceiptStatusView {
  const triggered = view.triggered.slice(0, count);
  const awaiting = view.parties.filter((p) => !triggered.includes(p));
  const receipt = { ...view.receipt, settlement: { ...view.receipt.settlement, triggers: view.receipt.settlement.triggers.slice(0, count) } };
  return { ...view, receipt, triggered, awaiting, status: awaiting.length === 0 ? 'settled' : 'awaiting_triggers' };
}

const secondsTimestamp = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Settlement (vsl.md): validate the payload against its model, decide the workflow transition, issue a signed
 * Receipt (format 1.0, ES256, hash commitments only; the condition is hashed and dropped) and charge it in one
 * transaction; accept one verified trigger per party of a PERMIT Receipt; report its status.
 */
export class VslService {
  /** `update` events, one per accepted trigger, for subscribers in this process. */
  readonly updates = new EventEmitter();
  private readonly workflows = new Map<string, WorkflowPath[]>();

  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly links: Links,
    private readonly ports: VslPorts,
    readonly keys: IssuerKeys,
    private readonly partyKeys: PartyKeyFetchSettings,
    private readonly receiptCredits: number,
  ) {
    this.updates.setMaxListeners(0);
  }

  /** A retry with the Idempotency-Key of a settle that committed answers its recorded view; nothing runs again. */
  settle(caller: Caller, input: SettleInput): Promise<SettleView> {
    return replayOr(() => this.issue(caller, input));
  }

  private async issue(caller: Caller, input: SettleInput): Promise<SettleView> {
    const payloadHash = sha256Hex(input.payload);
    let instance: ReturnType<typeof instanceGovernance>;
    try {
      instance = instanceGovernance(input.payload);
    } catch (error) {
      throw settlementRefused(
        `The payload is not readable XML: ${(error as Error).message}`,
        { currentState: input.currentState, allowed: [], paths: [], modelDefinesStates: false },
        {},
        error,
      );
    }
    const currentState = instance.currentState ?? input.currentState;
    const validation = await this.validated(caller, input.payload, currentState);
    const modelPaths = this.workflowOf(validation);
    const outcome = decide(modelPaths, { currentState, paths: instance.paths }, input.targetState);
    if (outcome.kind === 'refused') throw settlementRefused(outcome.reason, outcome);
    const previousHash = input.previousReceiptId ? await this.previousHash(input.previousReceiptId) : null;

    const receiptId = newId();
    const timestamp = secondsTimestamp(this.clock.now());
    const decisionRecord = {
      decision: outcome.decision,
      reasoning:
        outcome.decision === 'PERMIT'
          ? `workflow transition ${outcome.currentState} -> ${outcome.targetState} permitted`
          : `workflow transition ${outcome.currentState} -> ${outcome.targetState} denied: not the next state of any path`,
      status_code: 'urn:oasis:names:tc:xacml:1.0:status:ok',
      obligations: [],
      instance_id: payloadHash,
      instance_version: '1',
      source_instance_id: '',
      source_version_id: '',
      timestamp,
      previous_hash: null,
      dimensions_checked: DIMENSIONS,
      errors: [],
      context_hash: '',
      canonicalization: 'rfc8785',
    };
    const governanceHash = await governanceReceiptHash(decisionRecord);
    const unsigned: UnsignedReceipt = {
      version: '1.0',
      canonicalization: 'rfc8785',
      receipt_id: receiptId,
      timestamp,
      payload_hash: payloadHash,
      payload_media_type: 'application/xml',
      schema_ct_id: validation.dmCtId,
      schema_url: validation.schemaUrl,
      schema_hash: validation.schemaSha256,
      rm_version: 'SDC4',
      validation: {
        valid: true,
        structural_errors: validation.structuralErrors,
        semantic_errors: validation.semanticErrors,
        recovered: false,
        ev_injections: [],
        validator_version: VALIDATOR_VERSION,
      },
      // What produced the Receipt, in order: the payload, the schema it validated against, the validator, the verdict.
      provenance_hash: await canonicalHash({
        payload_hash: payloadHash,
        schema_hash: validation.schemaSha256,
        validator_version: VALIDATOR_VERSION,
        governance_receipt_hash: governanceHash,
      }),
      governance: { decision: outcome.decision, dimensions_checked: DIMENSIONS, receipt_hash: governanceHash, receipt_url: null },
      settlement: { condition_hash: await canonicalHash(input.condition), parties: input.parties, triggers: [] },
      previous_hash: previousHash,
    };
    const digest = await receiptDigest(unsigned);
    const receipt: Receipt = { ...unsigned, receipt_hash: digest.hash, signatures: [await this.keys.sign(digest.bytes)] };
    const governance: SettlementGovernanceView = {
      decision: outcome.decision,
      settleable: outcome.decision === 'PERMIT',
      currentState: outcome.currentState,
      targetState: outcome.targetState,
      allowed: outcome.allowed,
      workflow: workflowBody(outcome.paths),
      decisionRecord: { ...decisionRecord, receipt_hash: governanceHash },
    };
    return transactionRetried(this.db, async (tx) => {
      const reason = `vsl receipt ${receiptId} (${outcome.decision})`;
      return this.ports.charge(tx, caller, this.receiptCredits, reason, receiptId, async (charge) => {
        await query(
          tx,
          q.insertReceipt({
            receiptId,
            userId: caller.user.id,
            apiKeyId: caller.key?.id ?? null,
            decision: outcome.decision,
            receiptHash: receipt.receipt_hash,
            receiptJson: JSON.stringify(receipt),
            governanceJson: JSON.stringify(governance),
            ledgerEntryId: charge.ledgerEntryId,
            createdAt: this.clock.now(),
          }),
        );
        return {
          receipt,
          governance,
          chargedCredits: this.receiptCredits,
          balanceCredits: charge.balanceCredits,
          keysUrl: this.keysUrl(),
          schemaUrl: validation.schemaUrl,
        };
      });
    });
  }

  async trigger(input: TriggerInput): Promise<TriggerView> {
    const row = await this.row(input.receiptId);
    const receipt = JSON.parse(row.receipt_json) as Receipt;
    if (row.decision !== 'PERMIT') throw receiptDenied(row.decision);
    if (!receipt.settlement.parties.includes(input.keyId)) throw notAParty(input.keyId);
    const recorded = await query(this.db, q.triggersOf(input.receiptId));
    if (recorded.some((t) => t.key_id === input.keyId)) throw alreadyTriggered(input.keyId);

    let document: { text: string; json: unknown };
    try {
      document = await fetchKeyDocument(keyDocumentUrl(input.keyId), this.partyKeys);
    } catch (error) {
      if (!(error instanceof PartyKeyError)) throw error;
      throw triggerRefused('party_key_unresolvable', `The key document of ${input.keyId} cannot be resolved: ${error.message}.`);
    }
    let key;
    try {
      const parsed = parseKeyDocument(document.json);
      key = partyKey([{ ...parsed, issuer: parsed.issuer ?? input.keyId }], input.keyId) ?? (parsed.keys.length === 1 ? parsed.keys[0] : null);
    } catch (error) {
      if (!(error instanceof KeyDocumentError)) throw error;
      throw triggerRefused('party_key_unusable', `The key document of ${input.keyId} is unusable: ${error.message}.`);
    }
    if (!key) throw triggerRefused('party_key_unresolvable', `The key document of ${input.keyId} holds no key for it.`);
    if (!key.ec) throw triggerRefused('party_key_unusable', `The key of ${input.keyId} is ${key.alg}; a trigger is ES256 (ECDSA P-256).`);
    const sig = decodeSignature(input.signature, 'ES256');
    if (typeof sig === 'string')
      throw triggerRefused('signature_encoding', `The trigger signature is refused: ${sig}. DER-encoded ECDSA signatures are not ES256.`);
    const message = await triggerMessage(receipt.settlement.condition_hash, receipt.receipt_id);
    if (!verifySignature('sha256', message, { key: key.ec, dsaEncoding: 'ieee-p1363' }, sig)) {
      throw triggerRefused(
        'signature_invalid',
        `The signature does not verify with ${input.keyId}'s key over {condition_hash, receipt_id} of this Receipt (a trigger signed for another Receipt is refused).`,
      );
    }
    const inserted = await query(
      this.db,
      q.insertTrigger({
        receiptId: input.receiptId,
        keyId: input.keyId,
        signature: input.signature,
        signedAt: input.timestamp,
        keyDocument: document.text,
        createdAt: this.clock.now(),
      }),
    );
    if (inserted.length === 0) throw alreadyTriggered(input.keyId);
    const view = await this.receipt(input.receiptId);
    this.updates.emit('update', view);
    return { ...view, keyId: input.keyId };
  }

  async receipt(receiptId: string): Promise<ReceiptStatusView> {
    const row = await this.row(receiptId);
    const receipt = JSON.parse(row.receipt_json) as Receipt;
    const triggers = await query(this.db, q.triggersOf(receiptId));
    receipt.settlement.triggers = triggers.map((t) => ({ key_id: t.key_id, signature: t.signature, timestamp: t.signed_at }));
    const parties = receipt.settlement.parties;
    const triggered = triggers.map((t) => t.key_id);
    const awaiting = parties.filter((p) => !triggered.includes(p));
    const status: SettlementStatus = row.decision !== 'PERMIT' ? 'denied' : awaiting.length === 0 ? 'settled' : 'awaiting_triggers';
    return { receipt, status, decision: row.decision, parties, triggered, awaiting };
  }

  /**
   * The Receipt's status now, then again after each trigger, until the settlement completes (or at once for a
   * DENY). A trigger accepted by this process wakes it at once; one accepted by another node is seen within
   * `pollMs` (the database is the only shared state).
   */
  async *watch(receiptId: string, pollMs = 1000): AsyncGenerator<ReceiptStatusView> {
    let last = await this.receipt(receiptId);
    yield last;
    while (last.status === 'awaiting_triggers') {
      await this.nextUpdate(receiptId, pollMs);
      const now = await this.receipt(receiptId);
      // One report per trigger, in the order they were recorded, even when several landed since the last look.
      for (let count = last.triggered.length + 1; count <= now.triggered.length; count++) yield statusAfter(now, count);
      last = now;
    }
  }

  private nextUpdate(receiptId: string, pollMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.updates.off('update', onUpdate);
        resolve();
      };
      const onUpdate = (view: ReceiptStatusView) => {
        if (view.receipt.receipt_id === receiptId) done();
      };
      const timer = setTimeout(done, pollMs);
      this.updates.on('update', onUpdate);
    });
  }

  /** The issuer keys, for the key document (every key ever used stays published). */
  issuerKeys(): Promise<IssuerKeyView[]> {
    return this.keys.all();
  }

  keysUrl(): string {
    return `${this.links.base}/.well-known/sdcstudio-signing-keys.json`;
  }

  private async validated(caller: Caller, payload: string, currentState: string | null): Promise<PayloadValidation> {
    const unknown = { currentState, allowed: [], paths: [] as WorkflowPath[], modelDefinesStates: false };
    let validation: PayloadValidation;
    try {
      validation = await this.ports.validate(caller, payload);
    } catch (error) {
      // A server-side refusal (busy, 429; unavailable, 5xx; too large, 413) is not a verdict on the payload: retry it.
      if (!(error instanceof DomainError) || error.status >= 500 || error.status === 413 || error.status === 429) throw error;
      throw settlementRefused(`The payload cannot be validated: ${error.message}`, unknown, { validation_error: error.code }, error);
    }
    if (!validation.valid) {
      const paths = this.workflowOf(validation);
      throw settlementRefused(
        `The payload is not valid against its model dm-${validation.dmCtId} (${validation.errors.length} errors, first: ${validation.errors[0]?.message ?? 'unknown'}): no Receipt is issued for an invalid payload.`,
        { ...unknown, paths, allowed: [], modelDefinesStates: paths.length > 0 },
        { errors: validation.errors.slice(0, 20) },
      );
    }
    return validation;
  }

  /** A model's workflow, read once per schema (by its SHA-256). */
  private workflowOf(validation: PayloadValidation): WorkflowPath[] {
    let paths = this.workflows.get(validation.schemaSha256);
    if (!paths) {
      paths = modelWorkflow(validation.xsd);
      this.workflows.set(validation.schemaSha256, paths);
      if (this.workflows.size > MAX_CACHED_WORKFLOWS) this.workflows.delete(this.workflows.keys().next().value as string);
    }
    return paths;
  }

  private async previousHash(receiptId: string): Promise<string> {
    const row = await queryOne(this.db, q.receiptById(receiptId));
    if (!row) throw receiptNotFound('previous_receipt_id: Receipt');
    return row.receipt_hash;
  }

  private async row(receiptId: string): Promise<q.VslReceiptRow> {
    const row = await queryOne(this.db, q.receiptById(receiptId));
    if (!row) throw receiptNotFound();
    return row;
  }
}
