import type { DataSource } from 'typeorm';
import { prepared } from '../db/prepared';
import { apiKeyOf, studioKeyByHash, type StudioKeyRow } from '../db/queries/auth.sql';
import {
  deleteSession,
  failureCounts,
  forgetFailedAttempts,
  insertLoginAttempt,
  insertSession,
  lockLoginAttempts,
  markAttemptSucceeded,
} from '../db/queries/sessions.sql';
import { userByEmail, userOf } from '../db/queries/users.sql';
import { query, queryOne } from '../db/sql';
import { transactionRetried } from '../db/transaction';
import type { ApiKey, Scope } from '../entities/api-key.entity';
import { Session } from '../entities/session.entity';
import { User } from '../entities/user.entity';
import { constantTimeEqual, hashPassword, randomToken, sha256Hex, verifyPassword } from '../lib/crypto';
import { DomainError, csrfFailed, forbidden, keyScope, sessionRequired, tooManyAttempts, unauthenticated } from '../lib/errors';
import { userView, type SessionView } from '../presenters/user.presenter';
import type { Clock } from './clock';
import { announceCredentialChange } from './credential-events';
import type { KeyCache } from './key-cache';

/** Who is calling: a signed-in session or an Interface A API key, always on behalf of one user. */
export type Caller = { user: User; via: 'session'; key: null; session: Session } | { user: User; via: 'key'; key: ApiKey; session: null };

/** A new session: its public view, and the token that only the HttpOnly cookie carries. */
export interface SignedIn extends SessionView {
  token: string;
}

/** What an operation declares it needs. Every REST route and GraphQL field names exactly one. */
export type Requirement = 'public' | Scope | 'session' | 'staff';

export interface Credentials {
  authorization?: string;
  sessionToken?: string;
}

export interface AuthSettings {
  sessionTtlHours: number;
  loginMaxFailuresPerAccount: number;
  loginMaxFailuresPerAddress: number;
  loginWindowSeconds: number;
}

const MAX_CREDENTIAL_LENGTH = 512;
/** Advisory-lock classes (the first key of the two-key form) that serialise login attempts. */
const LOCK_ACCOUNT = 7301;
const LOCK_ADDRESS = 7302;

