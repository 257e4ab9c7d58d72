import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber } from './transformers';

@Entity('wallets')
export class Wallet {
  @PrimaryColumn('bigint', { name: 'user_id', transformer: bigintNumber })
  userId!: number;

  @Column('bigint', { name: 'balance_credits', transformer: bigintNumber })
  balanceCredits!: number;

  /** Open holds: reserved for admitted jobs, not yet captured or released (never more than the balance). */
  @Column('bigint', { name: 'held_credits', transformer: bigintNumber })
  heldCredits!: number;

  @Column('boolean', { name: 'auto_reload_enabled' })
  autoReloadEnabled!: boolean;

  @Column('bigint', { name: 'auto_reload_threshold_credits', transformer: bigintNumber })
  autoReloadThresholdCredits!: number;

  @Column('bigint', { name: 'auto_reload_amount_credits', transformer: bigintNumber })
  autoReloadAmountCredits!: number;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt!: Date;
}
