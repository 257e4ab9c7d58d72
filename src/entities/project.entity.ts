import { Column, Entity } from 'typeorm';
import { bigintNumber } from './transformers';

/** A named group of catalog entries; exactly one is the shared `library`. */
@Entity('projects')
export class Project {
  @Column('bigint', { primary: true, generated: 'increment', transformer: bigintNumber })
  id!: number;

  @Column('text')
  name!: string;

  @Column('bigint', { name: 'owner_id', nullable: true, transformer: bigintNumber })
  ownerId!: number | null;

  @Column('boolean', { name: 'is_library' })
  isLibrary!: boolean;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;
}
