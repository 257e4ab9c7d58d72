import { parseJsonObject } from '../lib/body-text';
import { settle, type Outcome } from './outcome';
import { applyThreadSettings } from './thread-setup';

applyThreadSettings();

/** A large JSON request body decoded and parsed off the event loop (see OFF_LOOP_JSON_BYTES). */
export function jsonObject(raw: Uint8Array): Promise<Outcome<Record<string, unknown>>> {
  return settle(() => parseJsonObject(raw));
}
