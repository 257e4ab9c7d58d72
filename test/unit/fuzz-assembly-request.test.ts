import fc from 'fast-check';
import {
  estimateId,
  MalformedRequest,
  MAX_LABEL,
  MAX_ROOT_LABEL,
  MAX_TEXT,
  MAX_TITLE,
  MAX_TREE_DEPTH,
  MAX_TREE_NODES,
  parseAssemblyRequest,
  type AssemblyRequest,
  type ClusterSpec,
} from '../../src/parsers/assembly.parser';
import { DATA_TYPES } from '../../src/domain/model-tree';

/** Property-based fuzz of the assembly tree validator: whatever JSON arrives, it returns a request within its
 * bounds or throws MalformedRequest with path-keyed details — nothing else; and the estimate id ignores key order. */

const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('', ' ', '\u0000', '\uFFFD', '\uD800', 'x'.repeat(MAX_ROOT_LABEL + 1), 'y'.repeat(MAX_LABEL + 1)),
);
const anyJson = fc.jsonValue({ maxDepth: 4 });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const loose = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 6, arbitrary: arb }, { weight: 1, arbitrary: anyJson });
const ctId = fc.oneof(fc.stringMatching(/^[a-z0-9]{1,30}$/), fc.constantFrom('', 'has space', 'x'.repeat(65), '../etc'));

const component = fc.oneof(
  fc.record({ ct_id: loose(ctId) }, { requiredKeys: [] }),
  fc.record(
    {
      label: loose(text),
      data_type: loose(fc.constantFrom(...DATA_TYPES, 'XdNope', 'xdstring', '')),
      description: maybe(loose(text)),
      units: maybe(loose(text)),
    },
    { requiredKeys: [] },
  ),
);

/** Trees are built to an explicit depth: recursive arbitraries left to fast-check's depth bias grew without bound. */
const clusterTo = (depth: number): fc.Arbitrary<Record<string, unknown>> =>
  fc.record(
    {
      label: loose(text),
      ct_id: maybe(loose(ctId)),
      description: maybe(loose(text)),
      components: maybe(loose(fc.array(loose(component), { maxLength: 4 }))),
      ...(depth > 0 ? { clusters: maybe(loose(fc.array(clusterTo(depth - 1), { maxLength: 3 }))) } : {}),
    },
    { requiredKeys: [] },
  );
const cluster = clusterTo(4);

const body = fc.record(
  {
    title: loose(text),
    description: maybe(loose(text)),
    data: loose(cluster),
    contextual: maybe(
      loose(fc.dictionary(fc.constantFrom('audit', 'party', 'subject', 'acs', 'nope', ...HOSTILE_KEYS), loose(fc.record({ ct_id: ctId })))),
    ),
    allow_retired: maybe(loose(fc.boolean())),
    publish: maybe(loose(fc.boolean())),
    generate: maybe(loose(fc.boolean())),
    estimate_id: maybe(loose(fc.oneof(fc.stringMatching(/^[0-9a-f]{12}$/), text))),
  },
  { requiredKeys: [] },
);

const label = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,30}$/);
const validComponent = fc.oneof(
  fc.record({ ct_id: fc.stringMatching(/^[a-z0-9]{4,24}$/) }),
  fc.record(
    {
      label,
      data_type: fc.constantFrom(...DATA_TYPES),
      description: fc.constantFrom(undefined, '', 'about'),
      units: fc.constantFrom(undefined, '', 'kg'),
    },
    { requiredKeys: ['label', 'data_type'] },
  ),
);
const validClusterTo = (depth: number): fc.Arbitrary<Record<string, unknown>> =>
  fc.record({
    label,
    components: fc.array(validComponent, { minLength: 1, maxLength: 4 }),
    clusters: depth > 0 ? fc.array(validClusterTo(depth - 1), { maxLength: 2 }) : fc.constant([]),
  });
const validCluster = validClusterTo(3);
const validBody = fc.record({ title: label, data: validCluster, publish: fc.boolean(), generate: fc.constant(false) });

