import type { DataSource } from 'typeorm';
import { newId } from '../lib/ids';
import { insertDefaultProject } from '../db/queries/projects.sql';
import { deleteSessionsOf } from '../db/queries/sessions.sql';
import { insertWallet, userByEmail, userOf } from '../db/queries/users.sql';
import { query, queryOne } from '../db/sql';
import { transactionRetried } from '../db/transaction';
import { User } from '../entities/user.entity';
import { badRequest, conflict, notFound, pgCode, PG } from '../lib/errors';
import { hashPassword } from '../lib/crypto';
import { normaliseEmail, type ProfileUpdate } from '../parsers/users.parser';
import { userView, type UserView } from '../presenters/user.presenter';
import { announceCredentialChange } from './credential-events';
import type { KeyCache } from './key-cache';

const MIN_PASSWORD_LENGTH = 8;

export interface NewUser {
  email: string;
  password: string;
  name?: string;
  isStaff?: boolean;
}

async function hashNewPassword(password: string): Promise<string> {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw badRequest('The password must have at least 8 characters.', { details: { password: ['Too short.'] } });
  }
  return hashPassword(password);
}

export class UsersService {
  constructor(
    private readonly db: DataSource,
    private readonly keyCache?: KeyCache,
  ) {}

  /** A key caches its user (src/services/key-cache.ts): a changed user is dropped here at once and announced to
   * every other process. */
  private async changed(userId: number): Promise<void> {
    this.keyCache?.userChanged(userId);
    await announceCredentialChange(this.db, userId);
  }

  /** Creates a user, their empty wallet and their default project together; the email is checked here because the CLI is an edge too. */
  async create(input: NewUser): Promise<User> {
    const email = normaliseEmail(input.email);
    const passwordHash = await hashNewPassword(input.password);
    try {
      return await transactionRetried(this.db, async (manager) => {
        const user = await manager.save(manager.create(User, { email, name: input.name ?? '', passwordHash, isStaff: input.isStaff ?? false }));
        await query(manager, insertWallet(user.id));
        await query(manager, insertDefaultProject(newId(), user.id, email));
        return user;
      });
    } catch (error) {
      if (pgCode(error) === PG.uniqueViolation) throw conflict('email_taken', 'A user with this email already exists.');
      throw error;
    }
  }

  async findByEmail(email: string): Promise<User | null> {
    const row = await queryOne(this.db, userByEmail(email.trim()));
    return row ? userOf(row) : null;
  }

  async requireByEmail(email: string): Promise<User> {
    const user = await this.findByEmail(email);
    if (!user) throw notFound('User');
    return user;
  }

  async get(id: number): Promise<User> {
    const user = await this.db.manager.findOneBy(User, { id });
    if (!user) throw notFound('User');
    return user;
  }

  /** PATCH profile: name and the account's recovery email. */
  async updateProfile(userId: number, update: ProfileUpdate): Promise<UserView> {
    const user = await this.get(userId);
    if (update.name !== undefined) user.name = update.name;
    if (update.email !== undefined) user.email = update.email;
    try {
      const saved = userView(await this.db.manager.save(user));
      await this.changed(userId);
      return saved;
    } catch (error) {
      if (pgCode(error) === PG.uniqueViolation) throw conflict('email_taken', 'A user with this email already exists.');
      throw error;
    }
  }

  /** Every account, oldest first (the CLI's `user list`). */
  async list(): Promise<User[]> {
    return this.db.manager.find(User, { order: { id: 'ASC' } });
  }

  async setStaff(email: string, isStaff: boolean): Promise<User> {
    const user = await this.requireByEmail(email);
    user.isStaff = isStaff;
    const saved = await this.db.manager.save(user);
    await this.changed(user.id);
    return saved;
  }

  /** A new password ends every session of the account: whoever held the old one is signed out. */
  async resetPassword(email: string, password: string): Promise<User> {
    const passwordHash = await hashNewPassword(password);
    const user = await this.requireByEmail(email);
    return transactionRetried(this.db, async (manager) => {
      user.passwordHash = passwordHash;
      await query(manager, deleteSessionsOf(user.id));
      await announceCredentialChange(manager, user.id);
      return manager.save(user);
    });
  }
}
