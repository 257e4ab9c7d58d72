import type { DataSource, EntityManager } from 'typeorm';
import { newId } from '../lib/ids';
import * as q from '../db/queries/ledger.sql';
import { transactionRetried } from '../db/transaction';
import { prepared, preparedIn } from '../db/prepared';
import type { Named } from '../db/queries/auth.sql';
import { query, queryOne } from '../db/sql';
import { Wallet } from '../entities/wallet.entity';
import { DomainError, notFound } from '../lib/errors';
import type { Clock } from './types';
import { GroupCommit, type Settled } from './group-commit';
import { keyRevoked, keyRevokedDuringRequest, refusalError, requestHoldClosed } from './errors';
import { applied, decide, type Deltas, type KeyMoney, type WalletMoney } from './decide';
import { currentClaim, recordOutcome, type Claim, type Outcome } from './claims';

export interface RequestHoldRequest {
  userId: number;
  amount: number;
  reason: string;
  apiKeyId: number | null;
}

export interface RequestHold {
  /** null when nothing was held (a free request); capture and release accept it as a no-op. */
  holdId: string | null;
  userId: number;
  balanceCredits: number;
}

/** A fixed-price request charged on admission (`RequestHolds.charge`): one ledger row, refunded only when the
 * request fails for a reason its caller is not charged for. */
export interface RequestCharge {
  /** The charge's ledger row; null when nothing was charged (a free request): refund accepts it as a no-op. */
  ledgerEntryId: number | null;
  userId: number;
  apiKeyId: number | null;
  chargedCredits: number;
  /** The balance right after the charge. */
  balanceCredits: number;
}

export interface RequestCapture {
  ledgerEntryId: number | null;
  balanceCredits: number;
  capturedCredits: number;
  alreadyClosed: boolean;
}

/** The ledger's refusal of a hold: 403 key limit (judged first), else 402 funds. */
export type RefuseHold = (manager: EntityManager, request: RequestHoldRequest, walletRefused: boolean) => Promise<never>;

/** Undoes, in the transaction that releases them, what requests built under the holds `tokens` before capturing
 * them (see `RequestHolds.onRelease`). */
export type ReleaseUndo = (manager: EntityManager, tokens: string[]) => Promise<void>;

/** What a capture writes on its request's Idempotency-Key claim, in the batch's transaction. */
export type CaptureOutcome = (capture: RequestCapture) => Outcome<unknown>;

type RequestOp =
  | { kind: 'hold'; token: string; request: RequestHoldRequest }
  | { kind: 'capture'; token: string; amount: number; reason: string; claim: Claim | null; outcome?: CaptureOutcome }
  | { kind: 'release'; token: string; reason: string }
  | { kind: 'charge'; request: RequestHoldRequest }
  | { kind: 'refund'; charge: RequestCharge; reason: string };
/** A hold answers a RequestHold, a capture a RequestCapture, a release whether it closed the hold, a charge a
 * RequestCharge, a refund true. */
type RequestOutcome = RequestHold | RequestCapture | RequestCharge | boolean;

/** A capture that found no open hold: already captured (answered as such), released (409), or unknown (404). */
async function closedCapture(closedBy: 'capture' | 'release' | null | undefined, balance: () => Promise<number> | number): Promise<RequestCapture> {
  if (closedBy === 'release') throw requestHoldClosed();
  if (closedBy !== 'capture') throw new DomainError(404, 'not_found', 'No such hold.');
  return { ledgerEntryId: null, balanceCredits: await balance(), capturedCredits: 0, alreadyClosed: true };
}

