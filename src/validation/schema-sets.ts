import { createHash } from 'node:crypto';
import { schemaNotFound, validationFailed } from '../lib/app-api-errors';
import { DomainError } from '../lib/errors';
import { CT_ID_PATTERN } from '../storage/filenames';
import { readText, type Storage } from '../storage/storage';
import type { StorageEvents } from '../storage/storage-events';
import { gatherSchemaSet, type SchemaResolver } from '../xml/schema-set';
import { SchemaCompileError } from '../xml/xml-errors';
import type { ReferenceSchemaStore } from '../xml/reference-schemas';
import { catalogResolver } from '../xml/schema';

/** Gathered sets kept on the event loop, Interface B's and the studio's together, least recently used first out. */
const MAX_SETS = 128;

/** A model's schema documents as plain data (main first, the model XSD) with their content key, for a thread to
 * compile (and cache by that key). */
export interface ModelSchema {
  xsd: string;
  schema: { key: string; documents: Array<{ location: string; name: string; text: string }> };
}

export interface SchemaSetOptions {
  /** SCHEMA_CATALOG_DIR: local copies of reference schemas (sdc4.xsd), which win over the stored ones. */
  catalogDir: string;
  /** SCHEMA_FETCH: the network for schemas neither local nor allow-listed. */
  fetchAllowed: boolean;
}

/**
 * Validation's one schema-set cache on the event loop. Every door's model schema is gathered here once (its
 * includes and imports resolved: Interface B's own uploads from dmlib, sdc4.xsd from SCHEMA_CATALOG_DIR, then the
 * one reference-schema store, the network only with SCHEMA_FETCH) and handed to the threads as plain data with its
 * content key; each thread compiles a key once (src/workers/validation.task.ts).
 *
 * - Interface B's `dmlib/dm-{ct_id}.xsd` is kept by name until a schema library file changes: an upload through any
 *   node announces it (storage events, NOTIFY), so a request that finds its set asks the storage nothing, and a
 *   changed include is never served stale.
 * - The studio's model schemas (VaaS, GraphQL) are kept by the sha256 of the model XSD, so a published model's set
 *   is found without reading the schema again.
 */
export class SchemaSets {
  /** `dmlib:<name>` (Interface B) or `sha:<sha256>` (the studio) → the gathered set. */
  private readonly sets = new Map<string, Promise<ModelSchema>>();
  private readonly dmlibResolver: SchemaResolver;
  private readonly studioResolver: SchemaResolver;

  constructor(
    private readonly storage: Storage,
    references: ReferenceSchemaStore,
    options: SchemaSetOptions,
    events: StorageEvents,
  ) {
    const common = { catalogDir: options.catalogDir, fetchAllowed: options.fetchAllowed, reference: (url: string) => references.get(url) };
    this.dmlibResolver = catalogResolver({ dmlib: (name) => readText(storage, 'dmlib', name), ...common });
    this.studioResolver = catalogResolver({ dmlib: async () => null, ...common });
    events.subscribe((change) => {
      if (change === null || change.area === 'dmlib') this.invalidate();
    });
  }

  /** Interface B: the stored schema of a model (404 SCHEMA_NOT_FOUND without one, 422 VALIDATION_FAILED when it
   * cannot be assembled). */
  forModel(dmCtId: string): Promise<ModelSchema> {
    const name = `dm-${dmCtId}.xsd`;
    return this.cached(`dmlib:${name}`, async () => {
      const xsd = CT_ID_PATTERN.test(dmCtId) ? await readText(this.storage, 'dmlib', name) : null;
      if (xsd === null) throw schemaNotFound(dmCtId);
      try {
        return await gathered(name, xsd, this.dmlibResolver);
      } catch (error) {
        if (!(error instanceof SchemaCompileError)) throw error;
        throw validationFailed(`The schema ${name} does not compile: ${problemText(error)}`, { schema: name, errors: problems(error) });
      }
    });
  }

  /** The studio: the set of a model's XSD, kept by its sha256: `known` (the sha256 the catalog lists) finds a kept set
   * without `load`ing the XSD; else `load` reads it (with its sha256 when stored). 422 schema_invalid when it cannot
   * be assembled. */
  async forStudioModel(dmCtId: string, known: string | null, load: () => Promise<{ xsd: string; sha256: string | null }>): Promise<ModelSchema> {
    const kept = known === null ? undefined : this.sets.get(`sha:${known}`);
    if (kept) return this.cached(`sha:${known}`, () => kept);
    const { xsd, sha256 } = await load();
    const name = `dm-${dmCtId}.xsd`;
    return this.cached(`sha:${sha256 ?? createHash('sha256').update(xsd).digest('hex')}`, async () => {
      try {
        return await gathered(name, xsd, this.studioResolver);
      } catch (error) {
        if (!(error instanceof SchemaCompileError)) throw error;
        throw new DomainError(422, 'schema_invalid', `The schema ${name} cannot be assembled: ${problemText(error)}`, { errors: problems(error) });
      }
    });
  }

  /** A schema library file changed (an include may be shared): every Interface B set goes. */
  invalidate(): void {
    for (const key of [...this.sets.keys()]) if (key.startsWith('dmlib:')) this.sets.delete(key);
  }

  /** Interface B sets kept. */
  get size(): number {
    let count = 0;
    for (const key of this.sets.keys()) if (key.startsWith('dmlib:')) count++;
    return count;
  }

  /** The kept set, else `gather` (kept while it succeeds; a failure is not kept). */
  private cached(key: string, gather: () => Promise<ModelSchema>): Promise<ModelSchema> {
    let entry = this.sets.get(key);
    if (entry) this.sets.delete(key);
    else {
      const started = gather();
      entry = started;
      started.catch(() => {
        if (this.sets.get(key) === started) this.sets.delete(key);
      });
    }
    this.sets.set(key, entry);
    while (this.sets.size > MAX_SETS) this.sets.delete(this.sets.keys().next().value as string);
    return entry;
  }
}

async function gathered(name: string, xsd: string, resolver: SchemaResolver): Promise<ModelSchema> {
  const set = await gatherSchemaSet({ name, content: xsd }, resolver);
  return { xsd, schema: { key: set.key, documents: set.documents.map((d) => ({ location: d.location, name: d.name, text: d.text })) } };
}

const problems = (error: SchemaCompileError) => error.problems.map((p) => ({ line: p.line, message: p.message, file: p.file }));
const problemText = (error: SchemaCompileError) => error.problems.map((p) => p.message).join('; ');
