import type { Migration } from './migration';

/** Every change of what a user's key list shows is announced on `api_keys_changed` (payload: the user id), by
 * whichever writer makes it (the key service, the ledger's spend, a hand-written UPDATE), so each process drops
 * its cached list (src/services/key-cache.ts). last_used_at and held_credits are not shown, so their updates (the
 * usage flush, holds) stay silent. A transaction sends one notification per user, at commit. */
export const apiKeyChanges: Migration = {
  id: '0019-api-key-changes',
  sql: `
CREATE FUNCTION api_keys_announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('api_keys_changed', OLD.user_id::text); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('api_keys_changed', NEW.user_id::text); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER api_keys_inserted_or_deleted AFTER INSERT OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION api_keys_announce_change();
CREATE TRIGGER api_keys_listed_columns_updated AFTER UPDATE ON api_keys
  FOR EACH ROW WHEN (
    (OLD.user_id, OLD.name, OLD.is_legacy, OLD.prefix, OLD.scopes, OLD.spend_limit_credits, OLD.spent_credits,
     OLD.expires_at, OLD.revoked_at, OLD.created_at)
    IS DISTINCT FROM
    (NEW.user_id, NEW.name, NEW.is_legacy, NEW.prefix, NEW.scopes, NEW.spend_limit_credits, NEW.spent_credits,
     NEW.expires_at, NEW.revoked_at, NEW.created_at)
  ) EXECUTE FUNCTION api_keys_announce_change();
`,
};
