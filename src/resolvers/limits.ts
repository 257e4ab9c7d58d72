import {
  GraphQLError,
  Kind,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationRule,
} from 'graphql';
import { DomainError } from '../lib/errors';
import { storableTextRule, unstorableRequestText } from './storable-text';

export interface QueryLimits {
  /** Nesting of fields below the operation (`{ me { email } }` is 2); introspection is bounded by graphql's own rule. */
  maxDepth: number;
  /** Selections of the operation with every fragment expanded: fields, aliases, spreads and inline fragments. */
  maxCost: number;
  /** Fields at the root of an operation, aliases counted and root fragments expanded: each runs its resolver
   * (and may use the database), so thousands of cheap aliases are thousands of resolver runs on the event loop. */
  maxRootFields: number;
}

const QUERY_TOO_COMPLEX = 'QUERY_TOO_COMPLEX';
/** Brackets of any kind open at once in a document: far above any real query or inline assembly tree, far below
 * what overflows graphql's recursive parser (a few thousand). */
const MAX_DOCUMENT_NESTING = 300;
/** JSON nesting of `variables`: an assembly tree of 64 clusters needs about 130; graphql's coercion recurses. */
const MAX_VARIABLES_DEPTH = 300;

function tooComplex(message: string, limits: QueryLimits, nodes?: GraphQLError['nodes']): GraphQLError {
  const cause = new DomainError(400, QUERY_TOO_COMPLEX, message, {
    max_depth: limits.maxDepth,
    max_cost: limits.maxCost,
    max_root_fields: limits.maxRootFields,
  });
  return new GraphQLError(message, { nodes, extensions: { code: QUERY_TOO_COMPLEX }, originalError: cause });
}

const costMessage = (limits: QueryLimits) =>
  `Query too complex: more than ${limits.maxCost} selections (fields, aliases and fragments expanded; GRAPHQL_MAX_COST).`;
const rootFieldsMessage = (limits: QueryLimits) =>
  `Query too complex: more than ${limits.maxRootFields} root fields (aliases counted; GRAPHQL_MAX_ROOT_FIELDS).`;

/** Root fields that plan a whole model tree (up to 10,000 nodes) on the event loop: one per operation, so 50
 * aliases of a large `estimate` cost what one does. */
const PLANNING_FIELDS = new Set(['estimate', 'assemble']);
const planningMessage = () =>
  `Query too complex: at most one of ${[...PLANNING_FIELDS].join(', ')} per operation (aliases counted); send each in a request of its own.`;

/** Refuses operations deeper or larger than the limits, or with more root fields, or more than one planning field. Walks each operation with an
 * explicit stack and stops at the first limit passed, so a fragment that spreads another thousands of times (or a
 * fragment cycle) costs at most `maxCost` steps. */
export function queryLimitsRule(limits: QueryLimits): ValidationRule {
  return (context) => ({
    OperationDefinition(operation) {
      const stack: Array<{ set: SelectionSetNode; depth: number; introspection: boolean }> = [
        { set: operation.selectionSet, depth: 0, introspection: false },
      ];
      let cost = 0;
      let rootFields = 0;
      let planning = 0;
      while (stack.length) {
        const { set, depth, introspection } = stack.pop()!;
        for (const selection of set.selections) {
          if (++cost > limits.maxCost) {
            context.reportError(tooComplex(costMessage(limits), limits, [operation]));
            return false;
          }
          if (selection.kind === Kind.FIELD) {
            if (depth === 0 && !introspection && ++rootFields > limits.maxRootFields) {
              context.reportError(tooComplex(rootFieldsMessage(limits), limits, [operation]));
              return false;
            }
            if (depth === 0 && PLANNING_FIELDS.has(selection.name.value) && ++planning > 1) {
              context.reportError(tooComplex(planningMessage(), limits, [selection]));
              return false;
            }
            const inIntrospection = introspection || selection.name.value.startsWith('__');
            const fieldDepth = inIntrospection ? depth : depth + 1;
            if (fieldDepth > limits.maxDepth) {
              context.reportError(tooComplex(`Query too deep: fields nested more than ${limits.maxDepth} levels.`, limits, [selection]));
              return false;
            }
            if (selection.selectionSet) stack.push({ set: selection.selectionSet, depth: fieldDepth, introspection: inIntrospection });
          } else if (selection.kind === Kind.INLINE_FRAGMENT) {
            stack.push({ set: selection.selectionSet, depth, introspection });
          } else {
            const fragment = context.getFragment(selection.name.value);
            if (fragment) stack.push({ set: fragment.selectionSet, depth, introspection });
          }
        }
      }
      return false;
    },
  });
}

/** The deepest bracket nesting of a GraphQL document, skipping strings, block strings and comments; stops
 * counting past `max`. Linear, so it can run before the (recursive) parser. */
