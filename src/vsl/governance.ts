import { childElements, type XElement } from '../xml/dom';
import { parseXmlDom, runSax } from '../xml/safe-parse';

/** Workflow governance as sdcgovernance 4.2.4 reads it (vsl.md §4): states are XdOrdinal components, one path per
 * component, in ordinal order; a transition is allowed when, in some path, the target is the state right after the
 * current one. The model's schema defines the workflow; the instance's `<current-state>` says where it stands. */

interface WorkflowState {
  symbol: string;
  ordinal: number;
}

export interface WorkflowPath {
  /** The component id (`mc-…`) of a model path; the cluster's label (or tag) of an instance path. */
  path: string;
  label: string;
  states: WorkflowState[];
}

export interface AllowedTransition {
  target_symbol: string;
  target_state: string;
  target_label: string;
  target_ordinal: number;
  target_component_id: string;
  paths: string[];
}

export type GovernanceOutcome =
  | { kind: 'decided'; decision: 'PERMIT' | 'DENY'; currentState: string; targetState: string; allowed: AllowedTransition[]; paths: WorkflowPath[] }
  | {
      kind: 'refused';
      reason: string;
      currentState: string | null;
      allowed: AllowedTransition[];
      paths: WorkflowPath[];
      modelDefinesStates: boolean;
    };

const XSD = 'http://www.w3.org/2001/XMLSchema';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const WRAPPERS = new Set(['XdAdapter', 'XdAdapter-value']);

