import { Column, CreateDateColumn, Entity, UpdateDateColumn } from 'typeorm';
import { bigintNumber } from './transformers';

@Entity('users')
export class User {
  @Column('bigint', { primary: true, generated: 'increment', transformer: bigintNumber })
  id!: number;

  @Column('text')
  email!: string;

  @Column('text')
  name!: string;

  @Column('text', { name: 'password_hash' })
  passwordHash!: string;

  @Column('boolean', { name: 'is_staff' })
  isStaff!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
