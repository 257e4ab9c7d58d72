import { Column, Entity } from 'typeorm';
import { bigintNumber } from './transformers';

/** What a job is about: an uploaded file, or an assembly request kept as JSON. */
@Entity('data_sources')
export class DataSourceRecord {
  @Column('bigint', { primary: true, generated: 'increment', transformer: bigintNumber })
  id!: number;

  @Column('text', { name: 'ct_id' })
  ctId!: string;

  @Column('bigint', { name: 'user_id', transformer: bigintNumber })
  userId!: number;

  @Column('text')
  filename!: string;

  @Column('text', { name: 'content_type', nullable: true })
  contentType!: string | null;

  @Column('bigint', { name: 'size_bytes', transformer: bigintNumber })
  sizeBytes!: number;

  @Column('bytea', { nullable: true })
  content!: Buffer | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;
}