/**
 * Holds for one request, not a job: authorise the whole price before the work, capture what was earned after,
 * release on failure. Same lock order (wallet, then key, then ledger rows), the same wallet/key `held_credits`
 * accounting and ledger kinds as a job's hold. A hold is a `hold` row keyed `rhold:{token}` (job_id null), closed
 * exactly once by a `capture` or `release` row keyed `rhold:{token}:closed` (unique). A hold whose process died is
 * released by the maintenance sweep once older than REQUEST_HOLD_TTL_SECONDS.
 *
 * A request whose price is fixed before its work and that carries no Idempotency-Key (whose outcome could only be
 * written after the work) may instead be charged on admission (`charge`, the same refusals as a hold) and refunded
 * (`refund`) if it fails for a reason its caller is not charged for: one ledger row, one batch, where a hold and its
 * capture take two of each. The limit it accepts: a process that dies between such a charge and its answer leaves
 * the charge (no sweep refunds it), where a hold would have been released.
 *
 * Group commit per wallet: holds, charges, captures, releases and refunds of one wallet that arrive while a transaction of that
 * wallet is in flight are applied together by its next transaction (see WalletBatch), one commit for all.
 *
 * A batch of charges and refunds alone is first decided on the wallet and keys as this process's last batch of the
 * wallet left them, and written in one statement that writes it only if the rows still hold that (`applyKnown`):
 * one round trip where a transaction takes four. Rows changed meanwhile (a credit, a job, another process, a key's
 * limit or revocation), a member refused, or rows this process has not seen: the batch is applied on locked rows,
 * as always, so a refusal is only ever decided on locked rows.
 */
