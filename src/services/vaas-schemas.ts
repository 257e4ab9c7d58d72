import type { DataSource } from 'typeorm';
import { visibleModelId } from '../db/queries/catalog.sql';
import { vaasModel, type VaasModelRow } from '../db/queries/vaas.sql';
import { prepared } from '../db/prepared';
import { notFound } from '../lib/errors';
import type { SchemaSets, VaasSchemaSet } from '../validation';
import type { PackageService } from './package.service';
import type { SchemaHostingService } from './schema-hosting.service';

/** How long a model found visible to a caller (with its current schema's sha256) is used without asking the
 * database again. Several processes share the database and nothing tells this one of another's change, so this is
 * the limit: a model unpublished, made private or given a new schema version is seen so for at most this long. */
export const VAAS_MODEL_TTL_MS = 1000;
/** Entries kept at most (caller × model); past it the cache starts over. */
const MAX_MODELS = 10_000;

export interface VaasModel {
  dmCtId: string;
  title: string;
  /** The model's XSD as the studio serves it (`/dmlib/dm-{ct_id}.xsd` for a published model). */
  xsd: string;
  schema: VaasSchemaSet;
}

/**
 * The model an instance names and its schema: a published model (public project) or one of the caller's own
 * (drafts included), else 404 as if it did not exist. A published model's schema is the hosted current version
 * (`published_schemas`, what `/dmlib/` serves); a draft's is generated from its tree. Schema sets are gathered
 * once per schema sha256 in validation's one schema-set cache (SchemaSets) and compiled once per worker thread.
 * A model found visible is kept for VAAS_MODEL_TTL_MS per caller (a refusal is never kept), so a caller's burst of
 * requests asks the database once a second, not once a request.
 */
export class VaasSchemas {
  constructor(
    private readonly db: DataSource,
    private readonly hosting: SchemaHostingService,
    private readonly packages: PackageService,
    private readonly sets: SchemaSets,
  ) {}

  private readonly found = new Map<string, { row: VaasModelRow; until: number }>();

  /** The model the instance names, if the caller may validate against it (404 otherwise), with its current
   * schema's sha256 (the catalog's visibility rule, one prepared statement). */
  async model(dmCtId: string, userId: number): Promise<VaasModelRow> {
    const key = `${userId}:${dmCtId}`;
    const now = performance.now();
    const kept = this.found.get(key);
    if (kept && kept.until > now) return kept.row;
    const [found] = await prepared(this.db, { name: 'vaas_model', ...vaasModel(visibleModelId(dmCtId, userId)) });
    if (!found) {
      this.found.delete(key);
      throw notFound('Data model');
    }
    if (this.found.size >= MAX_MODELS) this.found.clear();
    this.found.set(key, { row: found, until: now + VAAS_MODEL_TTL_MS });
    return found;
  }

  /** A published model's schema set comes from the cache by sha256 without a query once gathered. */
  async schemaOf(model: VaasModelRow): Promise<VaasModel> {
    const dmCtId = model.ct_id;
    const set = model.published
      ? await this.sets.forStudioModel(dmCtId, model.sha256, async () => {
          const hosted = await this.hosting.schema(dmCtId, null);
          return { xsd: hosted.content.toString('utf8'), sha256: hosted.sha256 };
        })
      : await this.sets.forStudioModel(dmCtId, null, async () => ({ xsd: (await this.packages.modelXsd(dmCtId)).toString('utf8'), sha256: null }));
    return { dmCtId, title: model.title, ...set };
  }
}
