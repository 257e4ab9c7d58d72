import { gatherSchemaSet, type SchemaResolver } from './schema-set';
import { SchemaCompileError } from './xml-errors';
import { schemaNotFound, validationFailed } from '../lib/app-api-errors';
import { CT_ID_PATTERN } from '../storage/filenames';
import { readText, type Storage } from '../storage/storage';
import type { StorageEvents } from '../storage/storage-events';

const MAX_MODELS = 64;

/** A model's schema documents as plain data (main first) with their content key, for a worker thread to compile. */
export interface ModelSchema {
  xsd: string;
  schema: { key: string; documents: Array<{ location: string; name: string; text: string }> };
}

/**
 * The schema documents of each data model, gathered once (includes and imports resolved); the worker threads
 * compile them, each caching by the content key, so a re-uploaded schema (new content, new key) is compiled
 * afresh in every thread. A gathered set is kept until a schema library file changes: an upload through any node
 * announces it (storage events, NOTIFY), so a request that finds its set asks the storage nothing.
 */
export class CompiledSchemas {
  private readonly byName = new Map<string, ModelSchema>();
  /** Bumped by every change: a set gathered across one is not kept. */
  private generation = 0;

  constructor(
    private readonly storage: Storage,
    private readonly resolver: SchemaResolver,
    events: StorageEvents,
  ) {
    events.subscribe((change) => {
      if (change === null || change.area === 'dmlib') this.invalidate();
    });
  }

  async forModel(dmCtId: string): Promise<ModelSchema> {
    const name = `dm-${dmCtId}.xsd`;
    const known = this.byName.get(name);
    if (known) {
      this.byName.delete(name);
      this.byName.set(name, known);
      return known;
    }
    const generation = this.generation;
    const xsd = CT_ID_PATTERN.test(dmCtId) ? await readText(this.storage, 'dmlib', name) : null;
    if (xsd === null) throw schemaNotFound(dmCtId);
    const gathered = { xsd, schema: await this.gather(name, xsd) };
    if (generation !== this.generation) return gathered;
    this.byName.set(name, gathered);
    if (this.byName.size > MAX_MODELS) this.byName.delete(this.byName.keys().next().value as string);
    return gathered;
  }

  /** A schema library file changed (an include may be shared): every gathered set goes. */
  invalidate(): void {
    this.generation++;
    this.byName.clear();
  }

  get size(): number {
    return this.byName.size;
  }

  private async gather(name: string, content: string): Promise<ModelSchema['schema']> {
    try {
      const set = await gatherSchemaSet({ name, content }, this.resolver);
      return { key: set.key, documents: set.documents.map((d) => ({ location: d.location, name: d.name, text: d.text })) };
    } catch (error) {
      if (!(error instanceof SchemaCompileError)) throw error;
      throw validationFailed(`The schema ${name} does not compile: ${error.problems.map((p) => p.message).join('; ')}`, {
        schema: name,
        errors: error.problems.map((p) => ({ line: p.line, message: p.message, file: p.file })),
      });
    }
  }
}
