import { Column, Entity } from 'typeorm';
import { bigintNumber } from './transformers';

export const CATALOG_STATUSES = ['draft', 'published', 'retired'] as const;
export type CatalogStatus = (typeof CATALOG_STATUSES)[number];

/** A leaf of a data model: one SDC4 reference-model type with a label. */
@Entity('components')
export class Component {
  @Column('bigint', { primary: true, generated: 'increment', transformer: bigintNumber })
  id!: number;

  @Column('text', { name: 'ct_id' })
  ctId!: string;

  @Column('text')
  label!: string;

  @Column('text', { name: 'data_type' })
  dataType!: string;

  @Column('text', { nullable: true })
  description!: string | null;

  @Column('text', { nullable: true })
  units!: string | null;

  @Column('text')
  status!: CatalogStatus;

  @Column('text', { name: 'successor_ct_id', nullable: true })
  successorCtId!: string | null;

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