export class RequestHolds {
  private readonly batches: GroupCommit<RequestOp, RequestOutcome>;
  private readonly undos: ReleaseUndo[] = [];
  /** Each wallet (and its keys) as this process's last committed batch of it left them, least recently used first. */
  private readonly known = new Map<number, KnownWallet>();

  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly refuse: RefuseHold,
    private readonly ttlSeconds: number,
    private readonly keySpendChanging: (userId: number) => void,
  ) {
    this.batches = new GroupCommit((userId, ops) => this.apply(userId, ops));
  }

  /** Runs `undo` in every transaction that releases holds, with their tokens: a request that builds between its
   * hold and its capture registers how to remove what a hold released instead of captured had built, so a refused
   * capture or a process that died before it (the sweep releases) leaves nothing unpaid behind. */
  onRelease(undo: ReleaseUndo): void {
    this.undos.push(undo);
  }

  /** 403 when the key's limit cannot cover `amount`, 402 when the available balance cannot. */
  async hold(request: RequestHoldRequest): Promise<RequestHold> {
    const { userId, amount } = request;
    if (amount === 0) return { holdId: null, userId, balanceCredits: await this.balance(userId) };
    return (await this.batches.submit(userId, { kind: 'hold', token: newId(), request })) as RequestHold;
  }

  /** Charges `amount` at once, for a request whose price is known before its work: 403 when the key's limit cannot
   * cover it, 402 when the available balance cannot (decided as a hold is). */
  async charge(request: RequestHoldRequest): Promise<RequestCharge> {
    const { userId, amount, apiKeyId } = request;
    if (amount === 0) return { ledgerEntryId: null, userId, apiKeyId, chargedCredits: 0, balanceCredits: await this.balance(userId) };
    if (apiKeyId !== null) this.keySpendChanging(userId);
    return (await this.batches.submit(userId, { kind: 'charge', request })) as RequestCharge;
  }

  /** Gives a request's charge back, once (its ledger row's `refund:{id}` key is unique); false when nothing was
   * charged. */
  async refund(charge: RequestCharge, reason: string): Promise<boolean> {
    if (charge.ledgerEntryId === null) return false;
    if (charge.apiKeyId !== null) this.keySpendChanging(charge.userId);
    return (await this.batches.submit(charge.userId, { kind: 'refund', charge, reason })) as boolean;
  }

  /** Charges min(`amount`, held) and closes the hold; a closed hold is not charged again (`alreadyClosed`), a
   * released one is 409. A key revoked since the hold: 403, nothing charged (release it). */
  async capture(hold: RequestHold, amount: number, reason: string, outcome?: CaptureOutcome): Promise<RequestCapture> {
    const claim = currentClaim();
    if (!hold.holdId) {
      const free = { ledgerEntryId: null, balanceCredits: await this.balance(hold.userId), capturedCredits: 0, alreadyClosed: false };
      if (outcome) await recordOutcome(this.db, outcome(free), claim);
      return free;
    }
    const token = hold.holdId;
    this.keySpendChanging(hold.userId);
    try {
      return (await this.batches.submit(hold.userId, { kind: 'capture', token, amount, reason, claim, outcome })) as RequestCapture;
    } catch (error) {
      // Another process closed it meanwhile (the closing row's unique key refused ours).
      const closedBy = (await queryOne(this.db, q.requestHoldState(token)))?.closed_by;
      if (error instanceof DomainError || !closedBy) throw error;
      return closedCapture(closedBy, () => this.balance(hold.userId));
    }
  }

  /** Returns an open hold to the wallet and the key, once; false when it was already closed (or nothing was held). */
  async release(hold: Pick<RequestHold, 'holdId' | 'userId'>, reason: string): Promise<boolean> {
    if (!hold.holdId) return false;
    const token = hold.holdId;
    try {
      return (await this.batches.submit(hold.userId, { kind: 'release', token, reason })) as boolean;
    } catch (error) {
      if ((await queryOne(this.db, q.requestHoldState(token)))?.closed_by) return false;
      throw error;
    }
  }

  /** Releases request holds left open longer than the TTL (their process died); returns how many. */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.ttlSeconds * 1000);
    let released = 0;
    const open = await query(this.db, q.openRequestHoldsBefore(cutoff));
    // One hold that cannot be released now does not keep the others open; the first failure is reported after them
    // and the mark stays, so the next sweep tries it again.
    let failure: { error: unknown } | null = null;
    for (const { token, user_id: userId } of open) {
      const reason = `the request's process ended without closing its hold (older than ${this.ttlSeconds} s)`;
      try {
        if (await this.release({ holdId: token, userId: Number(userId) }, reason)) released++;
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
    if (open.length < q.REQUEST_HOLD_SWEEP_BATCH) await query(this.db, q.advanceRequestHoldSweepMark(cutoff));
    return released;
  }

  /** A batch of one wallet's operations, each member settled in arrival order: on the rows as last known here when
   * that can be written as decided, else in one transaction on locked rows. */
  private async apply(userId: number, ops: RequestOp[]): Promise<Settled<RequestOutcome>[]> {
    const known = await this.applyKnown(userId, ops);
    if (known) return known;
    let committed: WalletBatch | null = null;
    const outcomes = await transactionRetried(this.db, async (manager) => {
      if (ops.every((op) => op.kind === 'hold')) await query(manager, q.commitWithoutFlush());
      const batch = await WalletBatch.lock(manager, userId, ops, this.clock.now());
      committed = batch;
      const outcomes: Settled<RequestOutcome>[] = [];
      for (const op of ops) {
        try {
          outcomes.push({ ok: true, value: await batch.settle(op, this.refuse) });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          outcomes.push({ ok: false, error });
        }
      }
      await batch.flush();
      const released = ops.flatMap((op, i) =>
        op.kind === 'release' && outcomes[i].ok && (outcomes[i] as { value: unknown }).value === true ? [op.token] : [],
      );
      if (released.length) for (const undo of this.undos) await undo(manager, released);
      // A capture's claim outcome commits with it; a claim taken over fails the batch, then that member alone.
      for (const [i, op] of ops.entries()) {
        const settled = outcomes[i];
        if (op.kind !== 'capture' || !op.outcome || !op.claim || !settled.ok) continue;
        const capture = settled.value as RequestCapture;
        if (!capture.alreadyClosed) await recordOutcome(manager, op.outcome(capture), op.claim);
      }
      return outcomes;
    });
    this.remember(userId, committed);
    return outcomes;
  }

  /**
   * A batch of charges and refunds decided on the wallet and keys as this process's last batch of the wallet left
   * them, written in one statement that writes it only if the rows still hold that. Null, having written nothing,
   * when the rows are not known here, a member is refused (refusals are decided on locked rows), or the rows
   * changed since: the caller applies the batch on locked rows.
   */
  private async applyKnown(userId: number, ops: RequestOp[]): Promise<Settled<RequestOutcome>[] | null> {
    const known = this.known.get(userId);
    if (!known || !ops.every((op) => op.kind === 'charge' || op.kind === 'refund')) return null;
    // Known again only once this batch is written: deciding moves the rows as the batch sees them.
    this.known.delete(userId);
    const batch = WalletBatch.known(userId, known, this.clock.now(), (statement) => prepared(this.db, statement));
    const outcomes: Settled<RequestOutcome>[] = [];
    for (const op of ops) {
      const keyId = op.kind === 'charge' ? op.request.apiKeyId : op.kind === 'refund' ? op.charge.apiKeyId : null;
      if (keyId !== null && !known.keys.has(keyId)) return null;
      try {
        outcomes.push({ ok: true, value: await batch.settle(op, this.refuse) });
      } catch (error) {
        if (error instanceof DomainError) return null;
        throw error;
      }
    }
    if (!(await batch.flush())) return null;
    this.remember(userId, batch);
    return outcomes;
  }

  /** The rows as a committed batch left them, for the wallet's next batch. */
  private remember(userId: number, batch: WalletBatch | null): void {
    const state = batch?.state();
    this.known.delete(userId);
    if (!state) return;
    this.known.set(userId, state);
    if (this.known.size > KNOWN_WALLETS_MAX) this.known.delete(this.known.keys().next().value as number);
  }

  private async balance(userId: number): Promise<number> {
    const wallet = await this.db.manager.findOneBy(Wallet, { userId });
    if (!wallet) throw notFound('Wallet');
    return wallet.balanceCredits;
  }
}

