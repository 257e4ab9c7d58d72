import { invalidInstanceId } from '../lib/app-api-errors';
import { newId } from '../lib/ids';

/** An instance's own id, when it is kept (`generate_instance_id=false`): it names a graph and a URL segment. */
const OWN_INSTANCE_ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/;

/**
 * The instance-id rule, in one place: a generated id is `i-{cuid2}`, or `i-ev-{cuid2}` when EV corrections were
 * made; a kept one is the instance's own `<instance_id>` (400 INVALID_INSTANCE_ID when it is missing or malformed,
 * and, once storing finds it used, when it is taken: `instanceIdTaken`).
 */
export function instanceIdFor(metadata: Record<string, string> | undefined, options: { generate: boolean; corrected: boolean }): string {
  if (options.generate) return `${options.corrected ? 'i-ev-' : 'i-'}${newId()}`;
  const own = metadata?.instance_id?.trim();
  if (!own) throw invalidInstanceId('generate_instance_id is false but the XML has no instance_id.', null);
  if (!OWN_INSTANCE_ID.test(own)) {
    throw invalidInstanceId(
      'The XML\'s instance_id must be 1-200 characters of letters, digits, ".", "_", "~" and "-", starting with a letter or digit.',
      own.slice(0, 200),
    );
  }
  return own;
}

/** The answer when an instance's id is already stored. */
export const instanceIdTaken = (instanceId: string) => invalidInstanceId(`instance_id ${instanceId} is already taken.`, instanceId);
