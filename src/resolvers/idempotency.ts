import { fingerprintOf, parseIdempotencyKey } from '../http/idempotency';
import type { Caller } from '../services/auth.service';
import type { GraphQLContext } from './context';

export const IDEMPOTENCY_KEY_DOC = 'Idempotency-Key: a retry with the same key and arguments within 24 hours answers the first result.';

/** The `idempotencyKey` argument of a charging or enqueuing mutation: the same key and arguments within 24 hours
 * answer the first result without running the mutation again; the same key with other arguments is 422
 * idempotency_key_reused. Keys are per user and per mutation, as the REST Idempotency-Key header is per route. */
export async function idempotently<T>(
  { services }: GraphQLContext,
  caller: Caller,
  mutation: string,
  key: string | null | undefined,
  args: unknown,
  work: () => Promise<T>,
): Promise<T> {
  const parsed = parseIdempotencyKey(key ?? undefined);
  if (parsed === null) return work();
  const scope = { userId: caller.user.id, key: parsed, operation: `graphql ${mutation}` };
  const stored = await services.idempotency.once(scope, fingerprintOf(args), async () => ({ status: 200, body: await work() }));
  return stored.body as T;
}
