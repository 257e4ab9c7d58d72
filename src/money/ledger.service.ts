import type { DataSource, EntityManager } from 'typeorm';
import * as q from '../db/queries/ledger.sql';
import { ledgerHistory } from '../db/queries/ledger-history.sql';
import { transactionRetried } from '../db/transaction';
import { query, queryOne } from '../db/sql';
import { Wallet } from '../entities/wallet.entity';
import { badRequest, DomainError, notFound, pgCode, PG } from '../lib/errors';
import type { AutoReloadUpdate } from '../parsers/wallet.parser';
import { walletView, type WalletView } from './wallet-view';
import type { Clock, Payer } from './types';
import { holdClosed, refusalError } from './errors';
import { recordOutcome } from './claims';
import { applied, decide, type Deltas, type KeyMoney, type Movement, type WalletMoney } from './decide';
import { RequestHolds, type RequestHoldRequest } from './request-holds';
import { ledgerEntryView, type LedgerPageView } from './ledger-entry-view';

export interface ChargeRequest {
  userId: number;
  amount: number;
  reason: string;
  /** Unique per job and purpose: a retried worker step finds the earlier charge instead of charging twice. */
  idempotencyKey?: string;
  apiKeyId?: number | null;
  jobId?: number | null;
}

export interface ChargeResult {
  ledgerEntryId: number | null;
  balanceCredits: number;
  alreadyCharged: boolean;
}

/** A request's charge (`chargeRequest`): who pays, how much, why, what the request made and what it answers. */
export interface RequestChargeRequest<T> {
  userId: number;
  apiKeyId: number | null;
  amount: number;
  reason: string;
  resource: { type: string; id: string };
  result: T;
}

export interface HoldRequest {
  userId: number;
  amount: number;
  reason: string;
  apiKeyId: number | null;
  jobId: number;
}

/** Every money movement: conditional UPDATEs of the wallet, then of the key (the lock order of
 * src/money/ledger.sql.ts), and an append-only ledger row, in one transaction. `balance_credits` is the sum
 * of credit, charge and refund rows; `held_credits` the sum of open holds. None can overdraw or pass a limit. */
