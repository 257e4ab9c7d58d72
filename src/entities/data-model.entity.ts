import { Column, Entity } from 'typeorm';
import { CatalogEntry } from './catalog-entry';
import { bigintNumber } from './transformers';

/** A titled model whose tree starts at one root cluster; its package and application are stored files. */
@Entity('data_models')
export class DataModel extends CatalogEntry {
  @Column('text')
  title!: string;

  @Column('text', { nullable: true })
  description!: string | null;

  @Column('bigint', { name: 'root_cluster_id', transformer: bigintNumber })
  rootClusterId!: number;

  /** Contextual references (audit, attestation, party, …) as the assembly request named them. */
  @Column('jsonb')
  contextual!: Record<string, unknown>;

  @Column('boolean')
  published!: boolean;

  @Column('boolean')
  generated!: boolean;

  @Column('text', { name: 'package_path', nullable: true })
  packagePath!: string | null;

  @Column('text', { name: 'app_path', nullable: true })
  appPath!: string | null;
}
