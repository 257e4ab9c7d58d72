import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ReusableEntry } from './catalog-entry';
import { bigintNumber } from './transformers';

/** An ordered group of components and clusters. */
@Entity('clusters')
export class Cluster extends ReusableEntry {}

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
