import type { DataSource, EntityManager } from 'typeorm';
import { one, rows } from '../db/sql';
import type { LedgerKind } from '../entities/ledger-entry.entity';
import { Wallet } from '../entities/wallet.entity';
import { badRequest, DomainError, notFound, pgCode, PG } from '../lib/errors';
import type { AutoReloadUpdate } from '../parsers/wallet.parser';
import { walletView, type WalletView } from '../presenters/wallet.presenter';
import type { Caller } from './auth.service';
import type { Clock } from './clock';

// Kept here for the features that price work in dollars; the presenter owns the formatting.
export { CREDITS_PER_DOLLAR, creditsToUsd } from '../presenters/wallet.presenter';

/** Raw rows as node-postgres returns them: bigint columns arrive as strings. */
interface BalanceRow {
  balance_credits: string;
}
interface IdRow {
  id: string;
}
interface EarlierChargeRow {
  id: string;
  balance_after_credits: string;
}
interface KeySpendRow {
  spend_limit_credits: string | null;
  spent_credits: string;
}
interface ChargeEntryRow {
  user_id: string;
  amount_credits: string;
  api_key_id: string | null;
  job_id: string | null;
}
interface JobCostRow {
  job_id: string;
  cost: string;
}

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

export const insufficientFunds = (estimated: number, balance: number) =>
  new DomainError(402, 'insufficient_funds', `Insufficient funds: this needs ${estimated} credits and the wallet holds ${balance}.`, {
    estimated_cost_credits: estimated,
    balance_credits: balance,
  });

export const keySpendLimit = (limit: number, spent: number, needed: number) =>
  new DomainError(403, 'key_spend_limit', `This API key's spend limit is ${limit} credits; it has spent ${spent} and this needs ${needed}.`, {
    spend_limit_credits: limit,
    spent_credits: spent,
    estimated_cost_credits: needed,
  });

/** Every money movement: a conditional UPDATE of the wallet (and of the key's spent count) and an append-only
 * ledger row, in one transaction. Concurrent charges serialise on the wallet row; none can overdraw. */
export class LedgerService {
  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  async wallet(userId: number, manager: EntityManager = this.db.manager): Promise<Wallet> {
    const wallet = await manager.findOneBy(Wallet, { userId });
    if (!wallet) throw notFound('Wallet');
    return wallet;
  }

  async credit(userId: number, amount: number, reason: string, idempotencyKey?: string): Promise<Wallet> {
    if (!Number.isSafeInteger(amount) || amount <= 0) throw badRequest('credits must be a positive integer.');
    return this.db.transaction(async (manager) => {
      const row = await one<BalanceRow>(
        manager,
        'UPDATE wallets SET balance_credits = balance_credits + $2, updated_at = $3 WHERE user_id = $1 RETURNING balance_credits',
        [userId, amount, this.clock.now()],
      );
      if (!row) throw notFound('Wallet');
      await this.append(manager, { userId, amount, kind: 'credit', reason, idempotencyKey, balanceAfter: Number(row.balance_credits) });
      return this.wallet(userId, manager);
    });
  }

  /** For work a job charges later: the whole amount is checked, not charged, in the order `charge` uses (the
   * key's limit, then the wallet), so a job that could not pay is refused before it is created. */
  async assertCanPay(caller: Pick<Caller, 'user' | 'via' | 'key'>, amount: number): Promise<void> {
    const key = caller.via === 'key' ? caller.key : null;
    if (key && key.spendLimitCredits !== null && key.spentCredits + amount > key.spendLimitCredits) {
      throw keySpendLimit(key.spendLimitCredits, key.spentCredits, amount);
    }
    const wallet = await this.wallet(caller.user.id);
    if (wallet.balanceCredits < amount) throw insufficientFunds(amount, wallet.balanceCredits);
  }

