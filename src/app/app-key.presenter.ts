import type { AppApiKey } from '../entities/app-api-key.entity';

/** The fields of an Interface B key that leave the process; never the hash. */
export function presentAppKey(key: AppApiKey) {
  return {
    id: key.id,
    prefix: key.prefix,
    organization: key.organization,
    contact_email: key.contactEmail,
    is_active: key.isActive,
    request_count: key.requestCount,
    last_used: key.lastUsed ? key.lastUsed.toISOString() : null,
    created: key.createdAt.toISOString(),
    deactivated_at: key.deactivatedAt ? key.deactivatedAt.toISOString() : null,
    replaces_id: key.replacesId,
  };
}

export function presentIssuedAppKey(key: AppApiKey, plaintext: string) {
  return { ...presentAppKey(key), key: plaintext };
}
