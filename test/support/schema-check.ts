import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { JsonSchema } from '../../src/lib/json-schema';

/** How a JSON body is checked against its documented schema, once for both users: the OpenAPI check of the
 * integration suites (openapi-check.ts) and the unit test that renders a sample of each presenter. */

const ajv = new Ajv2020({ strict: false, validateFormats: false });
const compiled = new WeakMap<object, ValidateFunction>();

/** Where `body` does not match `schema` (at most three places), or nothing when it does. */
export function schemaErrors(schema: JsonSchema, body: unknown): string[] {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  if (validate(body)) return [];
  return (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/** The fields of `body` its schema does not name (objects are open, so ajv accepts them; the document then hides
 * them from its readers). Follows `properties`, `items`, `additionalProperties` and the branches of `anyOf`. */
export function undeclaredFields(schema: JsonSchema, body: unknown, at = ''): string[] {
  if (body === null || typeof body !== 'object') return [];
  if (Array.isArray(schema.anyOf)) {
    const branch = (schema.anyOf as JsonSchema[]).find((s) => schemaErrors(s, body).length === 0);
    return branch ? undeclaredFields(branch, body, at) : [];
  }
  if (Array.isArray(body)) {
    const items = schema.items as JsonSchema | undefined;
    return items ? body.flatMap((item, i) => undeclaredFields(items, item, `${at}/${i}`)) : [];
  }
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  const extra = schema.additionalProperties as JsonSchema | boolean | undefined;
  return Object.entries(body).flatMap(([name, value]) => {
    const declared = properties?.[name] ?? (typeof extra === 'object' ? extra : undefined);
    if (declared) return undeclaredFields(declared, value, `${at}/${name}`);
    return properties ? [`${at}/${name}`] : [];
  });
}