/** Every object of the tree gets the hostile keys as own properties (the extras' own values are left alone, or
 * they would nest forever), then goes through JSON text as a request body would. */
function withHostileKeys(value: unknown, extra: Array<[string, unknown]>): unknown {
  if (Array.isArray(value)) return value.map((v) => withHostileKeys(v, extra));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  const own = (k: string, v: unknown) => Object.defineProperty(copy, k, { value: v, enumerable: true, writable: true, configurable: true });
  for (const [k, v] of Object.entries(value)) own(k, withHostileKeys(v, extra));
  for (const [k, x] of extra) if (!Object.prototype.hasOwnProperty.call(copy, k)) own(k, x);
  return copy;
}
const viaJson = (value: unknown, extra: Array<[string, unknown]>): unknown => {
  const json = JSON.stringify(withHostileKeys(value, extra));
  return json === undefined ? undefined : JSON.parse(json);
};

function parseOrMalformed(input: unknown): AssemblyRequest | MalformedRequest {
  try {
    return parseAssemblyRequest(input);
  } catch (error) {
    if (error instanceof MalformedRequest) return error;
    throw error;
  }
}

function clusters(root: ClusterSpec): Array<{ spec: ClusterSpec; depth: number }> {
  const out: Array<{ spec: ClusterSpec; depth: number }> = [];
  const stack = [{ spec: root, depth: 1 }];
  while (stack.length) {
    const item = stack.pop()!;
    out.push(item);
    for (const child of item.spec.clusters) stack.push({ spec: child, depth: item.depth + 1 });
  }
  return out;
}

function expectWithinBounds(request: AssemblyRequest): void {
  expect(request.title.length).toBeGreaterThan(0);
  expect(request.title.length).toBeLessThanOrEqual(MAX_TITLE);
  expect(request.title).toBe(request.title.trim());
  expect(request.root.label.length).toBeLessThanOrEqual(MAX_ROOT_LABEL);
  if (request.description !== null) expect(request.description.length).toBeLessThanOrEqual(MAX_TEXT);
  if (request.generate) expect(request.publish).toBe(true);
  if (request.estimateId !== null) expect(request.estimateId).toMatch(/^[0-9a-f]{12}$/);
  const all = clusters(request.root);
  let nodes = 0;
  for (const { spec, depth } of all) {
    nodes += 1 + spec.components.length;
    expect(depth).toBeLessThanOrEqual(MAX_TREE_DEPTH);
    expect(spec.label || spec.ctId).toBeTruthy();
    expect(spec.label.length).toBeLessThanOrEqual(MAX_LABEL);
    if (spec !== request.root && !spec.ctId) expect(spec.components.length + spec.clusters.length).toBeGreaterThan(0);
    if (spec.ctId) {
      expect(spec.ctId).toMatch(/^[a-z0-9]{1,64}$/i);
      expect(spec.components.length + spec.clusters.length).toBe(0);
    }
    for (const c of spec.components) {
      expect(c.path).toMatch(/^data(\.clusters\[\d+\])*\.components\[\d+\]$/);
      expect(c.path.startsWith(`${spec.path}.components[`)).toBe(true);
      if (c.kind === 'reuse') expect(c.ctId).toMatch(/^[a-z0-9]{1,64}$/i);
      else {
        expect(DATA_TYPES).toContain(c.dataType);
        expect(c.label.length).toBeGreaterThan(0);
        expect(c.label.length).toBeLessThanOrEqual(MAX_LABEL);
        for (const optional of [c.description, c.units]) if (optional !== null) expect(optional.length).toBeGreaterThan(0);
      }
    }
  }
  expect(nodes).toBeLessThanOrEqual(MAX_TREE_NODES);
  expect(request.root.components.length + request.root.clusters.length > 0 || request.root.ctId !== null).toBe(true);
}