/** A wallet and its keys as a committed batch left them (`RequestHolds.applyKnown`). */
interface KnownWallet {
  wallet: WalletMoney;
  keys: Map<number, KeyMoney>;
}

/** Wallets whose rows a process keeps as last written (a few hundred bytes each). */
const KNOWN_WALLETS_MAX = 10_000;

/** Runs a batch's write: in its transaction, or alone. */
type Write = <Row>(statement: Named<Row>) => Promise<Row[]>;

interface OpenHold {
  held: number;
  apiKeyId: number | null;
  closedBy: 'capture' | 'release' | null;
}

type PendingEntry = q.RequestBatchWrite['entries'][number] & { onId?: (id: number) => void };

/**
 * One attempt at a wallet's batch inside its transaction. It locks the wallet, then the keys, and reads the holds
 * it closes (one statement), then decides each member as a lone transaction would on the rows as the members
 * before it left them; the movements are written together (wallet and keys updated once, the ledger rows in one
 * insert) just before a refusal, which reads the rows to word its 402/403, and at the end. Or a batch of charges
 * and refunds decided the same way on the rows as last known (`known`), whose one write is its own transaction.
 */
class WalletBatch {
  private heldDelta = 0;
  private balanceDelta = 0;
  private keyDeltas = new Map<number, { id: number; held: number; spent: number }>();
  private entries: PendingEntry[] = [];

  private constructor(
    /** The transaction that locked the rows; null for a batch decided on known rows. */
    private readonly manager: EntityManager | null,
    private readonly write: Write,
    private readonly userId: number,
    private readonly wallet: { balance: number; held: number } | null,
    private readonly holds: Map<string, OpenHold>,
    private readonly keys: Map<number, KeyMoney>,
    private readonly now: Date,
  ) {}

  static async lock(manager: EntityManager, userId: number, ops: RequestOp[], now: Date): Promise<WalletBatch> {
    const tokens = ops.flatMap((op) => (op.kind === 'capture' || op.kind === 'release' ? [op.token] : []));
    const keyIds = ops.flatMap((op) => {
      const keyId = op.kind === 'hold' || op.kind === 'charge' ? op.request.apiKeyId : op.kind === 'refund' ? op.charge.apiKeyId : null;
      return keyId === null ? [] : [keyId];
    });
    const [locked] = await preparedIn(manager, { name: 'ledger_lock_request_batch', ...q.lockRequestBatch(userId, [...new Set(keyIds)], tokens) });
    const holds = new Map<string, OpenHold>();
    for (const h of locked?.holds ?? []) {
      holds.set(h.token, { held: Number(h.held), apiKeyId: h.api_key_id === null ? null : Number(h.api_key_id), closedBy: h.closed_by });
    }
    const keys = new Map<number, KeyMoney>();
    for (const k of locked?.keys ?? []) {
      const limit = k.spend_limit_credits === null ? null : Number(k.spend_limit_credits);
      keys.set(Number(k.id), { limit, spent: Number(k.spent_credits), held: Number(k.held_credits), revoked: k.revoked });
    }
    const wallet = locked ? { balance: Number(locked.balance_credits), held: Number(locked.held_credits) } : null;
    return new WalletBatch(manager, (statement) => preparedIn(manager, statement), userId, wallet, holds, keys, now);
  }

