import { Column, Entity } from 'typeorm';
import { bigintNumber } from './transformers';

export const SCOPES = ['read', 'build', 'spend'] as const;
export type Scope = (typeof SCOPES)[number];
export const KEY_STATUSES = ['active', 'revoked', 'expired'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

@Entity('api_keys')
export class ApiKey {
  @Column('bigint', { primary: true, generated: 'increment', transformer: bigintNumber })
  id!: number;

  @Column('bigint', { name: 'user_id', transformer: bigintNumber })
  userId!: number;

  @Column('text', { nullable: true })
  name!: string | null;

  @Column('boolean', { name: 'is_legacy' })
  isLegacy!: boolean;

  @Column('text', { name: 'key_hash' })
  keyHash!: string;

  @Column('text')
  prefix!: string;

  @Column('text', { array: true })
  scopes!: Scope[];

  @Column('bigint', { name: 'spend_limit_credits', nullable: true, transformer: bigintNumber })
  spendLimitCredits!: number | null;

  @Column('bigint', { name: 'spent_credits', transformer: bigintNumber })
  spentCredits!: number;

  /** Open holds of this key's queued jobs; they count against the spend limit. */
  @Column('bigint', { name: 'held_credits', transformer: bigintNumber })
  heldCredits!: number;

  @Column('timestamptz', { name: 'expires_at', nullable: true })
  expiresAt!: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt!: Date | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;
}

export function keyStatus(key: Pick<ApiKey, 'revokedAt' | 'expiresAt'>, now: Date): KeyStatus {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt <= now) return 'expired';
  return 'active';
}
