import type { Static } from '../lib/json-schema';
import type { sessionSchema, userSchema } from './user.schema';
import type { User } from '../entities/user.entity';

/** The fields of a user that leave the process; never the password hash. userSchema's body in camelCase. */
export interface UserView {
  id: number;
  email: string;
  name: string;
  isStaff: boolean;
}

/** A new session's public part; its token travels only in the HttpOnly cookie. */
export interface SessionView {
  user: UserView;
  csrfToken: string;
  expiresAt: Date;
}

export function userView(user: User): UserView {
  return { id: user.id, email: user.email, name: user.name, isStaff: user.isStaff };
}

export function renderUser(view: UserView): Static<typeof userSchema> {
  return { id: view.id, email: view.email, name: view.name, is_staff: view.isStaff };
}

export function renderSession(view: SessionView): Static<typeof sessionSchema> {
  return { user: renderUser(view.user), csrf_token: view.csrfToken, expires_at: view.expiresAt.toISOString() };
}
