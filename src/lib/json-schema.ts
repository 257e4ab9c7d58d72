/** A tiny JSON Schema (2020-12) builder for the OpenAPI document: schemas sit beside the presenters and parsers
 * they describe (`src/presenters/*.schema.ts`), and the integration suites check every response against them.
 * Each builder also carries the TypeScript type of the values it accepts (TypeBox's phantom types), so one
 * declaration gives the OpenAPI schema, the runtime check and, through `Static`, a renderer's return type. */
export type JsonSchema = { [keyword: string]: unknown };

declare const staticType: unique symbol;
/** A JSON Schema that accepts values of type `T`; the type exists only for the compiler. */
export type Schema<T> = JsonSchema & { readonly [staticType]?: T };
/** The type of the values a schema accepts (`unknown` for a schema built by hand, without the builders). */
export type Static<S extends JsonSchema> = S extends { readonly [staticType]?: infer T } ? T : unknown;

const typed = <T>(schema: JsonSchema) => schema as Schema<T>;

export const str = (extra: JsonSchema = {}) => typed<string>({ type: 'string', ...extra });
export const int = (extra: JsonSchema = {}) => typed<number>({ type: 'integer', ...extra });
export const num = (extra: JsonSchema = {}) => typed<number>({ type: 'number', ...extra });
export const bool = typed<boolean>({ type: 'boolean' });
export const dateTime = typed<string>({ type: 'string', format: 'date-time' });
export const anyJson = typed<unknown>({});
export const constant = <V extends string | number | boolean>(value: V) => typed<V>({ const: value });
export const strEnum = <V extends string>(...values: V[]) => typed<V>({ type: 'string', enum: values });
export const nullable = <S extends JsonSchema>(schema: S) => typed<Static<S> | null>({ anyOf: [schema, { type: 'null' }] });
export const arr = <S extends JsonSchema>(items: S) => typed<Array<Static<S>>>({ type: 'array', items });
export const dict = <S extends JsonSchema>(values: S) => typed<Record<string, Static<S>>>({ type: 'object', additionalProperties: values });

/** `{a: A} & {b?: B}` flattened into one object type, as an editor shows it. */
type Flat<T> = { [K in keyof T]: T[K] };
/** A list of optional names computed at run time (`string[]`) makes every property optional in the type. */
type ObjStatic<P extends Record<string, JsonSchema>, O extends string> = Flat<
  { [K in Exclude<keyof P, O>]: Static<P[K]> } & { [K in Extract<keyof P, O>]?: Static<P[K]> }
>;

/** An object whose properties are all required but those named in `optional`; other properties may follow
 * (fields added later do not break older clients). */
export function obj<P extends Record<string, JsonSchema>, O extends string = never>(
  properties: P,
  optional: readonly O[] = [],
): Schema<ObjStatic<P, O>> {
  const required = Object.keys(properties).filter((name) => !optional.includes(name as O));
  return typed({ type: 'object', properties, ...(required.length ? { required } : {}) });
}
