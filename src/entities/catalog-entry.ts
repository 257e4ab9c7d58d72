import { Column } from 'typeorm';
import { bigintNumber } from './transformers';

export const CATALOG_STATUSES = ['draft', 'published', 'retired'] as const;
export type CatalogStatus = (typeof CATALOG_STATUSES)[number];

/** What every catalog row has: its ct_id, the project and owner it belongs to, and the idempotency key of the
 * job step that minted it (null when it was not minted by a job). */
export abstract class CatalogEntry {
  @Column('bigint', { primary: true, generated: 'increment', transformer: bigintNumber })
  id!: number;

  @Column('text', { name: 'ct_id' })
  ctId!: string;

  @Column('bigint', { name: 'project_id', transformer: bigintNumber })
  projectId!: number;

  @Column('bigint', { name: 'owner_id', nullable: true, transformer: bigintNumber })
  ownerId!: number | null;

  @Column('text', { name: 'mint_key', nullable: true })
  mintKey!: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt!: Date;
}

/** A component or cluster: labelled, reusable once published, replaced by a successor when retired. */
export abstract class ReusableEntry extends CatalogEntry {
  @Column('text')
  label!: string;

  @Column('text', { nullable: true })
  description!: string | null;

  @Column('text')
  status!: CatalogStatus;

  @Column('text', { name: 'successor_ct_id', nullable: true })
  successorCtId!: string | null;
}
