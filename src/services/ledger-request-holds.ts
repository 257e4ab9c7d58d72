import { createId } from '@paralleldrive/cuid2';
import type { DataSource, EntityManager } from 'typeorm';
import * as q from '../db/queries/ledger.sql';
import { transactionRetried } from '../db/transaction';
import { query, queryOne } from '../db/sql';
import { Wallet } from '../entities/wallet.entity';
import { DomainError, notFound } from '../lib/errors';
import type { Clock } from './clock';

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

export interface RequestCapture {
  ledgerEntryId: number | null;
  balanceCredits: number;
  capturedCredits: number;
  alreadyClosed: boolean;
}

/** The ledger's refusal of a hold: 403 key limit (judged first), else 402 funds. */
export type RefuseHold = (manager: EntityManager, request: RequestHoldRequest, walletRefused: boolean) => Promise<never>;

const requestHoldClosed = () => new DomainError(409, 'hold_released', 'This request’s hold was released; it can no longer be charged.');
const keyRevokedDuringRequest = () =>
  new DomainError(403, 'key_revoked', 'The API key that made this request was revoked: nothing was charged and its hold was released.');

/**
 * Holds for one request, not a job: authorise the whole price before the work, capture what was earned after,
 * release on failure. Same lock order (wallet, then key, then ledger rows), the same wallet/key `held_credits`
 * accounting and ledger kinds as a job's hold. A hold is a `hold` row keyed `rhold:{token}` (job_id null), closed
 * exactly once by a `capture` or `release` row keyed `rhold:{token}:closed` (unique). A hold whose process died is
 * released by the maintenance sweep once older than REQUEST_HOLD_TTL_SECONDS.
 */
export class RequestHolds {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly refuse: RefuseHold,
    private readonly ttlSeconds: number,
  ) {}

  /** One transaction: 403 when the key's limit cannot cover `amount`, 402 when the available balance cannot. */
  async hold(request: RequestHoldRequest): Promise<RequestHold> {
    const { userId, amount } = request;
    if (amount === 0) return { holdId: null, userId, balanceCredits: await this.balance(userId) };
    return transactionRetried(this.db, async (manager) => {
      const token = createId();
      const placed = (await queryOne(manager, q.placeRequestHold(token, { ...request, now: this.clock.now() })))!;
      if (placed.entry_id === null) return this.refuse(manager, request, placed.balance_credits === null);
      return { holdId: token, userId, balanceCredits: Number(placed.balance_credits) };
    });
  }

  /** Charges min(`amount`, held) and closes the hold, in one transaction; a closed hold is not charged again
   * (`alreadyClosed`), a released one is 409. A key revoked since the hold: 403, nothing charged (release it). */
  async capture(hold: RequestHold, amount: number, reason: string): Promise<RequestCapture> {
    if (!hold.holdId) return { ledgerEntryId: null, balanceCredits: await this.balance(hold.userId), capturedCredits: 0, alreadyClosed: false };
    const token = hold.holdId;
    try {
      return await transactionRetried(this.db, async (manager) => {
        const done = (await queryOne(manager, q.captureRequestHold(token, amount, reason, this.clock.now())))!;
        if (done.user_id === null) return this.closed(hold, token, manager);
        if (!done.key_ok) throw keyRevokedDuringRequest();
        const captured = Number(done.captured);
        return {
          ledgerEntryId: done.charge_id === null ? null : Number(done.charge_id),
          balanceCredits: Number(done.balance_credits),
          capturedCredits: captured,
          alreadyClosed: false,
        };
      });
    } catch (error) {
      if (error instanceof DomainError || !(await queryOne(this.db, q.requestHoldState(token)))?.closed_by) throw error;
      return this.closed(hold, token);
    }
  }

  /** Returns an open hold to the wallet and the key, once; false when it was already closed (or nothing was held). */
  async release(hold: Pick<RequestHold, 'holdId'>, reason: string): Promise<boolean> {
    if (!hold.holdId) return false;
    const token = hold.holdId;
    try {
      return await transactionRetried(this.db, async (manager) => {
        const settled = await queryOne(manager, q.settleRequestHold(token, 0, this.clock.now()));
        if (!settled) return false;
        const held = Number(settled.held);
        const keyId = settled.api_key_id ? Number(settled.api_key_id) : null;
        if (keyId) await queryOne(manager, q.releaseKeyHold(keyId, held));
        await query(
          manager,
          q.insertEntry({
            userId: Number(settled.user_id),
            amount: held,
            kind: 'release',
            reason: `release: ${reason}`,
            idempotencyKey: q.requestHoldClosedKeyOf(token),
            apiKeyId: keyId,
            balanceAfter: Number(settled.balance_credits),
          }),
        );
        return true;
      });
    } catch (error) {
      if ((await queryOne(this.db, q.requestHoldState(token)))?.closed_by) return false;
      throw error;
    }
  }

  /** Releases request holds left open longer than the TTL (their process died); returns how many. */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.ttlSeconds * 1000);
    let released = 0;
    for (const { token } of await query(this.db, q.openRequestHoldsBefore(cutoff))) {
      if (await this.release({ holdId: token }, `the request's process ended without closing its hold (older than ${this.ttlSeconds} s)`)) released++;
    }
    return released;
  }

  private async balance(userId: number, manager: EntityManager = this.db.manager): Promise<number> {
    const wallet = await manager.findOneBy(Wallet, { userId });
    if (!wallet) throw notFound('Wallet');
    return wallet.balanceCredits;
  }

  /** A capture that found no open hold: already captured (answered as such), released (409), or unknown. */
  private async closed(hold: RequestHold, token: string, manager: EntityManager = this.db.manager): Promise<RequestCapture> {
    const state = await queryOne(manager, q.requestHoldState(token));
    if (state?.closed_by === 'release') throw requestHoldClosed();
    if (state?.closed_by !== 'capture') throw new DomainError(404, 'not_found', 'No such hold.');
    return { ledgerEntryId: null, balanceCredits: await this.balance(hold.userId, manager), capturedCredits: 0, alreadyClosed: true };
  }
}
