import { Column, Entity } from 'typeorm';
import type { DataType } from '../domain/model-tree';
import { ReusableEntry } from './catalog-entry';

/** A leaf of a data model: one SDC4 reference-model type with a label. */
@Entity('components')
export class Component extends ReusableEntry {
  @Column('text', { name: 'data_type' })
  dataType!: DataType;

  @Column('text', { nullable: true })
  units!: string | null;
}
