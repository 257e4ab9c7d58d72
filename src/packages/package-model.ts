import { createHash } from 'node:crypto';
import type { ClusterNode, ComponentNode, DataModelDocument } from '../domain/model-tree';
import { inSchemaOrder, requireSlotType, type ContextualComponent } from './contextual-slots';
import { xmlSafe } from './escape';

/** The model as every package generator walks it: text made XML-safe once, every cluster and component listed
 * once (a reused one may appear at several places), and the extra model components SDC4 needs minted with
 * stable ct_ids: a units component for each component that carries units, an XdAdapter wrapper for each component. */

export const SDC4_NS = 'https://semanticdatacharter.com/ns/sdc4/';
export const SDC4_META_NS = 'https://semanticdatacharter.com/ontology/sdc4-meta/';
export const SDC4_XSD_URL = 'https://semanticdatacharter.com/ns/sdc4/sdc4.xsd';
export const DMLIB_URL = 'https://semanticdatacharter.com/dmlib/';

/** Component types whose reference-model type requires a units element (`<type>-units`, an XdStringType). */
const UNITS_REQUIRED = new Set([
  'XdCount',
  'XdQuantity',
  'XdDecimalList',
  'XdDoubleList',
  'XdIntegerList',
  'XdNonNegativeIntegerList',
  'XdPositiveIntegerList',
]);
/** Component types whose units element is optional in the reference model: present when the model gives units. */
const UNITS_OPTIONAL = new Set(['XdFloat', 'XdDouble']);

export interface PackageUnits {
  ctId: string;
  label: string;
  /** Fixed units value, or null when the model leaves it to the instance. */
  value: string | null;
}

export interface PackageComponent {
  node: ComponentNode;
  adapterCtId: string;
  units: PackageUnits | null;
}

export type PackageChild = { kind: 'cluster'; cluster: PackageCluster } | { kind: 'component'; component: PackageComponent };

export interface PackageCluster {
  node: ClusterNode;
  children: PackageChild[];
}

export interface PackageModel {
  model: DataModelDocument;
  /** The model's creation date (YYYY-MM-DD), which example temporal values use. */
  createdDate: string;
  root: PackageCluster;
  /** Distinct clusters in document order, root first. */
  clusters: PackageCluster[];
  /** Distinct components in document order. */
  components: PackageComponent[];
  /** Every placement in the tree, pre-order with its depth (a reused node appears at each of its places). */
  occurrences: Array<{ depth: number; child: PackageChild }>;
  /** The contextual components in DMType order, text made XML-safe. */
  contextual: ContextualComponent[];
}

const CT_ID = /^[A-Za-z0-9_.-]+$/;

/** A 24-character lowercase id that starts with a letter (cuid2-shaped), stable for the same purpose and ct_id. */
function derivedCtId(purpose: 'units' | 'adapter', ctId: string): string {
  const digest = createHash('sha256').update(`${purpose}:${ctId}`).digest();
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let id = alphabet[digest[0] % 26];
  for (let i = 1; i < 24; i++) id += alphabet[digest[i] % 36];
  return id;
}

function requireCtId(ctId: string, what: string): void {
  if (!CT_ID.test(ctId)) throw new Error(`${what} has a ct_id that cannot name an XML element: "${ctId}"`);
}

function cleanOptional(text: string | null): string | null {
  if (text === null) return null;
  const cleaned = xmlSafe(text);
  return cleaned.trim() === '' ? null : cleaned;
}

function unitsFor(node: ComponentNode): PackageUnits | null {
  const needed = UNITS_REQUIRED.has(node.dataType) || (UNITS_OPTIONAL.has(node.dataType) && node.units !== null);
  if (!needed) return null;
  return { ctId: derivedCtId('units', node.ctId), label: `${node.label}_units`, value: node.units };
}

