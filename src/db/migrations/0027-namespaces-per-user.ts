import type { Migration } from './migration';

/** Namespace prefixes per user (issue 30): a prefix was global and first-come, so one user's `ex` blocked (409) or
 * hijacked (the same prefix, the squatter's URI) everyone else's. Now a prefix is unique among the shared,
 * ownerless namespaces (the seeded and well-known ones) and within each user's own; two users may each hold the
 * same prefix for different URIs. Rows already there keep their owner: what a user registered stays theirs. */
export const namespacesPerUser: Migration = {
  id: '0027-namespaces-per-user',
  sql: `
ALTER TABLE namespaces DROP CONSTRAINT namespaces_abbrev_key;
CREATE UNIQUE INDEX namespaces_shared_abbrev_key ON namespaces (abbrev) WHERE owner_id IS NULL;
CREATE UNIQUE INDEX namespaces_owner_abbrev_key ON namespaces (owner_id, abbrev) WHERE owner_id IS NOT NULL;
`,
};