export class LedgerService {
  readonly requests: RequestHolds;
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    requestHoldTtlSeconds = 600,
    /** Told before a movement changes what a user's keys have spent (the key cache's list then reads afresh). */
    private readonly keySpendChanging: (userId: number) => void = () => undefined,
  ) {
    this.requests = new RequestHolds(db, clock, (m, r) => this.refuse(m, r), requestHoldTtlSeconds, keySpendChanging);
  }

  /** A caller's key with its spend as the ledger holds it now (an authenticated key comes from a cache that
   * keeps its policy, never its spend). */
  async currentSpend<K extends { id: number; spentCredits: number; heldCredits: number }>(key: K): Promise<K> {
    const row = await queryOne(this.db, q.keySpend(key.id));
    return row ? { ...key, spentCredits: Number(row.spent_credits), heldCredits: Number(row.held_credits) } : key;
  }

  async wallet(userId: number, manager: EntityManager): Promise<Wallet> {
    const wallet = await manager.findOneBy(Wallet, { userId });
    if (!wallet) throw notFound('Wallet');
    return wallet;
  }

  async credit(userId: number, amount: number, reason: string, idempotencyKey?: string): Promise<Wallet> {
    if (!Number.isSafeInteger(amount) || amount <= 0) throw badRequest('credits must be a positive integer.');
    return transactionRetried(this.db, async (manager) => {
      const { wallet } = await this.move(manager, userId, null, { kind: 'credit', amount });
      await this.append(manager, { userId, amount, kind: 'credit', reason, idempotencyKey, balanceAfter: wallet.balance });
      return this.wallet(userId, manager);
    });
  }

  /** For an inline charge: the key's limit first (403 even when the wallet could pay), then the available balance. */
  async assertCanPay(caller: Payer, amount: number): Promise<void> {
    const keyId = caller.via === 'key' && caller.key ? caller.key.id : null;
    const { wallet, key } = await this.rows(this.db.manager, caller.user.id, keyId, false);
    const decision = decide(wallet, key, { kind: 'charge', amount });
    if (decision.refused) throw refusalError(decision, amount);
  }

  /** An immediate charge: 403 when the key's limit (open holds included) cannot cover it, 402 when the available
   * balance cannot. */
  async charge(request: ChargeRequest, manager: EntityManager): Promise<ChargeResult> {
    const { userId, amount, apiKeyId } = request;
    if (apiKeyId) this.keySpendChanging(userId);
    if (request.idempotencyKey) {
      const existing = await queryOne(manager, q.entryByKey(request.idempotencyKey));
      if (existing) return { ledgerEntryId: Number(existing.id), balanceCredits: Number(existing.balance_after_credits), alreadyCharged: true };
    }
    if (amount === 0) {
      const wallet = await this.wallet(userId, manager);
      return { ledgerEntryId: null, balanceCredits: wallet.balanceCredits, alreadyCharged: false };
    }
    const { wallet } = await this.move(manager, userId, apiKeyId ?? null, { kind: 'charge', amount });
    const balanceAfter = wallet.balance;
    try {
      const id = await this.append(manager, { ...request, amount: -amount, kind: 'charge', balanceAfter });
      return { ledgerEntryId: id, balanceCredits: balanceAfter, alreadyCharged: false };
    } catch (error) {
      if (pgCode(error) === PG.uniqueViolation) {
        throw new DomainError(409, 'already_charged', 'This charge was already made.', {}, { cause: error });
      }
      throw error;
    }
  }

  /**
   * Charge N credits for one request, with idempotency: in `manager`'s transaction (the one that makes the
   * request's resource) charges `amount` (403 key revoked or limit, 402 funds, as every door) and writes the
   * request's Idempotency-Key outcome (`resource`, `result`) with it, so a retry after a crash or a later error
   * replays `result` instead of charging again. Wrap the whole operation in `replayOr` (the replay's entry). With no
   * Idempotency-Key on the request it is a plain charge.
   */
  async chargeRequest<T>(request: RequestChargeRequest<T>, manager: EntityManager): Promise<ChargeResult> {
    const { resource, result, ...charge } = request;
    const paid = await this.charge(charge, manager);
    await recordOutcome(manager, { charged: charge.amount, ledgerEntryId: paid.ledgerEntryId, resource, result });
    return paid;
  }

  /** Authorises a job's whole amount in the caller's transaction (the one that writes the job): the available
   * balance and the key's remaining limit shrink by it, so concurrent admissions cannot oversubscribe. */
  async hold(request: HoldRequest, manager: EntityManager): Promise<{ balanceCredits: number }> {
    const { userId, amount, apiKeyId, jobId } = request;
    if (amount === 0) return { balanceCredits: (await this.wallet(userId, manager)).balanceCredits };
    const { wallet } = await this.move(manager, userId, apiKeyId, { kind: 'hold', amount });
    await this.append(manager, {
      userId,
      amount: -amount,
      kind: 'hold',
      reason: request.reason,
      idempotencyKey: q.holdKeyOf(jobId),
      apiKeyId,
      jobId,
      balanceAfter: wallet.balance,
    });
    return { balanceCredits: wallet.balance };
  }

  /** Charges a job from its hold, never more than held, once (a retried step finds its charge). A job without a
   * hold (admitted before holds existed, or free) is charged directly. Throws `key_revoked` when the job's key
   * was revoked: the caller rolls back and releases. */
  async capture(request: ChargeRequest & { jobId: number }, manager: EntityManager): Promise<ChargeResult> {
    this.keySpendChanging(request.userId);
    const hold = await queryOne(manager, q.jobHold(request.jobId));
    if (!hold) return this.charge(request, manager);
    const locked = (await queryOne(manager, q.jobHold(request.jobId)))!;
    if (locked.closed_by === 'release') throw holdClosed();
    if (locked.closed_by === 'capture') {
      const charged = request.idempotencyKey ? await queryOne(manager, q.entryByKey(request.idempotencyKey)) : undefined;
      return {
        ledgerEntryId: charged ? Number(charged.id) : null,
        balanceCredits: Number(charged?.balance_after_credits ?? 0),
        alreadyCharged: true,
      };
    }
    const held = Number(locked.held);
    const keyId = locked.api_key_id ? Number(locked.api_key_id) : null;
    const { wallet, deltas } = await this.move(manager, request.userId, keyId, { kind: 'capture', held, amount: request.amount });
    const captured = deltas.captured;
    const balanceAfter = wallet.balance;
    const closing = { userId: request.userId, apiKeyId: keyId, jobId: request.jobId };
    await this.append(manager, {
      ...closing,
      amount: held,
      kind: 'capture',
      reason: `capture: ${request.reason}`,
      idempotencyKey: q.holdClosedKeyOf(request.jobId),
      balanceAfter: balanceAfter + captured,
    });
    const id = captured
      ? await this.append(manager, {
          ...closing,
          amount: -captured,
          kind: 'charge',
          reason: request.reason,
          idempotencyKey: request.idempotencyKey,
          balanceAfter,
        })
      : null;
    return { ledgerEntryId: id, balanceCredits: balanceAfter, alreadyCharged: false };
  }

  /** Returns a job's open hold to the wallet and the key, once; false when there was none open. */
  async release(jobId: number, reason: string, manager: EntityManager): Promise<boolean> {
    const hold = await queryOne(manager, q.jobHold(jobId));
    if (!hold) return false;
    await queryOne(manager, q.lockWallet(Number(hold.user_id)));
    const locked = (await queryOne(manager, q.jobHold(jobId)))!;
    if (locked.closed_by) return false;
    const held = Number(locked.held);
    const keyId = locked.api_key_id ? Number(locked.api_key_id) : null;
    const { wallet } = await this.move(manager, Number(hold.user_id), keyId, { kind: 'release', held });
    await this.append(manager, {
      userId: Number(hold.user_id),
      amount: held,
      kind: 'release',
      reason: `release: ${reason}`,
      idempotencyKey: q.holdClosedKeyOf(jobId),
      apiKeyId: keyId,
      jobId,
      balanceAfter: wallet.balance,
    });
    return true;
  }

  /** Settles the money of a job that failed for good (its worker died on every attempt), in `manager`'s transaction
   * (the one that marks it failed): its open hold is released, and what an attempt captured before dying is
   * refunded, once each; a failed job is never paid for. */
  async settleFailedJob(jobId: number, reason: string, manager: EntityManager): Promise<void> {
    await this.release(jobId, reason, manager);
    for (const { id } of await query(manager, q.unrefundedJobCharges(jobId))) await this.refund(Number(id), `refund: ${reason}`, manager);
  }

  /** Releases the holds of jobs that ended without closing them, and request holds past their TTL; returns how many. */
  async releaseEndedJobHolds(): Promise<number> {
    const open = await query(this.db, q.openHoldsOfEndedJobs());
    let released = 0;
    for (const { job_id: jobId } of open) {
      if (await transactionRetried(this.db, (m) => this.release(Number(jobId), 'the job ended without a charge', m))) released++;
    }
    return released + (await this.requests.sweep());
  }

  /** Returns a charge to the wallet and to the key's spent count, once: a charge already refunded is left as it is
   * (a job's retry that fails again refunds what an earlier, killed attempt charged). */
  async refund(chargeEntryId: number, reason: string, manager: EntityManager): Promise<void> {
    const charge = await queryOne(manager, q.chargeEntry(chargeEntryId));
    if (!charge) throw notFound('Charge');
    if (await queryOne(manager, q.entryByKey(q.refundKeyOf(chargeEntryId)))) return;
    const amount = -Number(charge.amount_credits);
    const keyId = charge.api_key_id ? Number(charge.api_key_id) : null;
    const { wallet } = await this.move(manager, Number(charge.user_id), keyId, { kind: 'refund', amount });
    await this.append(manager, {
      userId: Number(charge.user_id),
      amount,
      kind: 'refund',
      reason,
      idempotencyKey: q.refundKeyOf(chargeEntryId),
      apiKeyId: charge.api_key_id ? Number(charge.api_key_id) : null,
      jobId: charge.job_id ? Number(charge.job_id) : null,
      balanceAfter: wallet.balance,
    });
  }

  async jobCosts(jobIds: number[]): Promise<Map<number, number>> {
    if (!jobIds.length) return new Map();
    const found = await query(this.db, q.jobCosts(jobIds));
    return new Map(found.map((r) => [Number(r.job_id), Number(r.cost)]));
  }

  async walletView(userId: number): Promise<WalletView> {
    return walletView(await this.wallet(userId, this.db.manager));
  }

  /** A page of the user's ledger, newest first, before entry `beforeId` (from the newest when null). */
  async history(userId: number, beforeId: number | null, limit: number): Promise<LedgerPageView> {
    const found = await query(this.db, ledgerHistory(userId, beforeId, limit + 1));
    const entries = found.slice(0, limit).map(ledgerEntryView);
    return { entries, nextBefore: found.length > limit ? entries[entries.length - 1].id : null };
  }

  /** Auto-reload may only be enabled with a positive amount, judged on the wallet as it will be after the update. */
  async updateAutoReload(userId: number, update: AutoReloadUpdate): Promise<WalletView> {
    const wallet = await this.wallet(userId, this.db.manager);
    const enabled = update.enabled ?? wallet.autoReloadEnabled;
    const amount = update.amountCredits ?? wallet.autoReloadAmountCredits;
    if (enabled && amount <= 0) {
      throw badRequest('amount_credits must be positive when auto-reload is enabled.', { details: { amount_credits: ['Must be positive.'] } });
    }
    const patch: Partial<Wallet> = {};
    if (update.enabled !== undefined) patch.autoReloadEnabled = update.enabled;
    if (update.thresholdCredits !== undefined) patch.autoReloadThresholdCredits = update.thresholdCredits;
    if (update.amountCredits !== undefined) patch.autoReloadAmountCredits = update.amountCredits;
    await this.db.manager.update(Wallet, { userId }, { ...patch, updatedAt: this.clock.now() });
    return this.walletView(userId);
  }

  /** The batch's refusal when its lock found no wallet or no such key. */
  private async refuse(manager: EntityManager, { userId, apiKeyId }: RequestHoldRequest): Promise<never> {
    await this.rows(manager, userId, apiKeyId, false);
    throw notFound('API key');
  }

  /** The wallet's and the key's money (locked FOR NO KEY UPDATE in that order when `lock`). */
  private async rows(
    manager: EntityManager,
    userId: number,
    keyId: number | null,
    lock: boolean,
  ): Promise<{ wallet: WalletMoney; key: KeyMoney | null }> {
    const w = await queryOne(manager, lock ? q.lockWallet(userId) : q.walletMoney(userId));
    if (!w) throw notFound('Wallet');
    const wallet = { balance: Number(w.balance_credits), held: Number(w.held_credits) };
    if (keyId === null) return { wallet, key: null };
    const k = await queryOne(manager, lock ? q.lockKey(keyId) : q.keySpend(keyId));
    if (!k) throw notFound('API key');
    const limit = k.spend_limit_credits === null ? null : Number(k.spend_limit_credits);
    return { wallet, key: { limit, spent: Number(k.spent_credits), held: Number(k.held_credits), revoked: k.revoked } };
  }

  /** Every single-path movement: lock the wallet, then the key; `decide`; write only its deltas. A refusal throws
   * in the contract's shape (403 key revoked or limit, 402 funds) before anything is written. */
  private async move(
    manager: EntityManager,
    userId: number,
    keyId: number | null,
    movement: Movement,
  ): Promise<{ wallet: WalletMoney; deltas: Deltas }> {
    const { wallet, key } = await this.rows(manager, userId, keyId, true);
    const decision = decide(wallet, key, movement);
    if (decision.refused) throw refusalError(decision, 'amount' in movement ? movement.amount : 0);
    applied(wallet, key, decision);
    await queryOne(manager, q.moveWallet(userId, decision.wallet.balance, decision.wallet.held, this.clock.now()));
    if (keyId !== null && (decision.key.spent || decision.key.held)) await queryOne(manager, q.moveKey(keyId, decision.key.spent, decision.key.held));
    return { wallet, deltas: decision };
  }

  private async append(manager: EntityManager, entry: q.LedgerInsert): Promise<number> {
    const [row] = await query(manager, q.insertEntry(entry));
    return Number(row.id);
  }
}
