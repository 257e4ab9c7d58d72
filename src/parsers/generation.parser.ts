import type { JobKind } from '../entities/job.entity';
import { DomainError } from '../lib/errors';
import { APP_PROFILES, type AppProfile } from '../packages/app-compose';

export type GenerationKind = Extract<JobKind, 'generate_package' | 'generate_app'>;

export interface GenerationRequest {
  kind: GenerationKind;
  dmCtId: string;
  profile: AppProfile;
}

/** An application profile as a request names it: absent or empty is `os`; anything but os or enterprise is a 400. */
export function parseAppProfile(value: unknown): AppProfile {
  if (value === undefined || value === null || value === '') return 'os';
  if (!(APP_PROFILES as readonly unknown[]).includes(value)) {
    throw new DomainError(400, 'invalid_request', 'profile must be os or enterprise.', { details: { profile: ['os or enterprise'] } });
  }
  return value as AppProfile;
}

/** What a generate request asks for: a package has no profile; an application's defaults to `os`. */
export function parseGenerationRequest(kind: GenerationKind, dmCtId: string, profile: unknown): GenerationRequest {
  return { kind, dmCtId, profile: kind === 'generate_app' ? parseAppProfile(profile) : 'os' };
}

/** REST-compat's `async`: `?async=1` or `?async=true`, or `"async": true` in the body. */
export function parseAsyncFlag(query: unknown, body: unknown): boolean {
  return query === '1' || query === 'true' || body === true;
}