function shuffledKeys(value: unknown, order: number[]): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffledKeys(v, order));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const rotated = entries.map((_, i) => entries[(i + (order[i % order.length] ?? 0)) % entries.length]);
  const seen = new Set<string>();
  const out: Record<string, unknown> = {};
  for (const [k, v] of [...rotated.reverse(), ...entries]) {
    if (seen.has(k)) continue;
    seen.add(k);
    out[k] = shuffledKeys(v, order);
  }
  return out;
}

describe('parseAssemblyRequest under fuzzing', () => {
  it('returns a request within its bounds or throws MalformedRequest with path-keyed messages, for any JSON', () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.oneof({ weight: 1, arbitrary: anyJson }, { weight: 6, arbitrary: body }, { weight: 2, arbitrary: validBody }),
        fc.array(fc.tuple(fc.constantFrom(...HOSTILE_KEYS), anyJson), { maxLength: 2 }),
        (input, extra) => {
          const outcome = parseOrMalformed(viaJson(input, extra));
          if (outcome instanceof MalformedRequest) {
            expect(Object.keys(outcome.details).length).toBeGreaterThan(0);
            for (const [path, messages] of Object.entries(outcome.details)) {
              expect(path).toMatch(/^(body|title|description|data|contextual|allow_retired|publish|generate|estimate_id)\b/);
              expect(messages.length).toBeGreaterThan(0);
              for (const m of messages) expect(typeof m).toBe('string');
            }
            expect(outcome.message.length).toBeLessThan(5000);
          } else {
            accepted++;
            expectWithinBounds(outcome);
          }
        },
      ),
      { numRuns: 1500 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('refuses trees past the node and depth limits, however they are shaped', () => {
    fc.assert(
      fc.property(fc.integer({ min: MAX_TREE_DEPTH + 1, max: 3000 }), fc.integer({ min: 0, max: 3 }), (depth, perLevel) => {
        let node: Record<string, unknown> = { label: 'leaf', components: [{ label: 'x', data_type: 'XdString' }] };
        for (let i = 0; i < depth; i++)
          node = { label: `L${i}`, components: Array.from({ length: perLevel }, () => ({ label: 'c', data_type: 'XdCount' })), clusters: [node] };
        const outcome = parseOrMalformed({ title: 'deep', data: node });
        expect(outcome).toBeInstanceOf(MalformedRequest);
        expect(JSON.stringify((outcome as MalformedRequest).details)).toMatch(/nesting deeper than 64|more than 10000 nodes/);
      }),
      { numRuns: 30 },
    );
    fc.assert(
      fc.property(fc.integer({ min: MAX_TREE_NODES, max: 40_000 }), fc.integer({ min: 1, max: 50 }), (nodes, width) => {
        const clustersOf = Array.from({ length: width }, () => ({
          label: 'c',
          components: Array.from({ length: Math.ceil(nodes / width) }, () => ({ ct_id: 'abc' })),
        }));
        const outcome = parseOrMalformed({ title: 'wide', data: { label: 'r', clusters: clustersOf } });
        expect(outcome).toBeInstanceOf(MalformedRequest);
        expect((outcome as MalformedRequest).details).toEqual({ data: [`the tree has more than ${MAX_TREE_NODES} nodes`] });
      }),
      { numRuns: 20 },
    );
  });

  it('gives the same estimate id whatever the key order, the flags or the padding of the title; another title changes it', () => {
    fc.assert(
      fc.property(
        validBody,
        fc.array(fc.nat(10), { minLength: 1, maxLength: 5 }),
        fc.record({ publish: fc.boolean(), allow_retired: fc.boolean() }),
        (input, order, flags) => {
          const request = parseAssemblyRequest(input);
          expectWithinBounds(request);
          const id = estimateId(request);
          expect(id).toMatch(/^[0-9a-f]{12}$/);
          expect(estimateId(parseAssemblyRequest(shuffledKeys(input, order)))).toBe(id);
          expect(estimateId(parseAssemblyRequest({ ...input, ...flags, title: `  ${input.title}\t` }))).toBe(id);
          expect(estimateId(parseAssemblyRequest({ ...input, title: `${input.title}!` }))).not.toBe(id);
        },
      ),
      { numRuns: 800 },
    );
  });
});
