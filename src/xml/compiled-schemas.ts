import { gatherSchemaSet, type SchemaResolver } from './schema-set';
import { SchemaCompileError } from './xml-errors';
import { schemaNotFound, validationFailed } from '../lib/app-api-errors';
import type { FileStore } from '../storage/file-store';
import { CT_ID_PATTERN } from '../storage/filenames';

const MAX_MODELS = 64;

/** A model's schema documents as plain data (main first) with their content key, for a worker thread to compile. */
export interface ModelSchema {
  xsd: string;
  schema: { key: string; documents: Array<{ location: string; name: string; text: string }> };
}

interface Gathered extends ModelSchema {
  /** The stored file's mtime and size when it was gathered. */
  stamp: string;
}

/**
 * The schema documents of each data model, gathered once (includes and imports resolved); the worker threads
 * compile them, each caching by the content key, so a re-uploaded schema (new content, new key) is compiled
 * afresh in every thread. A model whose stored XSD has not changed (same mtime and size, no re-upload through
 * this process) reuses its gathered set without re-reading its documents.
 */
export class CompiledSchemas {
  private readonly byName = new Map<string, Gathered>();

  constructor(
    private readonly files: FileStore,
    private readonly resolver: SchemaResolver,
  ) {}

  async forModel(dmCtId: string): Promise<ModelSchema> {
    const name = `dm-${dmCtId}.xsd`;
    const stamp = CT_ID_PATTERN.test(dmCtId) ? await this.files.stamp('dmlib', name) : null;
    if (stamp === null) throw schemaNotFound(dmCtId);
    const known = this.byName.get(name);
    if (known && known.stamp === stamp) return known;
    const xsd = await this.files.readText('dmlib', name);
    if (xsd === null) throw schemaNotFound(dmCtId);
    const gathered = { stamp, xsd, schema: await this.gather(name, xsd) };
    this.byName.delete(name);
    this.byName.set(name, gathered);
    if (this.byName.size > MAX_MODELS) this.byName.delete(this.byName.keys().next().value as string);
    return gathered;
  }

  /** A schema file was replaced: every set gathered from it must go. */
  invalidate(): void {
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
