import { createHash } from 'node:crypto';
import type { DataType } from '../domain/model-tree';
import type { JobRequest } from '../entities/job.entity';
import { DomainError } from '../lib/errors';
import { codePointLength } from '../lib/text';
import { enumeratedType, parseComponentDataType, parseEnumeration, type EnumerationValue } from './assembly-component.parser';

/** Limits that keep a hostile tree from exhausting the server. */
export const MAX_TREE_NODES = 10_000;
export const MAX_TREE_DEPTH = 64;
export const MAX_TITLE = 255;
export const MAX_ROOT_LABEL = 110;
export const MAX_LABEL = 255;
export const MAX_TEXT = 10_000;
const CONTEXTUAL_NAMES = ['audit', 'attestation', 'party', 'subject', 'provider', 'participation', 'protocol', 'workflow', 'acs'] as const;

type ComponentSpec =
  | { path: string; kind: 'reuse'; ctId: string }
  | {
      path: string;
      kind: 'mint';
      label: string;
      dataType: DataType;
      description: string | null;
      units: string | null;
      /** The codes the value may take, with their labels; absent (jobs queued before) or null when the value is free. */
      enumeration?: EnumerationValue[] | null;
    };

export interface ClusterSpec {
  path: string;
  label: string;
  ctId: string | null;
  description: string | null;
  components: ComponentSpec[];
  clusters: ClusterSpec[];
}

export interface AssemblyRequest {
  title: string;
  description: string | null;
  root: ClusterSpec;
  contextual: Array<{ name: string; path: string; ctId: string }>;
  allowRetired: boolean;
  publish: boolean;
  generate: boolean;
  estimateId: string | null;
}

/** A malformed request, answered 400 `malformed_tree`: `details` maps each offending path to its messages. */
export class MalformedRequest extends DomainError {
  constructor(readonly details: Record<string, string[]>) {
    super(
      400,
      'malformed_tree',
      `Malformed assembly request: ${Object.entries(details)
        .slice(0, 3)
        .map(([path, messages]) => `${path}: ${messages.join('; ')}`)
        .join(' | ')}`,
      { details },
    );
  }
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** "An empty string is the same as omitted" for description and units. */
function optionalText(value: unknown, path: string, problems: Record<string, string[]>): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') {
    (problems[path] ??= []).push('must be a string');
    return null;
  }
  if (codePointLength(value) > MAX_TEXT) (problems[path] ??= []).push(`must have at most ${MAX_TEXT} characters`);
  return value;
}

function flag(body: Json, name: string, fallback: boolean, problems: Record<string, string[]>): boolean {
  const value = body[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') {
    (problems[name] ??= []).push('must be a boolean');
    return fallback;
  }
  return value;
}

function ctIdOf(value: unknown, path: string, problems: Record<string, string[]>): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !/^[a-z0-9]{1,64}$/i.test(value)) {
    (problems[path] ??= []).push('must be a ct_id (letters and digits)');
    return null;
  }
  return value;
}

/** Validates and normalises an assembly (or estimate) body. Iterative, bounded by MAX_TREE_NODES and
 * MAX_TREE_DEPTH, and stops collecting after 100 problems. */
