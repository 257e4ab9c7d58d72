import { Column, Entity } from 'typeorm';
import { bigintNumber } from './transformers';

export const VALIDATION_STATUSES = ['valid', 'valid_with_ev'] as const;
export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];
export const RDF_SYNC_STATUSES = ['disabled', 'pending', 'synced', 'failed'] as const;
export type RdfSyncStatus = (typeof RDF_SYNC_STATUSES)[number];

/** A validated XML instance with its corrections, JSON rendering and the graph of its triples. */
@Entity('app_instances')
export class AppInstance {
  @Column('bigint', { primary: true, generated: 'increment', transformer: bigintNumber })
  id!: number;

  @Column('text', { name: 'instance_id' })
  instanceId!: string;

  @Column('text', { name: 'dm_ct_id' })
  dmCtId!: string;

  @Column('text', { name: 'dm_label' })
  dmLabel!: string;

  @Column('text', { name: 'validation_status' })
  validationStatus!: ValidationStatus;

  @Column('text', { name: 'storage_type' })
  storageType!: string;

  @Column('text', { name: 'original_xml' })
  originalXml!: string;

  /** null: the corrected text is the original (stored once, migration 0033). */
  @Column('text', { name: 'corrected_xml', nullable: true })
  correctedXml!: string | null;

  @Column('jsonb', { name: 'validation_errors', nullable: true })
  validationErrors!: Record<string, string> | null;

  @Column('jsonb', { name: 'auto_corrected_fields' })
  autoCorrectedFields!: string[];

  @Column('jsonb')
  corrections!: Array<Record<string, unknown>>;

  @Column('json', { name: 'json_rendering' })
  jsonRendering!: unknown;

  @Column('text', { name: 'graph_uri' })
  graphUri!: string;

  @Column('text', { name: 'rdf_sync_status' })
  rdfSyncStatus!: RdfSyncStatus;

  @Column('integer', { name: 'rdf_sync_attempts' })
  rdfSyncAttempts!: number;

  @Column('text', { name: 'rdf_sync_error', nullable: true })
  rdfSyncError!: string | null;

  @Column('timestamptz', { name: 'rdf_synced_at', nullable: true })
  rdfSyncedAt!: Date | null;

  @Column('bigint', { name: 'api_key_id', nullable: true, transformer: bigintNumber })
  apiKeyId!: number | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;
}