const descendants = (root: XElement, ns: string | null, local: string): XElement[] => {
  const found: XElement[] = [];
  const walk = (el: XElement) => {
    for (const child of childElements(el)) {
      if (child.localName === local && (ns === null || child.namespaceURI === ns)) found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
};
const child = (el: XElement, local: string): XElement | undefined => childElements(el).find((c) => c.localName === local);
const localType = (qname: string | null): string => (qname ?? '').replace(/^.*:/, '');

/** The workflow paths a model's XSD defines: the XdOrdinals reachable from its DM's `workflow` element's type,
 * else those annotated as workflow or SCXML states (rdfs:isDefinedBy / rdfs:seeAlso); [] when neither. */
export function modelWorkflow(xsd: string): WorkflowPath[] {
  const root = parseXmlDom(xsd).documentElement;
  if (!root) return [];
  const types = new Map<string, XElement>();
  for (const type of descendants(root, XSD, 'complexType')) {
    const name = type.getAttribute('name');
    if (name) types.set(name, type);
  }
  const elements = new Map<string, XElement>();
  for (const el of childElements(root)) if (el.localName === 'element' && el.getAttribute('name')) elements.set(el.getAttribute('name')!, el);
  const ordinals = new Map<string, XElement>();
  for (const [name, type] of types) {
    const base = descendants(type, XSD, 'restriction').find((r) => localType(r.getAttribute('base')) === 'XdOrdinalType');
    if (base) ordinals.set(name, type);
  }
  if (ordinals.size === 0) return [];

  let chosen: string[] = [];
  const dm = [...types.values()].find((t) => descendants(t, XSD, 'restriction').some((r) => localType(r.getAttribute('base')) === 'DMType'));
  const workflowType = dm
    ? localType(
        descendants(dm, XSD, 'element')
          .find((e) => e.getAttribute('name') === 'workflow')
          ?.getAttribute('type') ?? null,
      )
    : '';
  if (workflowType && types.has(workflowType)) chosen = reachableOrdinals(workflowType, types, elements, ordinals);
  if (chosen.length === 0) chosen = [...ordinals.keys()].filter((name) => boundToWorkflow(ordinals.get(name)!));
  return chosen.map((name) => ordinalPath(name, ordinals.get(name)!)).filter((p) => p.states.length > 0);
}

function reachableOrdinals(start: string, types: Map<string, XElement>, elements: Map<string, XElement>, ordinals: Map<string, XElement>): string[] {
  const seen = new Set<string>();
  const found: string[] = [];
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    if (ordinals.has(name)) found.push(name);
    const type = types.get(name);
    if (!type) return;
    for (const el of descendants(type, XSD, 'element')) {
      const ref = el.getAttribute('ref');
      const typeName = ref ? elements.get(localType(ref))?.getAttribute('type') : el.getAttribute('type');
      if (typeName) visit(localType(typeName));
    }
  };
  visit(start);
  return found;
}

function boundToWorkflow(type: XElement): boolean {
  const annotation = child(type, 'annotation');
  if (!annotation) return false;
  return [...descendants(annotation, null, 'isDefinedBy'), ...descendants(annotation, null, 'seeAlso')].some((el) =>
    /scxml|workflow/i.test(el.getAttributeNS(RDF, 'resource') ?? el.getAttribute('rdf:resource') ?? ''),
  );
}

/** One XdOrdinal's states: its `symbol` enumeration (this gateway's generator), else the documentation (or
 * value) of its `ordinal` enumeration (sdcgovernance's form), in ordinal order. */
function ordinalPath(name: string, type: XElement): WorkflowPath {
  const declared = (local: string) => descendants(type, XSD, 'element').find((e) => e.getAttribute('name') === local);
  const enumerations = (el: XElement | undefined) => (el ? descendants(el, XSD, 'enumeration') : []);
  const ordinalEnums = enumerations(declared('ordinal'));
  const symbolEnums = enumerations(declared('symbol'));
  const states: WorkflowState[] = ordinalEnums.map((e, i) => {
    const doc = descendants(e, XSD, 'documentation')[0]?.textContent?.trim();
    const symbol = symbolEnums.length === ordinalEnums.length ? symbolEnums[i].getAttribute('value')! : doc || e.getAttribute('value')!;
    return { symbol, ordinal: Number(e.getAttribute('value')) };
  });
  if (ordinalEnums.length === 0) symbolEnums.forEach((e, i) => states.push({ symbol: e.getAttribute('value')!, ordinal: i + 1 }));
  states.sort((a, b) => a.ordinal - b.ordinal);
  const label = descendants(type, null, 'label')[0]?.textContent?.trim() || name;
  return { path: name, label, states };
}

/** The instance's `<current-state>` (a child of the root) and the paths of its own `<workflow>` tree: a state is
 * any element with both `ordinal` and `symbol` children; its path the nearest ancestor that is not an XdAdapter
 * wrapper. One SAX pass with the parser's limits (a tree of a large payload cost the event loop ten times more). */
export function instanceGovernance(xml: string): { currentState: string | null; paths: WorkflowPath[] } {
  interface Frame {
    local: string;
    text: string;
    children: Map<string, string>;
    workflow: boolean;
  }
  const stack: Frame[] = [];
  const byHolder = new Map<Frame, WorkflowPath>();
  let currentState: string | null = null;
  runSax(xml, {
    opentag: (tag) => {
      const local = tag.local ?? tag.name.replace(/^.*:/, '');
      stack.push({ local, text: '', children: new Map(), workflow: stack.length === 1 && local === 'workflow' });
    },
    text: (text) => {
      if (stack.length) stack[stack.length - 1].text += text;
    },
    cdata: (text) => {
      if (stack.length) stack[stack.length - 1].text += text;
    },
    closetag: () => {
      const frame = stack.pop()!;
      const parent = stack[stack.length - 1];
      if (!parent) return;
      if (!parent.children.has(frame.local)) parent.children.set(frame.local, frame.text.trim());
      if (stack.length === 1 && frame.local === 'current-state') currentState = frame.text.trim() || null;
      if (!stack[1]?.workflow || !frame.children.has('ordinal') || !frame.children.has('symbol')) return;
      let at = stack.length - 1;
      while (at > 1 && WRAPPERS.has(stack[at].local)) at--;
      const holder = stack[at];
      let path = byHolder.get(holder);
      if (!path) {
        const name = holder.children.get('label') || `${holder.local}[${byHolder.size + 1}]`;
        byHolder.set(holder, (path = { path: name, label: name, states: [] }));
      }
      path.states.push({ symbol: frame.children.get('symbol')!, ordinal: Number(frame.children.get('ordinal')) });
    },
  });
  const paths = [...byHolder.values()];
  for (const p of paths) p.states.sort((a, b) => a.ordinal - b.ordinal);
  return { currentState, paths };
}

/** Where `current` can go next: every state right after it, grouped by symbol across paths. */
function allowedTransitions(paths: readonly WorkflowPath[], current: string | null): AllowedTransition[] {
  const bySymbol = new Map<string, AllowedTransition>();
  for (const p of paths) {
    p.states.forEach((state, i) => {
      const next = p.states[i + 1];
      if (state.symbol !== current || !next) return;
      const known = bySymbol.get(next.symbol);
      if (known) known.paths.push(p.path);
      else
        bySymbol.set(next.symbol, {
          target_symbol: next.symbol,
          target_state: next.symbol,
          target_label: p.label,
          target_ordinal: next.ordinal,
          target_component_id: p.path,
          paths: [p.path],
        });
    });
  }
  return [...bySymbol.values()];
}

/** PERMIT when the target is next in some path; DENY for a skip or a reversal between known states; a refusal
 * (no Receipt) when there is no workflow or either state is not in it. */
export function decide(
  modelPaths: WorkflowPath[],
  instance: { currentState: string | null; paths: WorkflowPath[] },
  targetState: string,
): GovernanceOutcome {
  const paths = modelPaths.length ? modelPaths : instance.paths;
  const currentState = instance.currentState;
  const allowed = allowedTransitions(paths, currentState);
  const modelDefinesStates = modelPaths.length > 0;
  const refused = (reason: string): GovernanceOutcome => ({ kind: 'refused', reason, currentState, allowed, paths, modelDefinesStates });
  if (paths.length === 0)
    return refused('The model defines no workflow states and the instance carries none: there is nothing to govern this transition.');
  const known = new Set(paths.flatMap((p) => p.states.map((s) => s.symbol)));
  if (currentState === null) return refused('The payload has no <current-state>: the issuer cannot tell where the workflow stands.');
  if (!known.has(currentState)) return refused(`The current state "${currentState}" is not a state of this workflow.`);
  if (!known.has(targetState)) return refused(`The target state "${targetState}" is not a state of this workflow.`);
  const decision = allowed.some((t) => t.target_symbol === targetState) ? 'PERMIT' : 'DENY';
  return { kind: 'decided', decision, currentState, targetState, allowed, paths };
}