  /** A batch of charges and refunds on the rows as last known, written by `write` alone. */
  static known(userId: number, known: KnownWallet, now: Date, write: Write): WalletBatch {
    return new WalletBatch(null, write, userId, known.wallet, new Map(), known.keys, now);
  }

  /** The wallet and keys as this batch leaves them. */
  state(): KnownWallet | null {
    return this.wallet && { wallet: this.wallet, keys: this.keys };
  }

  /** A member's outcome; a DomainError thrown is its own refusal. */
  settle(op: RequestOp, refuse: RefuseHold): Promise<RequestOutcome> | RequestOutcome {
    if (op.kind === 'hold') return this.hold(op.token, op.request, refuse);
    if (op.kind === 'charge') return this.charge(op.request, refuse);
    if (op.kind === 'refund') return this.refund(op.charge, op.reason);
    const hold = this.holds.get(op.token);
    if (op.kind === 'release') return hold?.closedBy === null && this.release(op.token, hold, op.reason);
    if (hold?.closedBy !== null) return closedCapture(hold?.closedBy, () => this.wallet!.balance);
    return this.capture(op.token, hold, op.amount, op.reason);
  }

  /** A hold's or a charge's amount taken from the wallet and the key, as `decide` judges it (403 before 402) on the
   * rows as the members before it left them; the wallet after it. No wallet or no such key: the lone path's
   * refusal, which reads the rows to say which. */
  private async take(request: RequestHoldRequest, kind: 'hold' | 'charge', refuse: RefuseHold): Promise<{ balance: number; held: number }> {
    const { amount, apiKeyId } = request;
    const wallet = this.wallet;
    const key = apiKeyId === null ? null : this.keys.get(apiKeyId);
    if (!wallet || key === undefined) {
      if (!this.manager) throw new Error('a batch on known rows reads no rows to refuse');
      await this.flush();
      return refuse(this.manager, request, !wallet);
    }
    const decision = decide(wallet, key, { kind, amount });
    if (decision.refused) throw refusalError(decision, amount, keyRevoked);
    this.move(apiKeyId, key, decision);
    return wallet;
  }

  /** As a lone hold: the wallet's available balance and the key's limit (403 judged before 402), decided by
   * `decide` on the rows as the members before it left them. */
  private async hold(token: string, request: RequestHoldRequest, refuse: RefuseHold): Promise<RequestHold> {
    const { amount, apiKeyId } = request;
    const wallet = await this.take(request, 'hold', refuse);
    const idempotencyKey = q.requestHoldKeyOf(token);
    this.entries.push({ amount: -amount, kind: 'hold', reason: request.reason, idempotencyKey, apiKeyId, balanceAfter: wallet.balance });
    this.holds.set(token, { held: amount, apiKeyId, closedBy: null });
    return { holdId: token, userId: this.userId, balanceCredits: wallet.balance };
  }

  /** As a lone charge: refused as a hold is (403 before 402), then taken from the balance and counted as the
   * key's spend. */
  private async charge(request: RequestHoldRequest, refuse: RefuseHold): Promise<RequestCharge> {
    const { amount, apiKeyId } = request;
    const wallet = await this.take(request, 'charge', refuse);
    const result: RequestCharge = { ledgerEntryId: null, userId: this.userId, apiKeyId, chargedCredits: amount, balanceCredits: wallet.balance };
    const onId = (id: number) => (result.ledgerEntryId = id);
    this.entries.push({ amount: -amount, kind: 'charge', reason: request.reason, apiKeyId, balanceAfter: wallet.balance, onId });
    return result;
  }

  /** The charge back to the wallet and off the key's spend; a second refund of it is refused by its unique key. */
  private refund(charge: RequestCharge, reason: string): true {
    const wallet = this.wallet!;
    const key = charge.apiKeyId === null ? null : (this.keys.get(charge.apiKeyId) ?? null);
    this.move(charge.apiKeyId, key, decide(wallet, key, { kind: 'refund', amount: charge.chargedCredits }) as Deltas);
    this.entries.push({
      amount: charge.chargedCredits,
      kind: 'refund',
      reason: `refund: ${reason}`,
      idempotencyKey: q.refundKeyOf(charge.ledgerEntryId!),
      apiKeyId: charge.apiKeyId,
      balanceAfter: wallet.balance,
    });
    return true;
  }

