import { sql } from '../sql';

/** The Verifiable Settlement Layer's statements (0023): issuer keys, Receipts and their triggers. */

export interface VslKeyRow {
  key_id: string;
  public_key_pem: string;
  private_key_pem: string;
  status: 'active' | 'retired' | 'revoked';
  not_before: Date;
  not_after: Date | null;
  created_at: Date;
}

/** Issuer keys are made, rotated and revoked one at a time across processes. */
export const lockKeys = () => sql("SELECT pg_advisory_xact_lock(hashtext('sdc-gateway:vsl-signing-keys'))");

export const activeKey = () => sql<VslKeyRow>("SELECT * FROM vsl_signing_keys WHERE status = 'active'");

/** Every issuer key: the active one first, then the newest. */
export const allKeys = () => sql<VslKeyRow>("SELECT * FROM vsl_signing_keys ORDER BY status = 'active' DESC, not_before DESC, key_id");

export const insertKey = (row: Omit<VslKeyRow, 'not_after'>) =>
  sql<VslKeyRow>(
    `INSERT INTO vsl_signing_keys (key_id, public_key_pem, private_key_pem, status, not_before, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [row.key_id, row.public_key_pem, row.private_key_pem, row.status, row.not_before, row.created_at],
  );

export const retireActive = (at: Date) =>
  sql<VslKeyRow>("UPDATE vsl_signing_keys SET status = 'retired', not_after = $1 WHERE status = 'active' RETURNING *", [at]);

export const revokeKey = (keyId: string, at: Date) =>
  sql<VslKeyRow>("UPDATE vsl_signing_keys SET status = 'revoked', not_after = coalesce(not_after, $2) WHERE key_id = $1 RETURNING *", [keyId, at]);

export const keyCount = () => sql<{ n: string }>('SELECT count(*) AS n FROM vsl_signing_keys');

export interface VslReceiptRow {
  receipt_id: string;
  user_id: string;
  decision: 'PERMIT' | 'DENY';
  receipt_hash: string;
  receipt_json: string;
  governance_json: string;
}

export const insertReceipt = (row: {
  receiptId: string;
  userId: number;
  apiKeyId: number | null;
  decision: string;
  receiptHash: string;
  receiptJson: string;
  governanceJson: string;
  ledgerEntryId: number | null;
  createdAt: Date;
}) =>
  sql(
    `INSERT INTO vsl_receipts (receipt_id, user_id, api_key_id, decision, receipt_hash, receipt_json, governance_json, ledger_entry_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [row.receiptId, row.userId, row.apiKeyId, row.decision, row.receiptHash, row.receiptJson, row.governanceJson, row.ledgerEntryId, row.createdAt],
  );

export const receiptById = (receiptId: string) =>
  sql<VslReceiptRow>('SELECT receipt_id, user_id, decision, receipt_hash, receipt_json, governance_json FROM vsl_receipts WHERE receipt_id = $1', [
    receiptId,
  ]);

export interface VslTriggerRow {
  key_id: string;
  signature: string;
  signed_at: string;
}

export const triggersOf = (receiptId: string) =>
  sql<VslTriggerRow>('SELECT key_id, signature, signed_at FROM vsl_triggers WHERE receipt_id = $1 ORDER BY id', [receiptId]);

/** One trigger per party: a second from the same party inserts nothing. */
export const insertTrigger = (row: { receiptId: string; keyId: string; signature: string; signedAt: string; keyDocument: string; createdAt: Date }) =>
  sql<{ id: string }>(
    `INSERT INTO vsl_triggers (receipt_id, key_id, signature, signed_at, key_document, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (receipt_id, key_id) DO NOTHING RETURNING id`,
    [row.receiptId, row.keyId, row.signature, row.signedAt, row.keyDocument, row.createdAt],
  );