function documentNesting(query: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < query.length; i++) {
    const c = query[i];
    if (c === '#') {
      while (i < query.length && query[i] !== '\n' && query[i] !== '\r') i++;
    } else if (c === '"') {
      if (query.startsWith('"""', i)) {
        for (i += 3; i < query.length && !query.startsWith('"""', i); i++) if (query.startsWith('\\"""', i)) i += 3;
        i += 2;
      } else {
        for (i++; i < query.length && query[i] !== '"' && query[i] !== '\n'; i++) if (query[i] === '\\') i++;
      }
    } else if (c === '{' || c === '[' || c === '(') {
      deepest = Math.max(deepest, ++depth);
      if (deepest > max) return deepest;
    } else if (c === '}' || c === ']' || c === ')') {
      depth--;
    }
  }
  return deepest;
}

/** Skips a string, block string or comment starting at `i`; returns the index of its last character. */
function skipIgnored(query: string, i: number): number {
  const c = query[i];
  if (c === '#') {
    while (i < query.length && query[i] !== '\n' && query[i] !== '\r') i++;
    return i;
  }
  if (query.startsWith('"""', i)) {
    for (i += 3; i < query.length && !query.startsWith('"""', i); i++) if (query.startsWith('\\"""', i)) i += 3;
    return i + 2;
  }
  for (i++; i < query.length && query[i] !== '"' && query[i] !== '\n'; i++) if (query[i] === '\\') i++;
  return i;
}

const NAME_START = /[_A-Za-z]/;
const NAME_CHAR = /[_0-9A-Za-z]/;

/**
 * The selections written in each operation or fragment of a document, counted from its text without parsing it:
 * fields (an alias and its field count once), fragment spreads and inline fragments, in every selection set
 * outside arguments; `total` is the largest count of one operation or fragment, `root` the most fields written
 * directly at the root of one operation, `planning` how many of those are planning fields (`estimate`,
 * `assemble`). For a valid document (every fragment used) these are at most an operation's cost, root fields and
 * planning fields with fragments expanded, so a document over a limit here is over it after parsing too: refusing
 * it first spares the event loop the parse and validation of thousands of aliases (about 100 ms for 2,400), or of
 * 50 estimates over one large variable. Stops counting past the limits. Linear.
 */
export function writtenSelections(
  query: string,
  limits: Pick<QueryLimits, 'maxCost' | 'maxRootFields'>,
): { total: number; root: number; planning: number } {
  let braces = 0;
  let parens = 0;
  let total = 0;
  let root = 0;
  let planning = 0;
  /** Whether the top-level block being read is a fragment definition's (its fields are not root fields). */
  let inFragment = false;
  let fragmentNext = false;
  let previous = '';
  for (let i = 0; i < query.length && total <= limits.maxCost && root <= limits.maxRootFields && planning <= 1; i++) {
    const c = query[i];
    if (c === '#' || c === '"') {
      i = skipIgnored(query, i);
      continue;
    }
    if (c === '(') parens++;
    else if (c === ')') parens--;
    else if (parens > 0) continue;
    else if (c === '{') {
      if (braces === 0) {
        inFragment = fragmentNext;
        fragmentNext = false;
        total = 0;
        root = 0;
        planning = 0;
      }
      braces++;
    } else if (c === '}') braces--;
    else if (c === '.' && query.startsWith('...', i)) {
      i += 2;
      if (braces > 0) total++;
      previous = '...';
      continue;
    } else if (NAME_START.test(c)) {
      let end = i + 1;
      while (end < query.length && NAME_CHAR.test(query[end])) end++;
      const name = query.slice(i, end);
      let next = end;
      while (next < query.length && /[\s,]/.test(query[next])) next++;
      if (braces === 0) {
        if (name === 'fragment') fragmentNext = true;
        else if (name === 'query' || name === 'mutation' || name === 'subscription') fragmentNext = false;
      } else if (previous !== '@' && previous !== '...' && previous !== 'on' && query[next] !== ':') {
        total++;
        if (braces === 1 && !inFragment) {
          root++;
          if (PLANNING_FIELDS.has(name)) planning++;
        }
      }
      previous = previous === '...' && name === 'on' ? 'on' : 'name';
      i = end - 1;
      continue;
    }
    if (!/[\s,]/.test(c)) previous = c;
  }
  return { total, root, planning };
}

/**
 * Whether every operation a document defines is a subscription, read from its text without parsing it: each
 * definition at the top level (outside braces and parentheses, strings and comments skipped) starts with its keyword,
 * and a bare `{` is a query. False for a document with no operation or any other kind, so a caller at its
 * subscription cap can be refused before the parser runs only when the document could be nothing else. Linear.
 */
