/** A tiny JSON Schema (2020-12) builder for the OpenAPI document: schemas sit beside the presenters and parsers
 * they describe (`src/presenters/*.schema.ts`), and the integration suites check every response against them. */
export type JsonSchema = { [keyword: string]: unknown };

export const str = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
export const int = (extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', ...extra });
export const num = (extra: JsonSchema = {}): JsonSchema => ({ type: 'number', ...extra });
export const bool: JsonSchema = { type: 'boolean' };
export const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
export const anyJson: JsonSchema = {};
export const strEnum = (...values: string[]): JsonSchema => ({ type: 'string', enum: values });
export const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
export const arr = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
export const dict = (values: JsonSchema): JsonSchema => ({ type: 'object', additionalProperties: values });

/** An object whose properties are all required but those named in `optional`; other properties may follow
 * (fields added later do not break older clients). */
export function obj(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  const required = Object.keys(properties).filter((name) => !optional.includes(name));
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}
