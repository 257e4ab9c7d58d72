import { compileSchemaSet, type CompiledSchema } from './schema-compiler';
import { gatherSchemaSet, type SchemaResolver, type SchemaSource } from './schema-set';

/** Compiled schemas keyed by content (sha256 over the main XSD and every document it pulls in), least recently
 * used first out. A compile failure is cached too: the same content fails the same way. Evicted validators are
 * not disposed here, since a caller may still hold one; libxml2-wasm frees them when they are collected. */
export class SchemaCache {
  private readonly entries = new Map<string, { names: string[]; schema: Promise<CompiledSchema> }>();

  constructor(private readonly maxEntries = 32) {}

  async get(main: SchemaSource, resolve: SchemaResolver): Promise<CompiledSchema> {
    const set = await gatherSchemaSet(main, resolve);
    let entry = this.entries.get(set.key);
    if (entry) {
      this.entries.delete(set.key);
    } else {
      entry = { names: set.documents.map((d) => d.name), schema: compileSchemaSet(set) };
      entry.schema.catch(() => undefined);
    }
    this.entries.set(set.key, entry);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return entry.schema;
  }

  /** Drops every entry built from a document of that name (e.g. `dm-<ct_id>.xsd` after a new upload). */
  invalidate(name: string): number {
    let dropped = 0;
    for (const [key, entry] of this.entries) {
      if (entry.names.includes(name)) {
        this.entries.delete(key);
        dropped++;
      }
    }
    return dropped;
  }

  get size(): number {
    return this.entries.size;
  }
}
