import type { Logger } from '../lib/logger';
import { asDomainError } from '../lib/errors';
import type { Caller, Credentials } from '../services/auth.service';
import type { Clock } from '../services/clock';
import type { CredentialEvent } from '../services/credential-events';

/** graphql-ws close code of a socket whose credential stopped working (revoked, expired, signed out, password
 * changed): 4401 "Unauthorized", which graphql-ws clients do not retry. */
const CREDENTIAL_ENDED = 4401;
const CREDENTIAL_ENDED_REASON = 'Credentials revoked or expired';
/** setTimeout's largest delay; a later expiry is re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface ClosableSocket {
  close(code: number, reason: string): void;
}

interface Tracked {
  socket: ClosableSocket;
  userId: number;
  credential: string;
  credentials: Credentials;
  timer: NodeJS.Timeout | null;
}

/** The authenticated sockets of this process, by user: each is closed as soon as its credential stops working,
 * whether another process announced a change (NOTIFY) or the credential's expiry time came. */
export class OpenSockets {
  private readonly byUser = new Map<number, Set<Tracked>>();
  private readonly bySocket = new Map<ClosableSocket, Tracked>();
  private readonly perCredential = new Map<string, number>();
  /** Sequence number of the last credential event per user (0: a resync of everyone). */
  private readonly lastEvent = new Map<number, number>();
  private sequence = 0;

  constructor(
    private readonly auth: { authenticate(credentials: Credentials, options?: { fresh?: boolean }): Promise<Caller | null> },
    private readonly clock: Clock,
    private readonly maxPerCredential: number,
    private readonly logger: Logger,
  ) {}

  /** Marks the start of an authentication, so an event that arrives before `track` is not missed. */
  mark(): number {
    return this.sequence;
  }

  /** Watches an authenticated socket until `untrack`. False, and nothing tracked, when its credential already
   * holds the most sockets allowed. */
  track(socket: ClosableSocket, credentials: Credentials, caller: Caller, mark: number): boolean {
    const credential = caller.via === 'key' ? `key:${caller.key.id}` : `session:${caller.session.id}`;
    const count = this.perCredential.get(credential) ?? 0;
    if (count >= this.maxPerCredential) return false;
    this.perCredential.set(credential, count + 1);
    const tracked: Tracked = { socket, userId: caller.user.id, credential, credentials, timer: null };
    const sockets = this.byUser.get(tracked.userId) ?? new Set<Tracked>();
    this.byUser.set(tracked.userId, sockets.add(tracked));
    this.bySocket.set(socket, tracked);
    this.armExpiry(tracked, caller);
    const missed = Math.max(this.lastEvent.get(tracked.userId) ?? -1, this.lastEvent.get(0) ?? -1) > mark;
    if (missed) void this.recheck(tracked);
    return true;
  }

  untrack(socket: ClosableSocket): void {
    const tracked = this.bySocket.get(socket);
    if (!tracked) return;
    this.bySocket.delete(socket);
    if (tracked.timer) clearTimeout(tracked.timer);
    const sockets = this.byUser.get(tracked.userId)!;
    sockets.delete(tracked);
    if (!sockets.size) this.byUser.delete(tracked.userId);
    const left = (this.perCredential.get(tracked.credential) ?? 1) - 1;
    if (left > 0) this.perCredential.set(tracked.credential, left);
    else this.perCredential.delete(tracked.credential);
  }

  /** A user's credentials changed somewhere (null: events may have been missed, re-check every socket). */
  changed(event: CredentialEvent | null): void {
    this.lastEvent.set(event ? event.userId : 0, ++this.sequence);
    const targets = event ? [...(this.byUser.get(event.userId) ?? [])] : [...this.byUser.values()].flatMap((sockets) => [...sockets]);
    for (const tracked of targets) void this.recheck(tracked);
  }

  private armExpiry(tracked: Tracked, caller: Caller): void {
    if (tracked.timer) clearTimeout(tracked.timer);
    const expiresAt = caller.via === 'key' ? caller.key.expiresAt : caller.session.expiresAt;
    if (!expiresAt) return void (tracked.timer = null);
    const delay = Math.min(Math.max(expiresAt.getTime() - this.clock.now().getTime(), 0), MAX_TIMER_MS);
    tracked.timer = setTimeout(() => void this.recheck(tracked), delay);
    tracked.timer.unref();
  }

  /** Authenticates the socket's credential again: closes the socket if it no longer works, re-arms its expiry
   * otherwise. A database outage keeps the socket (its next operation authenticates anyway). */
  private async recheck(tracked: Tracked): Promise<void> {
    let caller: Caller | null;
    try {
      // From the database, not the key cache: this process's cache may hear of the change after this socket does.
      caller = await this.auth.authenticate(tracked.credentials, { fresh: true });
    } catch (error) {
      if (asDomainError(error)?.status !== 401) return void this.logger.warn({ err: error }, 'socket credential re-check failed');
      caller = null;
    }
    if (this.bySocket.get(tracked.socket) !== tracked) return;
    if (caller) return this.armExpiry(tracked, caller);
    this.untrack(tracked.socket);
    tracked.socket.close(CREDENTIAL_ENDED, CREDENTIAL_ENDED_REASON);
  }
}
