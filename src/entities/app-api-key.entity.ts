import { Column, Entity } from 'typeorm';
import { bigintNumber } from './transformers';

/** An Interface B key: belongs to an organisation, stored as its SHA-256 only. */
@Entity('app_api_keys')
export class AppApiKey {
  @Column('bigint', { primary: true, generated: 'increment', transformer: bigintNumber })
  id!: number;

  @Column('text')
  organization!: string;

  @Column('text', { name: 'contact_email' })
  contactEmail!: string;

  @Column('text', { name: 'key_hash' })
  keyHash!: string;

  @Column('text')
  prefix!: string;

  @Column('boolean', { name: 'is_active' })
  isActive!: boolean;

  @Column('bigint', { name: 'request_count', transformer: bigintNumber })
  requestCount!: number;

  @Column('timestamptz', { name: 'last_used', nullable: true })
  lastUsed!: Date | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'deactivated_at', nullable: true })
  deactivatedAt!: Date | null;

  @Column('bigint', { name: 'replaces_id', nullable: true, transformer: bigintNumber })
  replacesId!: number | null;
}