/** Each mc- type name may be defined once: a ct_id shared by two different model components cannot be. */
function requireDistinctNames(
  model: DataModelDocument,
  clusters: PackageCluster[],
  components: PackageComponent[],
  contextual: ContextualComponent[],
): void {
  const owners = new Map<string, string>([[model.ctId, 'the data model']]);
  const claim = (ctId: string, owner: string) => {
    const previous = owners.get(ctId);
    if (previous) throw new Error(`ct_id ${ctId} names both ${previous} and ${owner}`);
    owners.set(ctId, owner);
  };
  for (const cl of clusters) claim(cl.node.ctId, `cluster "${cl.node.label}"`);
  for (const c of components) {
    claim(c.node.ctId, `component "${c.node.label}"`);
    claim(c.adapterCtId, `the adapter of "${c.node.label}"`);
    if (c.units) claim(c.units.ctId, `the units of "${c.node.label}"`);
  }
  // A contextual component may also sit in the tree (an XdString as protocol) or fill two slots: one type serves both.
  const inTree = new Set(components.map((c) => c.node.ctId));
  const seen = new Set<string>();
  for (const c of contextual) {
    if (inTree.has(c.ctId) || seen.has(c.ctId)) continue;
    seen.add(c.ctId);
    claim(c.ctId, `the ${c.slot} component "${c.label}"`);
  }
}

const LANGUAGE_TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

export function buildPackageModel(input: DataModelDocument, contextualInput: ContextualComponent[] = []): PackageModel {
  requireCtId(input.ctId, 'The data model');
  if (!LANGUAGE_TAG.test(input.language)) throw new Error(`"${input.language}" is not a language tag (xsd:language)`);
  const model: DataModelDocument = {
    ...input,
    title: xmlSafe(input.title),
    description: cleanOptional(input.description),
    author: cleanOptional(input.author),
  };
  const clusters = new Map<string, PackageCluster>();
  const components = new Map<string, PackageComponent>();
  const occurrences: PackageModel['occurrences'] = [];

  const component = (node: ComponentNode): PackageComponent => {
    const known = components.get(node.ctId);
    if (known) return known;
    requireCtId(node.ctId, `Component "${node.label}"`);
    const clean: ComponentNode = {
      ...node,
      label: xmlSafe(node.label),
      description: cleanOptional(node.description),
      units: cleanOptional(node.units),
    };
    const built: PackageComponent = { node: clean, adapterCtId: derivedCtId('adapter', node.ctId), units: unitsFor(clean) };
    components.set(node.ctId, built);
    return built;
  };

  const cluster = (node: ClusterNode, depth: number, path: Set<string>): PackageCluster => {
    if (path.has(node.ctId)) throw new Error(`Cluster "${node.label}" (${node.ctId}) contains itself`);
    requireCtId(node.ctId, `Cluster "${node.label}"`);
    const known = clusters.get(node.ctId);
    const built: PackageCluster = known ?? {
      node: { ...node, label: xmlSafe(node.label), description: cleanOptional(node.description) },
      children: [],
    };
    if (!known) clusters.set(node.ctId, built);
    occurrences.push({ depth, child: { kind: 'cluster', cluster: built } });
    const seen = new Set<string>();
    const inner = new Set(path).add(node.ctId);
    for (const child of node.children) {
      // One element per distinct child: a repeated optional particle would break Unique Particle Attribution.
      const key = `${child.kind}:${child.ctId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      let placed: PackageChild;
      if (child.kind === 'cluster') {
        placed = { kind: 'cluster', cluster: cluster(child, depth + 1, inner) };
      } else {
        placed = { kind: 'component', component: component(child) };
        occurrences.push({ depth: depth + 1, child: placed });
      }
      if (!known) built.children.push(placed);
    }
    return built;
  };

  const root = cluster(input.root, 0, new Set());
  const contextual = inSchemaOrder(contextualInput).map((c) => {
    requireCtId(c.ctId, `The ${c.slot} component`);
    requireSlotType(c);
    return { ...c, label: xmlSafe(c.label), description: cleanOptional(c.description) };
  });
  requireDistinctNames(model, [...clusters.values()], [...components.values()], contextual);
  return {
    model,
    createdDate: model.created.toISOString().slice(0, 10),
    root,
    clusters: [...clusters.values()],
    components: [...components.values()],
    occurrences,
    contextual,
  };
}