export function parseAssemblyRequest(body: unknown): AssemblyRequest {
  const problems: Record<string, string[]> = {};
  const add = (path: string, message: string) => (problems[path] ??= []).push(message);
  if (!isObject(body)) throw new MalformedRequest({ body: ['must be a JSON object'] });

  const title = typeof body.title === 'string' ? body.title.trim() : '';
  if (!title) add('title', 'is required');
  else if (codePointLength(title) > MAX_TITLE) add('title', `must have at most ${MAX_TITLE} characters`);
  const description = optionalText(body.description, 'description', problems);

  if (!isObject(body.data)) throw new MalformedRequest({ ...problems, data: ['must be an object (the root cluster)'] });

  let nodes = 0;
  const root: ClusterSpec = { path: 'data', label: '', ctId: null, description: null, components: [], clusters: [] };
  const stack: Array<{ raw: Json; spec: ClusterSpec; depth: number }> = [{ raw: body.data, spec: root, depth: 1 }];
  while (stack.length && Object.keys(problems).length < 100) {
    const { raw, spec, depth } = stack.pop()!;
    nodes++;
    if (nodes > MAX_TREE_NODES) throw new MalformedRequest({ data: [`the tree has more than ${MAX_TREE_NODES} nodes`] });
    if (depth > MAX_TREE_DEPTH) throw new MalformedRequest({ [spec.path]: [`nesting deeper than ${MAX_TREE_DEPTH} clusters`] });
    spec.ctId = ctIdOf(raw.ct_id, `${spec.path}.ct_id`, problems);
    const label = typeof raw.label === 'string' ? raw.label.trim() : '';
    const maxLabel = spec.path === 'data' ? MAX_ROOT_LABEL : MAX_LABEL;
    if (!label && !spec.ctId) add(spec.path, 'a cluster needs a label');
    else if (codePointLength(label) > maxLabel) add(`${spec.path}.label`, `must have at most ${maxLabel} characters`);
    spec.label = label;
    spec.description = optionalText(raw.description, `${spec.path}.description`, problems);

    for (const field of ['components', 'clusters'] as const) {
      const list = raw[field];
      if (list === undefined || list === null) continue;
      if (!Array.isArray(list)) {
        add(`${spec.path}.${field}`, 'must be an array');
        continue;
      }
      if (spec.ctId && list.length) add(`${spec.path}.${field}`, 'a reused cluster (ct_id) takes no children');
      if (nodes + list.length > MAX_TREE_NODES) throw new MalformedRequest({ data: [`the tree has more than ${MAX_TREE_NODES} nodes`] });
      list.forEach((item, i) => {
        const path = `${spec.path}.${field}[${i}]`;
        if (!isObject(item)) {
          add(path, 'must be an object');
          return;
        }
        if (field === 'clusters') {
          const child: ClusterSpec = { path, label: '', ctId: null, description: null, components: [], clusters: [] };
          spec.clusters.push(child);
          stack.push({ raw: item, spec: child, depth: depth + 1 });
          return;
        }
        nodes++;
        const component = parseComponent(item, path, problems);
        if (component) spec.components.push(component);
      });
    }
    if (!spec.ctId && spec.path !== 'data' && spec.components.length === 0 && spec.clusters.length === 0 && !problems[spec.path]) {
      add(spec.path, 'a new cluster needs at least one component or cluster');
    }
  }
  if (!root.ctId && root.components.length === 0 && root.clusters.length === 0 && !problems.data) {
    add('data', 'the root cluster needs at least one component or cluster, or a ct_id');
  }

  const contextual: AssemblyRequest['contextual'] = [];
  if (body.contextual !== undefined && body.contextual !== null) {
    if (!isObject(body.contextual)) add('contextual', 'must be an object');
    else {
      for (const [name, ref] of Object.entries(body.contextual)) {
        const path = `contextual.${name}`;
        if (!(CONTEXTUAL_NAMES as readonly string[]).includes(name)) {
          add(path, `unknown reference; allowed: ${CONTEXTUAL_NAMES.join(', ')}`);
          continue;
        }
        // Clients send every slot and null the ones the model leaves unused.
        if (ref === null) continue;
        if (!isObject(ref)) {
          add(path, 'must be a component reference {ct_id}');
          continue;
        }
        const ctId = ctIdOf(ref.ct_id, `${path}.ct_id`, problems);
        if (!ctId) add(path, 'needs a ct_id');
        else contextual.push({ name, path, ctId });
      }
    }
  }

  const allowRetired = flag(body, 'allow_retired', false, problems);
  const publish = flag(body, 'publish', true, problems);
  const generate = flag(body, 'generate', true, problems);
  if (generate && !publish && body.generate === true) add('generate', 'generate needs publish: send publish true, or generate false');
  let estimateId: string | null = null;
  if (body.estimate_id !== undefined && body.estimate_id !== null) {
    if (typeof body.estimate_id !== 'string' || !/^[0-9a-f]{12}$/.test(body.estimate_id)) add('estimate_id', 'must be 12 hex characters');
    else estimateId = body.estimate_id;
  }
  if (Object.keys(problems).length) throw new MalformedRequest(problems);
  // generate defaults to true but needs publish: with publish false and generate omitted, nothing is generated.
  return { title, description, root, contextual, allowRetired, publish, generate: generate && publish, estimateId };
}

