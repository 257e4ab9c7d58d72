import { compileSchemaSet, type CompiledSchema } from './schema-compiler';
import { gatherSchemaSet, type SchemaResolver, type SchemaSource } from './schema-set';

export { SchemaCompileError } from './xml-errors';
export type { CompiledSchema } from './schema-compiler';
export type { SchemaResolver, SchemaSource } from './schema-set';
export { SchemaCache } from './schema-cache';
export { catalogResolver } from './catalog-resolver';

/** Compiles a main XSD with every document it includes or imports, resolved through `resolve`. */
export async function compileSchema(main: SchemaSource, resolve: SchemaResolver): Promise<CompiledSchema> {
  return compileSchemaSet(await gatherSchemaSet(main, resolve));
}