  /** min(`amount`, held) moves from held to spent; a key revoked since the hold is never charged. */
  private capture(token: string, hold: OpenHold, amount: number, reason: string): RequestCapture {
    const key = hold.apiKeyId === null ? null : (this.keys.get(hold.apiKeyId) ?? { limit: null, spent: 0, held: 0, revoked: true });
    const wallet = this.wallet!;
    const decision = decide(wallet, key, { kind: 'capture', held: hold.held, amount });
    if (decision.refused) throw keyRevokedDuringRequest();
    this.move(hold.apiKeyId, key, decision);
    hold.closedBy = 'capture';
    const captured = decision.captured;
    const result: RequestCapture = { ledgerEntryId: null, balanceCredits: wallet.balance, capturedCredits: captured, alreadyClosed: false };
    const closing = { apiKeyId: hold.apiKeyId, idempotencyKey: q.requestHoldClosedKeyOf(token) };
    this.entries.push({ ...closing, amount: hold.held, kind: 'capture', reason: `capture: ${reason}`, balanceAfter: wallet.balance + captured });
    if (captured > 0) {
      const onId = (id: number) => (result.ledgerEntryId = id);
      this.entries.push({ amount: -captured, kind: 'charge', reason, apiKeyId: hold.apiKeyId, balanceAfter: wallet.balance, onId });
    }
    return result;
  }

  private release(token: string, hold: OpenHold, reason: string): true {
    const wallet = this.wallet!;
    const key = hold.apiKeyId === null ? null : (this.keys.get(hold.apiKeyId) ?? null);
    this.move(hold.apiKeyId, key, decide(wallet, key, { kind: 'release', held: hold.held }) as Deltas);
    hold.closedBy = 'release';
    const idempotencyKey = q.requestHoldClosedKeyOf(token);
    this.entries.push({
      amount: hold.held,
      kind: 'release',
      reason: `release: ${reason}`,
      idempotencyKey,
      apiKeyId: hold.apiKeyId,
      balanceAfter: wallet.balance,
    });
    return true;
  }

  /** Applies a decision to the rows as this batch sees them and adds it to the deltas it will write. */
  private move(keyId: number | null, key: KeyMoney | null, deltas: Deltas): void {
    applied(this.wallet!, key, deltas);
    this.heldDelta += deltas.wallet.held;
    this.balanceDelta += deltas.wallet.balance;
    if (keyId === null) return;
    const delta = this.keyDeltas.get(keyId) ?? { id: keyId, held: 0, spent: 0 };
    delta.held += deltas.key.held;
    delta.spent += deltas.key.spent;
    this.keyDeltas.set(keyId, delta);
  }

  /** Writes the movements decided so far in one statement, if the rows still hold what they were decided on (in a
   * transaction that locked them, they do: a write that finds otherwise is an error). False when they did not. */
  async flush(): Promise<boolean> {
    if (!this.entries.length) return true;
    const wallet = this.wallet!;
    const entries = this.entries;
    const deltas = [...this.keyDeltas.values()];
    const keys = deltas.flatMap(({ id, held, spent }) => {
      const key = this.keys.get(id);
      return key ? [{ id, spent: key.spent - spent, held: key.held - held, limit: key.limit, revoked: key.revoked }] : [];
    });
    const expected = { balance: wallet.balance - this.balanceDelta, held: wallet.held - this.heldDelta, keys };
    const write = { userId: this.userId, expected, heldDelta: this.heldDelta, balanceDelta: this.balanceDelta, now: this.now };
    const [row] = await this.write({ name: 'ledger_apply_request_batch', ...q.applyRequestBatch({ ...write, keys: deltas, entries }) });
    if (!row?.ids) {
      if (this.manager) throw new Error(`wallet ${this.userId}: its locked rows changed under its batch`);
      return false;
    }
    const ids = row.ids.map(Number);
    entries.forEach((entry, i) => entry.onId?.(ids[i]));
    this.entries = [];
    this.keyDeltas = new Map();
    this.heldDelta = 0;
    this.balanceDelta = 0;
    return true;
  }
}
