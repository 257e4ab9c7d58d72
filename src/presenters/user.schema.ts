import { bool, dateTime, int, obj, str } from '../lib/json-schema';

/** renderUser's body. */
export const userSchema = obj({ id: int(), email: str(), name: str(), is_staff: bool });
/** renderSession's body. */
export const sessionSchema = obj({ user: userSchema, csrf_token: str(), expires_at: dateTime });
