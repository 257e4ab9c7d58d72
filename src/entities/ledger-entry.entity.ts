import { Column, Entity } from 'typeorm';
import { bigintNumber } from './transformers';

/** hold, capture and release move credits between a wallet's available and held parts, not its balance. */
export type LedgerKind = 'credit' | 'charge' | 'refund' | 'hold' | 'capture' | 'release';

/** Append-only (a trigger refuses UPDATE and DELETE). Charges are negative, credits and refunds positive. */
@Entity('ledger_entries')
export class LedgerEntry {
  @Column('bigint', { primary: true, generated: 'increment', transformer: bigintNumber })
  id!: number;

  @Column('bigint', { name: 'user_id', transformer: bigintNumber })
  userId!: number;

  @Column('bigint', { name: 'amount_credits', transformer: bigintNumber })
  amountCredits!: number;

  @Column('text')
  kind!: LedgerKind;

  @Column('text')
  reason!: string;

  @Column('text', { name: 'idempotency_key', nullable: true })
  idempotencyKey!: string | null;

  @Column('bigint', { name: 'api_key_id', nullable: true, transformer: bigintNumber })
  apiKeyId!: number | null;

  @Column('bigint', { name: 'job_id', nullable: true, transformer: bigintNumber })
  jobId!: number | null;

  @Column('bigint', { name: 'balance_after_credits', transformer: bigintNumber })
  balanceAfterCredits!: number;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;
}
