/** How GraphQL error extensions name a REST error's fields (README: GraphQL errors), written out again here so
 * the tests check src/resolvers/errors.ts instead of reusing it: `code` is the REST error_type, `status` the
 * HTTP status, snake_case keys become camelCase at any depth, and a field called `status` becomes `state`. */
const camel = (key: string) => (/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(key) ? key.replace(/_(.)/g, (_, c: string) => c.toUpperCase()) : key);

// Any realm's plain object: fields of an error raised in a worker thread arrive as objects of another realm.
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && Object.getPrototypeOf(Object.getPrototypeOf(value) ?? Object.prototype) === null;

function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [camel(k), camelKeys(v)]));
}

export function graphqlExtensions(code: string, status: number, fields: Record<string, unknown>): Record<string, unknown> {
  const { status: state, ...rest } = fields;
  return { code, status, ...(camelKeys(rest) as object), ...(state === undefined ? {} : { state }) };
}
