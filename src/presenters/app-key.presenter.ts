import type { AppApiKey } from '../entities/app-api-key.entity';

/** The fields of an Interface B key that leave the process; never the hash. */
export interface AppKeyView {
  id: number;
  prefix: string;
  organization: string;
  contactEmail: string;
  isActive: boolean;
  requestCount: number;
  lastUsed: string | null;
  createdAt: string;
  deactivatedAt: string | null;
  replacesId: number | null;
}

/** A key just created or rotated, with its plaintext (shown once, never stored). */
export interface IssuedAppKeyView {
  key: AppKeyView;
  plaintext: string;
}

export function presentAppKey(key: AppApiKey): AppKeyView {
  return {
    id: key.id,
    prefix: key.prefix,
    organization: key.organization,
    contactEmail: key.contactEmail,
    isActive: key.isActive,
    requestCount: key.requestCount,
    lastUsed: key.lastUsed ? key.lastUsed.toISOString() : null,
    createdAt: key.createdAt.toISOString(),
    deactivatedAt: key.deactivatedAt ? key.deactivatedAt.toISOString() : null,
    replacesId: key.replacesId,
  };
}

export function renderAppKey(view: AppKeyView) {
  return {
    id: view.id,
    prefix: view.prefix,
    organization: view.organization,
    contact_email: view.contactEmail,
    is_active: view.isActive,
    request_count: view.requestCount,
    last_used: view.lastUsed,
    created: view.createdAt,
    deactivated_at: view.deactivatedAt,
    replaces_id: view.replacesId,
  };
}

export function renderIssuedAppKey(issued: IssuedAppKeyView) {
  return { ...renderAppKey(issued.key), key: issued.plaintext };
}
