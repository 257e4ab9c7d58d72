import { Column, Entity } from 'typeorm';
import { bigintNumber } from './transformers';

@Entity('sessions')
export class Session {
  @Column('bigint', { primary: true, generated: 'increment', transformer: bigintNumber })
  id!: number;

  @Column('text', { name: 'token_hash' })
  tokenHash!: string;

  @Column('text', { name: 'csrf_token' })
  csrfToken!: string;

  @Column('bigint', { name: 'user_id', transformer: bigintNumber })
  userId!: number;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt!: Date;
}
