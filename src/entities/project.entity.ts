import { Column, Entity } from 'typeorm';
import { bigintNumber } from './transformers';

/** A named group of catalog entries; exactly one is the shared `library`, and each user has one default. */
@Entity('projects')
export class Project {
  @Column('bigint', { primary: true, generated: 'increment', transformer: bigintNumber })
  id!: number;

  @Column('text', { name: 'ct_id' })
  ctId!: string;

  @Column('text')
  name!: string;

  @Column('bigint', { name: 'owner_id', nullable: true, transformer: bigintNumber })
  ownerId!: number | null;

  @Column('boolean', { name: 'is_library' })
  isLibrary!: boolean;

  /** Published entries of a public project are readable by anyone, without credentials. */
  @Column('boolean', { name: 'is_public' })
  isPublic!: boolean;

  /** The owner's default project: where assembly files the components it mints. */
  @Column('boolean', { name: 'is_default' })
  isDefault!: boolean;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;
}
