import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { CatalogStatus } from './component.entity';
import { bigintNumber } from './transformers';

/** An ordered group of components and clusters. */
@Entity('clusters')
export class Cluster {
  @Column('bigint', { primary: true, generated: 'increment', transformer: bigintNumber })
  id!: number;

  @Column('text', { name: 'ct_id' })
  ctId!: string;

  @Column('text')
  label!: string;

  @Column('text', { nullable: true })
  description!: string | null;

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

/** One place in a cluster: exactly one of a component or a child cluster. */
@Entity('cluster_children')
export class ClusterChild {
  @PrimaryColumn('bigint', { name: 'cluster_id', transformer: bigintNumber })
  clusterId!: number;

  @PrimaryColumn('integer')
  position!: number;

  @Column('bigint', { name: 'component_id', nullable: true, transformer: bigintNumber })
  componentId!: number | null;

  @Column('bigint', { name: 'child_cluster_id', nullable: true, transformer: bigintNumber })
  childClusterId!: number | null;
}