function parseComponent(item: Json, path: string, problems: Record<string, string[]>): ComponentSpec | null {
  const add = (p: string, message: string) => (problems[p] ??= []).push(message);
  if (item.ct_id !== undefined && item.ct_id !== null) {
    const ctId = ctIdOf(item.ct_id, `${path}.ct_id`, problems);
    return ctId ? { path, kind: 'reuse', ctId } : null;
  }
  const label = typeof item.label === 'string' ? item.label.trim() : '';
  if (!label || item.data_type === undefined) {
    add(path, 'a component needs a ct_id, or a label and a data_type');
    return null;
  }
  if (codePointLength(label) > MAX_LABEL) add(`${path}.label`, `must have at most ${MAX_LABEL} characters`);
  const type = parseComponentDataType(item.data_type, path, add);
  if (!type) return null;
  const enumeration = parseEnumeration(item.enumeration, path, add);
  return {
    path,
    kind: 'mint',
    label,
    dataType: enumeration ? enumeratedType(type, path, add) : type.dataType,
    description: optionalText(item.description, `${path}.description`, problems),
    units: optionalText(item.units, `${path}.units`, problems),
    enumeration,
  };
}

/** The model's tree as the estimate id hashes it: clusters as {label, ct_id?, description?, components,
 * clusters}, components as {ct_id} or {label, data_type, description?, units?, enumeration?} (data_type as
 * resolved, enumeration as [code, label] pairs in order); absent and empty optional fields are dropped; flags and
 * contextual references are not part of the tree. */
function canonicalTree(spec: ClusterSpec): unknown {
  const cluster: Json = { label: spec.label, components: [], clusters: [] };
  if (spec.ctId) cluster.ct_id = spec.ctId;
  if (spec.description) cluster.description = spec.description;
  cluster.components = spec.components.map((c) => {
    if (c.kind === 'reuse') return { ct_id: c.ctId };
    const out: Json = { label: c.label, data_type: c.dataType };
    if (c.description) out.description = c.description;
    if (c.units) out.units = c.units;
    if (c.enumeration) out.enumeration = c.enumeration.map((e) => [e.code, e.label]);
    return out;
  });
  cluster.clusters = spec.clusters.map(canonicalTree);
  return cluster;
}

/** JSON with keys sorted at every level and no whitespace. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export function estimateId(request: Pick<AssemblyRequest, 'title' | 'root'>): string {
  return createHash('sha256')
    .update(canonicalJson({ title: request.title, tree: canonicalTree(request.root) }))
    .digest('hex')
    .slice(0, 12);
}

/** What an assembly job stores as its request (jobs.request, src/jobs/assemble.task.ts): the parsed request and
 * the price it was accepted at. */
export function assemblyJobRequest(request: AssemblyRequest, estimatedCostCredits: number): JobRequest<'assemble'> {
  return { assembly: request, estimatedCostCredits };
}

/** The request of a queued assembly job. Jobs queued before the parsed request was stored hold the raw body. */
export function assemblyRequestFromJob(stored: JobRequest<'assemble'>): AssemblyRequest {
  return 'assembly' in stored ? stored.assembly : parseAssemblyRequest(stored.body);
}
