import type { DataSource } from 'typeorm';
import { modelPackageRow } from '../db/queries/packages.sql';
import { schemaContent, schemaVersions } from '../db/queries/schemas.sql';
import { query, queryOne } from '../db/sql';
import { transactionRetried } from '../db/transaction';
import { DomainError, notFound } from '../lib/errors';
import type { Links } from '../lib/links';
import type { HostedSchemaView, SchemaVersionsView } from '../presenters/schema-hosting.presenter';
import type { PackageService } from './package.service';
import type { SchemaArchive } from './schema-archive';

/** Published model schemas at `/dmlib/`: each version is kept with its sha256; a new schema for a model archives
 * the current one, so a published schema never changes in place. */

export class SchemaHostingService {
  constructor(
    private readonly db: DataSource,
    private readonly archive: SchemaArchive,
    private readonly packages: PackageService,
    private readonly links: Links,
  ) {}

  schemaUrl(dmCtId: string, sha256?: string): string {
    return this.links.dmlib(dmCtId, sha256);
  }

  /** The current schema of a published model (or the version named by its sha256); recorded on first request. */
  async schema(dmCtId: string, version: string | null): Promise<HostedSchemaView> {
    await this.requirePublished(dmCtId);
    let row = await queryOne(this.db, schemaContent(dmCtId, version));
    if (!row && version === null) {
      await this.recordCurrent(dmCtId);
      row = await queryOne(this.db, schemaContent(dmCtId, null));
    }
    if (!row) throw new DomainError(404, 'not_found', `Data model ${dmCtId} has no schema version ${version}.`, { dm_ct_id: dmCtId });
    return { fileName: `dm-${dmCtId}.xsd`, sha256: row.sha256, content: row.content };
  }

  async versions(dmCtId: string): Promise<SchemaVersionsView> {
    const current = await this.schema(dmCtId, null);
    const versions = await query(this.db, schemaVersions(dmCtId));
    return {
      dmCtId,
      currentSha256: current.sha256,
      schemaUrl: this.schemaUrl(dmCtId),
      versions: versions.map((v) => ({
        sha256: v.sha256,
        size: v.size,
        archivedAt: v.archived_at,
        current: v.archived_at === null,
        url: this.schemaUrl(dmCtId, v.sha256),
      })),
    };
  }

  private async recordCurrent(dmCtId: string): Promise<void> {
    const content = await this.packages.modelXsd(dmCtId);
    await transactionRetried(this.db, (manager) => this.archive.record(manager, dmCtId, content));
  }

  /** `/dmlib/` is public: only published models have schemas there. */
  private async requirePublished(dmCtId: string): Promise<void> {
    const model = await queryOne(this.db, modelPackageRow(dmCtId));
    if (!model?.published) throw notFound('Data model');
  }
}
