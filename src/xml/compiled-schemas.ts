import { SchemaCompileError, type CompiledSchema, type SchemaCache, type SchemaResolver } from './schema';
import { schemaNotFound, validationFailed } from '../lib/app-api-errors';
import type { FileStore } from '../storage/file-store';
import { CT_ID_PATTERN } from '../storage/filenames';

const MAX_MODELS = 64;

interface Compiled {
  /** The stored file's mtime and size when it was compiled. */
  stamp: string;
  xsd: string;
  schema: CompiledSchema;
}

/**
 * The compiled schema of each data model. Compilation goes through the content-keyed SchemaCache; in front of it,
 * a model whose stored XSD has not changed (same mtime and size, no re-upload through this process) reuses its
 * compiled schema without re-reading and re-hashing its documents. Documents of SCHEMA_CATALOG_DIR are read when a
 * model's schema is compiled.
 */
export class CompiledSchemas {
  private readonly byName = new Map<string, Compiled>();

  constructor(
    private readonly files: FileStore,
    private readonly cache: SchemaCache,
    private readonly resolver: SchemaResolver,
  ) {}

  async forModel(dmCtId: string): Promise<{ xsd: string; schema: CompiledSchema }> {
    const name = `dm-${dmCtId}.xsd`;
    const stamp = CT_ID_PATTERN.test(dmCtId) ? await this.files.stamp('dmlib', name) : null;
    if (stamp === null) throw schemaNotFound(dmCtId);
    const known = this.byName.get(name);
    if (known && known.stamp === stamp) return known;
    const xsd = await this.files.readText('dmlib', name);
    if (xsd === null) throw schemaNotFound(dmCtId);
    const compiled = { stamp, xsd, schema: await this.compile(name, xsd) };
    this.byName.delete(name);
    this.byName.set(name, compiled);
    if (this.byName.size > MAX_MODELS) this.byName.delete(this.byName.keys().next().value as string);
    return compiled;
  }

  /** A schema file was replaced: its compiled form, and any built from it, must go. */
  invalidate(name: string): void {
    this.byName.clear();
    this.cache.invalidate(name);
  }

  get size(): number {
    return this.cache.size;
  }

  private async compile(name: string, content: string): Promise<CompiledSchema> {
    try {
      return await this.cache.get({ name, content }, this.resolver);
    } catch (error) {
      if (!(error instanceof SchemaCompileError)) throw error;
      throw validationFailed(`The schema ${name} does not compile: ${error.problems.map((p) => p.message).join('; ')}`, {
        schema: name,
        errors: error.problems.map((p) => ({ line: p.line, message: p.message, file: p.file })),
      });
    }
  }
}