export class AuthService {
  /** The last queued login attempt per account (normalised email). */
  private readonly accountTurns = new Map<string, Promise<void>>();

  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly settings: AuthSettings,
    private readonly keyCache: KeyCache,
  ) {}

  /** Signs in; failures are throttled per account and per address within a sliding window, so a guesser is
   * slowed down but the real user is never locked out for longer than the window. The email is normalised once
   * (trimmed, case-folded) for both the throttle and the lookup, and the attempt is recorded before the password
   * is checked, so neither spelling variants nor concurrency buy extra guesses. Attempts on one account run one
   * after another in this process, so concurrent right passwords are not refused for each other's sake. */
  async login(email: string, password: string, address: string): Promise<SignedIn> {
    const account = email.trim().toLowerCase();
    const previous = this.accountTurns.get(account) ?? Promise.resolve();
    const attempt = previous.then(() => this.attemptLogin(account, password, address));
    const settled = attempt.then(
      () => undefined,
      () => undefined,
    );
    this.accountTurns.set(account, settled);
    try {
      return await attempt;
    } finally {
      if (this.accountTurns.get(account) === settled) this.accountTurns.delete(account);
    }
  }

  private async attemptLogin(account: string, password: string, address: string): Promise<SignedIn> {
    const now = this.clock.now();
    const attemptId = await this.admitAttempt(account, address, now);
    const found = await queryOne(this.db, userByEmail(account));
    const user = found && userOf(found);
    // An unknown email is checked against a dummy hash of the same cost, so the answer takes as long either way
    // and its timing does not tell which emails have an account.
    const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
    if (!user || !ok) throw new DomainError(400, 'invalid_credentials', 'Unable to sign in with the provided credentials.');
    await query(this.db, markAttemptSucceeded(attemptId));
    await query(this.db, forgetFailedAttempts(account));
    const token = randomToken(48);
    const csrfToken = randomToken(32);
    const expiresAt = new Date(now.getTime() + this.settings.sessionTtlHours * 3600 * 1000);
    await query(this.db, insertSession({ tokenHash: sha256Hex(token), csrfToken, userId: user.id, createdAt: now, expiresAt }));
    return { user: userView(user), token, csrfToken, expiresAt };
  }

  /** Counts the window's failures (attempts in flight included) and records this attempt as one, under
   * transaction-scoped advisory locks taken per account then per address, so concurrent guesses queue for the
   * count instead of all passing it. A refused attempt is not recorded. Returns the attempt's id. */
  private async admitAttempt(account: string, address: string, now: Date): Promise<number> {
    const since = new Date(now.getTime() - this.settings.loginWindowSeconds * 1000);
    return transactionRetried(this.db, async (manager) => {
      await query(manager, lockLoginAttempts(LOCK_ACCOUNT, account));
      await query(manager, lockLoginAttempts(LOCK_ADDRESS, address));
      const [counts] = await query(manager, failureCounts(account, address, since));
      if (counts.account >= this.settings.loginMaxFailuresPerAccount || counts.address >= this.settings.loginMaxFailuresPerAddress) {
        throw tooManyAttempts(this.settings.loginWindowSeconds);
      }
      const [attempt] = await query(manager, insertLoginAttempt(account, address, now));
      return Number(attempt.id);
    });
  }

  /** Ends the session and tells every process, so its open sockets close too. */
  async logout(sessionToken: string | undefined): Promise<void> {
    if (!sessionToken) return;
    const ended = await queryOne(this.db, deleteSession(sha256Hex(sessionToken)));
    if (ended) await announceCredentialChange(this.db, Number(ended.user_id));
  }

  /** Resolves credentials to a caller. A key header wins over a cookie; a bad key is a 401 even with a valid
   * session, so a script never silently acts as the browser's user. Invalid, revoked and expired keys get one
   * indistinguishable answer. `fresh` reads a key from the database even when the key cache holds it. */
  async authenticate(credentials: Credentials, options: { fresh?: boolean } = {}): Promise<Caller | null> {
    if (credentials.authorization !== undefined) return this.authenticateKey(credentials.authorization, options.fresh === true);
    if (credentials.sessionToken !== undefined) return this.authenticateSession(credentials.sessionToken);
    return null;
  }

  /** From the key cache when it holds the key (src/services/key-cache.ts), else one prepared statement that
   * reads the key and its user together. last_used_at is counted in memory and written within a second. */
  private async authenticateKey(header: string, fresh: boolean): Promise<Caller> {
    const match = /^Token\s+(\S+)$/i.exec(header.trim());
    if (!match || header.length > MAX_CREDENTIAL_LENGTH) throw unauthenticated();
    const presented = sha256Hex(match[1]);
    const now = this.clock.now();
    let found = fresh ? null : this.keyCache.studioKey(presented);
    if (!found) {
      const mark = this.keyCache.mark();
      const [row] = await prepared(this.db, studioKeyByHash(presented));
      if (!row || !constantTimeEqual(row.key_hash, presented)) throw unauthenticated();
      found = studioKey(row);
      // A revoked key is not kept: it can never work again, and the cache holds what may.
      if (!found.key.revokedAt) this.keyCache.keepStudioKey(presented, found, mark);
    }
    const { user, key } = found;
    if (key.revokedAt || (key.expiresAt && key.expiresAt <= now)) throw unauthenticated();
    this.keyCache.touchStudioKey(key.id, now);
    return { user, via: 'key', key, session: null };
  }

  private async authenticateSession(token: string): Promise<Caller | null> {
    if (token.length > MAX_CREDENTIAL_LENGTH) return null;
    const session = await this.db.manager.findOneBy(Session, { tokenHash: sha256Hex(token) });
    if (!session || session.expiresAt <= this.clock.now()) return null;
    const user = await this.db.manager.findOneByOrFail(User, { id: session.userId });
    return { user, via: 'session', key: null, session };
  }

  /** The one authorization rule for both transports. `csrfToken` is the X-CSRFToken header of an unsafe
   * session request (null for safe methods and for GraphQL, which relies on Apollo's CSRF prevention). */
  authorize(caller: Caller | null, requirement: Requirement, csrf?: { unsafe: boolean; token: string | undefined }): Caller | null {
    if (requirement === 'public') return caller;
    if (!caller) throw unauthenticated();
    if (caller.via === 'session' && csrf?.unsafe) {
      if (!csrf.token || !constantTimeEqual(csrf.token, caller.session.csrfToken)) throw csrfFailed();
    }
    if (requirement === 'staff') {
      if (!caller.user.isStaff) throw forbidden();
      return caller;
    }
    if (requirement === 'session') {
      if (caller.via !== 'session') throw sessionRequired();
      return caller;
    }
    if (caller.via === 'key' && !caller.key.scopes.includes(requirement)) throw keyScope(requirement, caller.key.scopes);
    return caller;
  }
}

/** The entities of a key row (the shapes TypeORM would have built). */
function studioKey(row: StudioKeyRow): { user: User; key: ApiKey } {
  const key = apiKeyOf(row);
  const user = Object.assign(new User(), {
    id: Number(row.user_id),
    email: row.email,
    name: row.user_name,
    passwordHash: row.password_hash,
    isStaff: row.is_staff,
    createdAt: row.user_created_at,
    updatedAt: row.user_updated_at,
  });
  return { user, key };
}

/** A real scrypt hash (same parameters as every stored one) of a random password nobody knows, made once. */
let dummyHash: Promise<string> | null = null;
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomToken(32));
  return dummyHash;
}
