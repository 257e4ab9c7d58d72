import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { visibleModelId } from '../db/queries/catalog.sql';
import { vaasModel, type VaasModelRow } from '../db/queries/vaas.sql';
import { prepared } from '../db/prepared';
import { DomainError, notFound } from '../lib/errors';
import type { VaasSchemaSet } from '../workers/vaas.task';
import { gatherSchemaSet, type SchemaResolver } from '../xml/schema-set';
import { SchemaCompileError } from '../xml/xml-errors';
import type { PackageService } from './package.service';
import type { SchemaHostingService } from './schema-hosting.service';

const MAX_MODELS = 64;

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
 * once per schema sha256 (sdc4.xsd and other includes resolved) and compiled once per worker thread.
 */
export class VaasSchemas {
  private readonly bySha = new Map<string, Promise<{ xsd: string; schema: VaasSchemaSet }>>();

  constructor(
    private readonly db: DataSource,
    private readonly hosting: SchemaHostingService,
    private readonly packages: PackageService,
    private readonly resolver: SchemaResolver,
  ) {}

  /** The model the instance names, if the caller may validate against it (404 otherwise), with its current
   * schema's sha256 (the catalog's visibility rule, one prepared statement). */
  async model(dmCtId: string, userId: number): Promise<VaasModelRow> {
    const [found] = await prepared(this.db, { name: 'vaas_model', ...vaasModel(visibleModelId(dmCtId, userId)) });
    if (!found) throw notFound('Data model');
    return found;
  }

  /** A published model's schema set comes from the cache by sha256 without a query once gathered. */
  async schemaOf(model: VaasModelRow): Promise<VaasModel> {
    const dmCtId = model.ct_id;
    let set: { xsd: string; schema: VaasSchemaSet };
    if (model.published) {
      set = model.sha256 && this.bySha.has(model.sha256) ? await this.cached(model.sha256) : await this.published(dmCtId);
    } else {
      const xsd = (await this.packages.modelXsd(dmCtId)).toString('utf8');
      set = await this.gathered(createHash('sha256').update(xsd).digest('hex'), dmCtId, xsd);
    }
    return { dmCtId, title: model.title, ...set };
  }

  private async published(dmCtId: string) {
    const hosted = await this.hosting.schema(dmCtId, null);
    return this.gathered(hosted.sha256, dmCtId, hosted.content.toString('utf8'));
  }

  private cached(sha256: string) {
    const entry = this.bySha.get(sha256)!;
    this.bySha.delete(sha256);
    this.bySha.set(sha256, entry);
    return entry;
  }

  private gathered(sha256: string, dmCtId: string, xsd: string) {
    if (this.bySha.has(sha256)) return this.cached(sha256);
    const entry = this.gather(dmCtId, xsd);
    this.bySha.set(sha256, entry);
    entry.catch(() => this.bySha.delete(sha256));
    while (this.bySha.size > MAX_MODELS) this.bySha.delete(this.bySha.keys().next().value as string);
    return entry;
  }

  private async gather(dmCtId: string, xsd: string): Promise<{ xsd: string; schema: VaasSchemaSet }> {
    const name = `dm-${dmCtId}.xsd`;
    try {
      const set = await gatherSchemaSet({ name, content: xsd }, this.resolver);
      return { xsd, schema: { key: set.key, documents: set.documents.map((d) => ({ location: d.location, name: d.name, text: d.text })) } };
    } catch (error) {
      if (!(error instanceof SchemaCompileError)) throw error;
      throw new DomainError(422, 'schema_invalid', `The schema ${name} cannot be assembled: ${error.problems.map((p) => p.message).join('; ')}`, {
        errors: error.problems.map((p) => ({ line: p.line, message: p.message, file: p.file })),
      });
    }
  }
}