export function onlySubscriptions(query: string): boolean {
  let braces = 0;
  let parens = 0;
  let operations = 0;
  /** Whether the next top-level `{` opens a definition whose keyword has been read (else it is a bare query). */
  let named = false;
  for (let i = 0; i < query.length; i++) {
    const c = query[i];
    if (c === '#' || c === '"') {
      i = skipIgnored(query, i);
      continue;
    }
    if (c === '(') parens++;
    else if (c === ')') parens--;
    else if (c === '{') {
      if (braces === 0 && parens === 0) {
        if (!named) return false;
        named = false;
      }
      braces++;
    } else if (c === '}') braces--;
    else if (braces === 0 && parens === 0 && NAME_START.test(c) && !named) {
      let end = i + 1;
      while (end < query.length && NAME_CHAR.test(query[end])) end++;
      const keyword = query.slice(i, end);
      if (keyword === 'subscription') operations++;
      else if (keyword !== 'fragment') return false;
      named = true;
      i = end - 1;
    }
  }
  return operations > 0;
}

/** Whether a JSON value nests objects and arrays deeper than `max` (iterative). */
function jsonDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [current, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current as object)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** What must be refused before parsing a request: a document nested past what the parser survives, or
 * variables nested past what coercion survives. */
export function requestProblem(payload: { query?: unknown; variables?: unknown }, limits: QueryLimits): GraphQLError | null {
  if (typeof payload.query === 'string' && documentNesting(payload.query, MAX_DOCUMENT_NESTING) > MAX_DOCUMENT_NESTING) {
    return tooComplex(`Query too complex: brackets nested more than ${MAX_DOCUMENT_NESTING} levels.`, limits);
  }
  if (typeof payload.query === 'string') {
    const written = writtenSelections(payload.query, limits);
    if (written.root > limits.maxRootFields) return tooComplex(rootFieldsMessage(limits), limits);
    if (written.total > limits.maxCost) return tooComplex(costMessage(limits), limits);
    if (written.planning > 1) return tooComplex(planningMessage(), limits);
  }
  if (payload.variables !== null && typeof payload.variables === 'object' && jsonDeeperThan(payload.variables, MAX_VARIABLES_DEPTH)) {
    return new GraphQLError(`Variables nested more than ${MAX_VARIABLES_DEPTH} levels deep.`, { extensions: { code: 'BAD_USER_INPUT' } });
  }
  return unstorableRequestText(payload);
}

/** Apollo's codes on errors graphql-ws would send uncoded (and the error formatter would mask). */
function withCode(error: unknown, code: string): GraphQLError {
  if (!(error instanceof GraphQLError)) return new GraphQLError(`Syntax error: ${(error as Error).message}`, { extensions: { code } });
  if (error.extensions.code) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    originalError: error,
    extensions: { ...error.extensions, code },
  });
}

/** What an error may tell about the schema (GRAPHQL_SUGGESTIONS, GRAPHQL_INTROSPECTION). */
export interface SchemaExposure {
  suggestions: boolean;
  introspection: boolean;
}

/** graphql-js's "Did you mean …?" hint removed, as Apollo's hideSchemaDetailsFromClientErrors does over HTTP. */
function withoutSuggestion(error: GraphQLError): GraphQLError {
  const message = error.message.replace(/ ?Did you mean(.+?)\?$/, '');
  if (message === error.message) return error;
  return new GraphQLError(message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: error.extensions });
}

/** graphql-ws's `onSubscribe`: the HTTP guards, parse and validation (with the limits and the schema exposure)
 * over WebSocket, answering a syntax error as an error message instead of closing the socket. */
export function guardedSubscribe(schema: GraphQLSchema, limits: QueryLimits, exposure: SchemaExposure) {
  const rules = [...specifiedRules, queryLimitsRule(limits), storableTextRule, ...(exposure.introspection ? [] : [NoSchemaIntrospectionCustomRule])];
  const hide = (error: GraphQLError) => (exposure.suggestions ? error : withoutSuggestion(error));
  /** Documents that parsed and validated, by text: a client repeating one operation (or a hundred at once) pays
   * for its parse and validation once. Validation depends on the document alone (variables are checked apart). */
  const valid = new Map<string, DocumentNode>();
  return (
    _ctx: unknown,
    _id: string,
    payload: { query: string; operationName?: string | null; variables?: Record<string, unknown> | null },
  ): ExecutionArgs | GraphQLError[] => {
    const problem = requestProblem(payload, limits);
    if (problem) return [problem];
    let document = valid.get(payload.query);
    if (!document) {
      try {
        document = parse(payload.query);
      } catch (error) {
        return [withCode(error, 'GRAPHQL_PARSE_FAILED')];
      }
      const errors = validate(schema, document, rules);
      if (errors.length) return errors.map((error) => withCode(hide(error), 'GRAPHQL_VALIDATION_FAILED'));
      if (payload.query.length <= VALID_DOCUMENT_MAX_LENGTH) {
        if (valid.size >= VALID_DOCUMENTS) valid.delete(valid.keys().next().value!);
        valid.set(payload.query, document);
      }
    }
    return { schema, document, operationName: payload.operationName, variableValues: payload.variables };
  };
}

/** Validated socket documents remembered (the oldest forgotten first), each up to this many characters. */
const VALID_DOCUMENTS = 500;
const VALID_DOCUMENT_MAX_LENGTH = 10_000;