  /** Checks the key's limit first (403 even when the wallet could pay), then the wallet (402). */
  async charge(request: ChargeRequest, manager?: EntityManager): Promise<ChargeResult> {
    if (!manager) return this.db.transaction((m) => this.charge(request, m));
    const { userId, amount, apiKeyId } = request;
    if (request.idempotencyKey) {
      const existing = await one<EarlierChargeRow>(manager, 'SELECT id, balance_after_credits FROM ledger_entries WHERE idempotency_key = $1', [
        request.idempotencyKey,
      ]);
      if (existing) return { ledgerEntryId: Number(existing.id), balanceCredits: Number(existing.balance_after_credits), alreadyCharged: true };
    }
    if (amount === 0) {
      const wallet = await this.wallet(userId, manager);
      return { ledgerEntryId: null, balanceCredits: wallet.balanceCredits, alreadyCharged: false };
    }
    if (apiKeyId) {
      const updated = await rows<IdRow>(
        manager,
        `UPDATE api_keys SET spent_credits = spent_credits + $2
          WHERE id = $1 AND (spend_limit_credits IS NULL OR spent_credits + $2 <= spend_limit_credits) RETURNING id`,
        [apiKeyId, amount],
      );
      if (updated.length === 0) {
        const key = await one<KeySpendRow>(manager, 'SELECT spend_limit_credits, spent_credits FROM api_keys WHERE id = $1', [apiKeyId]);
        if (!key) throw notFound('API key');
        throw keySpendLimit(Number(key.spend_limit_credits), Number(key.spent_credits), amount);
      }
    }
    const row = await one<BalanceRow>(
      manager,
      `UPDATE wallets SET balance_credits = balance_credits - $2, updated_at = $3
        WHERE user_id = $1 AND balance_credits >= $2 RETURNING balance_credits`,
      [userId, amount, this.clock.now()],
    );
    if (!row) throw insufficientFunds(amount, (await this.wallet(userId, manager)).balanceCredits);
    const balanceAfter = Number(row.balance_credits);
    try {
      const id = await this.append(manager, {
        userId,
        amount: -amount,
        kind: 'charge',
        reason: request.reason,
        idempotencyKey: request.idempotencyKey,
        apiKeyId,
        jobId: request.jobId,
        balanceAfter,
      });
      return { ledgerEntryId: id, balanceCredits: balanceAfter, alreadyCharged: false };
    } catch (error) {
      if (pgCode(error) === PG.uniqueViolation) {
        throw new DomainError(409, 'already_charged', 'This charge was already made.', {}, { cause: error });
      }
      throw error;
    }
  }

  /** Returns a charge to the wallet and to the key's spent count, once. */
  async refund(chargeEntryId: number, reason: string, manager?: EntityManager): Promise<void> {
    if (!manager) return this.db.transaction((m) => this.refund(chargeEntryId, reason, m));
    const charge = await one<ChargeEntryRow>(
      manager,
      'SELECT user_id, amount_credits, api_key_id, job_id FROM ledger_entries WHERE id = $1 AND kind = $2',
      [chargeEntryId, 'charge'],
    );
    if (!charge) throw notFound('Charge');
    const amount = -Number(charge.amount_credits);
    const row = await one<BalanceRow>(
      manager,
      'UPDATE wallets SET balance_credits = balance_credits + $2, updated_at = $3 WHERE user_id = $1 RETURNING balance_credits',
      [charge.user_id, amount, this.clock.now()],
    );
    if (!row) throw notFound('Wallet');
    if (charge.api_key_id) {
      await rows(manager, 'UPDATE api_keys SET spent_credits = greatest(spent_credits - $2, 0) WHERE id = $1', [charge.api_key_id, amount]);
    }
    await this.append(manager, {
      userId: Number(charge.user_id),
      amount,
      kind: 'refund',
      reason,
      idempotencyKey: `refund:${chargeEntryId}`,
      apiKeyId: charge.api_key_id ? Number(charge.api_key_id) : null,
      jobId: charge.job_id ? Number(charge.job_id) : null,
      balanceAfter: Number(row.balance_credits),
    });
  }

  /** Sum of a job's ledger rows (charges negative): what the job has cost so far. */
  async jobCost(jobId: number): Promise<number> {
    return (await this.jobCosts([jobId])).get(jobId) ?? 0;
  }

  async jobCosts(jobIds: number[]): Promise<Map<number, number>> {
    if (!jobIds.length) return new Map();
    const found = await rows<JobCostRow>(
      this.db,
      'SELECT job_id, coalesce(-sum(amount_credits), 0)::bigint AS cost FROM ledger_entries WHERE job_id = ANY($1) GROUP BY job_id',
      [jobIds],
    );
    return new Map(found.map((r) => [Number(r.job_id), Number(r.cost)]));
  }

  async walletView(userId: number): Promise<WalletView> {
    return walletView(await this.wallet(userId));
  }

  /** Auto-reload may only be enabled with a positive amount, judged on the wallet as it will be after the update. */
  async updateAutoReload(userId: number, update: AutoReloadUpdate): Promise<WalletView> {
    const wallet = await this.wallet(userId);
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

  private async append(
    manager: EntityManager,
    entry: {
      userId: number;
      amount: number;
      kind: LedgerKind;
      reason: string;
      idempotencyKey?: string;
      apiKeyId?: number | null;
      jobId?: number | null;
      balanceAfter: number;
    },
  ): Promise<number> {
    const [row] = await rows<IdRow>(
      manager,
      `INSERT INTO ledger_entries (user_id, amount_credits, kind, reason, idempotency_key, api_key_id, job_id, balance_after_credits)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [
        entry.userId,
        entry.amount,
        entry.kind,
        entry.reason,
        entry.idempotencyKey ?? null,
        entry.apiKeyId ?? null,
        entry.jobId ?? null,
        entry.balanceAfter,
      ],
    );
    return Number(row.id);
  }
}
