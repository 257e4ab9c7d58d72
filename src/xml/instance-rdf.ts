import { Writer } from 'n3';
import { literal, namedNode } from '../rdf/terms';
import { childElements, firstChildElement, ownText, type TreeDocument, type TreeElement } from './dom';
import { localOf, qkey, SchemaModel } from './schema-model';
import { readSchemaDocument } from './schema-set';
import { ADAPTER_TYPE, CLUSTER_TYPE, ctIdAfter, SDC4_NS } from './sdc4';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const sdc4 = (local: string) => `${SDC4_NS}${local}`;

/** Object properties of the SDC4 ontology for the complex children that have one; others use `sdc4:<name>`. */
const CHILD_PROPERTIES: Record<string, string> = {
  'xdcount-units': 'hasXdCountUnits',
  'xdquantity-units': 'hasXdQuantityUnits',
  'xdfloat-units': 'hasXdFloatUnits',
  'xddouble-units': 'hasXdDoubleUnits',
  ReferenceRange: 'hasReferenceRange',
  interval: 'hasInterval',
  lower: 'hasLower',
  upper: 'hasUpper',
  'interval-units': 'hasIntervalUnits',
};

const INSTANCE_GRAPH_PREFIX = 'urn:sdc4:instance:';

export interface InstanceRdf {
  graphUri: string;
  /** The graph's triples (without the graph name) as canonical N-Triples, as n3's N-Triples writer writes them. */
  ntriples: string;
  tripleCount: number;
}

/** The same graph as compact Turtle: the stored copy (app_graphs), which every reader loads as Turtle. */
export interface InstanceTurtle {
  graphUri: string;
  turtle: string;
  tripleCount: number;
}

type InstanceArgs = { document: TreeDocument; instanceId: string; dmCtId: string; modelXsd: string; baseIri?: string };

/** A literal's text and datatype (null: a plain string). */
interface LiteralValue {
  text: string;
  datatype: Term | null;
}

/**
 * The triples of a validated instance, in the named graph `urn:sdc4:instance:{instance_id}` (or
 * `{baseIri}{instance_id}`), which also names the instance itself. Vocabulary: the SDC4 ontology
 * (https://semanticdatacharter.com/ns/sdc4/) and the model's own classes as the package RDF declares them.
 *
 * - instance: `a sdc4:mc-{dm_ct_id}, sdc4:DMType`, `dcterms:conformsTo sdc4:dm-{dm_ct_id}`, its metadata
 *   elements as `sdc4:dm-label`, `sdc4:dm-language`, … literals;
 * - `sdc4:hasDataItem` to the root cluster, `sdc4:hasItems` from a cluster to each member (XdAdapter wrappers
 *   are skipped), a cluster or component node being `{graph}/{ms-ct_id}` (`-2`, `-3`… for repeats);
 * - each node: `a sdc4:mc-{ct_id}` and its reference-model class (`sdc4:XdCountType`, `sdc4:ClusterType`, …),
 *   `dc:identifier "{ct_id}"`, `sdc4:label`;
 * - each simple child as `sdc4:{element name}` (`sdc4:xdcount-value "23"^^xsd:integer`, `sdc4:vtb`, …), typed by
 *   the model's XSD datatype; a value that is not of its type (a placeholder kept beside an EV) stays a plain
 *   string;
 * - units and other structured children as nodes `{parent}/{name}` linked by the ontology's property
 *   (`sdc4:hasXdCountUnits`, `sdc4:hasXdQuantityUnits`, …);
 * - an EV as `sdc4:hasExceptionalValue {node}/ev`, typed `sdc4:NIType` (…) with its `sdc4:ev-name`.
 */
export function extractInstanceRdf(args: InstanceArgs): InstanceRdf {
  const lines = new NTriplesLines();
  const graphUri = instanceTriples(args, lines);
  return { graphUri, ntriples: lines.text, tripleCount: lines.count };
}

/**
 * The same triples as `extractInstanceRdf`, written as Turtle: the namespaces as prefixes, `a` for rdf:type, and
 * a subject's consecutive triples after one subject (` ;`). About 40 % of the N-Triples' bytes for an SDC4
 * instance (StatePopulation: 9.8 → 4.1 KB), which is what Postgres writes (WAL and table) and the event loop sends
 * for every stored instance. A triple with a term the compact form cannot carry as is falls back to its N-Triples
 * line (N-Triples is Turtle).
 */
export function extractInstanceTurtle(args: InstanceArgs): InstanceTurtle {
  const lines = new TurtleLines();
  const graphUri = instanceTriples(args, lines);
  return { graphUri, turtle: lines.finish(), tripleCount: lines.count };
}

/** The traversal both serialisations share: every triple of the instance, in order, to `lines`. */
function instanceTriples(args: InstanceArgs, lines: TripleSink): string {
  const graph = term(`${args.baseIri ?? INSTANCE_GRAPH_PREFIX}${args.instanceId}`);
  const model = modelOf(args.modelXsd);
  const facts = factsOf(model);
  const root = args.document.documentElement as TreeElement;
  const minted = new Map<string, number>();
  const mint = (base: string) => {
    const seen = (minted.get(base) ?? 0) + 1;
    minted.set(base, seen);
    return term(seen === 1 ? base : `${base}-${seen}`);
  };

  const describeNode = (element: TreeElement, node: Term, typeKey: string | null, type: TypeFacts) => {
    for (const rdfClass of type.classes) lines.add(node, RDF_TYPE, rdfClass);
    const ctId = type.ctId ?? ctIdAfter('ms', element.localName);
    if (ctId) lines.add(node, DC_IDENTIFIER, { text: ctId, datatype: null });
    const children = childElements(element);
    const tagged = children.some(isExceptionalValue);
    for (const child of children) visitChild(child, node, typeKey, tagged);
  };

  const visitChild = (child: TreeElement, parent: Term, parentType: string | null, tagged: boolean) => {
    const typeKey = parentType ? model.typeOf(child, parentType) : null;
    const type = facts.of(typeKey);
    if (type.adapter) {
      for (const inner of childElements(child)) visitChild(inner, parent, typeKey, tagged);
      return;
    }
    if (isExceptionalValue(child)) {
      const ev = term(`${parent.iri}/ev`);
      lines.add(parent, sdc4Term('hasExceptionalValue'), ev);
      lines.add(ev, RDF_TYPE, sdc4Term(`${child.localName}Type`));
      lines.add(ev, sdc4Term('ev-name'), { text: ownText(firstChildElement(child, 'ev-name') as TreeElement), datatype: null });
      return;
    }
    if (childElements(child).length === 0) {
      lines.add(parent, sdc4Term(child.localName), valueLiteral(ownText(child), tagged ? null : type.builtin));
      return;
    }
    const isItem = child.namespaceURI === SDC4_NS && child.localName.startsWith('ms-');
    const node = mint(isItem ? `${graph.iri}/${child.localName}` : `${parent.iri}/${child.localName}`);
    const property = isItem
      ? type.cluster && parent === graph
        ? 'hasDataItem'
        : 'hasItems'
      : (CHILD_PROPERTIES[child.localName] ?? child.localName);
    lines.add(parent, sdc4Term(property), node);
    describeNode(child, node, typeKey, type);
  };

  lines.add(graph, RDF_TYPE, sdc4Term(`mc-${args.dmCtId}`));
  lines.add(graph, RDF_TYPE, sdc4Term('DMType'));
  lines.add(graph, DCTERMS_CONFORMS_TO, sdc4Term(`dm-${args.dmCtId}`));
  const rootType = model.elements.get(qkey(SDC4_NS, `dm-${args.dmCtId}`))?.typeKey ?? null;
  for (const child of childElements(root)) visitChild(child, graph, rootType, false);
  return graph.iri;
}

/** What n3's canonical N-Triples writer escapes (its `canonicalEscape`): a term without any is written as is. */
const NEEDS_ESCAPE = /[^ !#-[\]-~\u0080-\uFFFD]/;
const XSD_STRING = `${XSD}string`;
const N_TRIPLES = new Writer({ format: 'N-Triples' });

/** An IRI and its N-Triples form (`<iri>`), or null where n3 would escape part of it: checked once per term, not
 * once per triple it is in; and its Turtle form (a prefixed name where one fits, else the N-Triples form). */
interface Term {
  iri: string;
  encoded: string | null;
  compact: string | null;
}

/** The Turtle prefixes of the stored graphs, written at the head of each. */
const TURTLE_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ['sdc4', SDC4_NS],
  ['xsd', XSD],
  ['dct', 'http://purl.org/dc/terms/'],
  ['dc', 'http://purl.org/dc/elements/1.1/'],
];
const TURTLE_HEADER = TURTLE_PREFIXES.map(([prefix, iri]) => `@prefix ${prefix}: <${iri}> .\n`).join('');
/** A local name that Turtle's PN_LOCAL takes without escapes (a subset: no dots, colons or percent signs). */
const PLAIN_LOCAL = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;

function compactOf(iri: string, encoded: string | null): string | null {
  if (encoded === null) return null;
  for (const [prefix, namespace] of TURTLE_PREFIXES) {
    if (iri.startsWith(namespace) && PLAIN_LOCAL.test(iri.slice(namespace.length))) return `${prefix}:${iri.slice(namespace.length)}`;
  }
  return encoded;
}

const term = (iri: string): Term => {
  const encoded = NEEDS_ESCAPE.test(iri) ? null : `<${iri}>`;
  return { iri, encoded, compact: compactOf(iri, encoded) };
};

const RDF_TYPE = term('http://www.w3.org/1999/02/22-rdf-syntax-ns#type');
const DC_IDENTIFIER = term('http://purl.org/dc/elements/1.1/identifier');
const DCTERMS_CONFORMS_TO = term('http://purl.org/dc/terms/conformsTo');

/** Interned terms by SDC4 local name and by XSD builtin (an instance repeats the same few dozen); cleared when
 * full, since an instance's element names are its author's. */
const MAX_INTERNED = 4096;
const sdc4Terms = new Map<string, Term>();
const xsdTerms = new Map<string, Term>();
function interned(terms: Map<string, Term>, key: string, iri: () => string): Term {
  let found = terms.get(key);
  if (!found) {
    if (terms.size >= MAX_INTERNED) terms.clear();
    terms.set(key, (found = term(iri())));
  }
  return found;
}
const sdc4Term = (local: string) => interned(sdc4Terms, local, () => sdc4(local));
const xsdTerm = (builtin: string) => interned(xsdTerms, builtin, () => `${XSD}${builtin}`);

/**
 * N-Triples lines, byte for byte as n3's N-Triples writer writes them, without building n3 terms: a line whose
 * terms need no escape (nearly every one) is written here; any other line is
 * written by n3, which owns the escapes.
 */
interface TripleSink {
  add(subject: Term, predicate: Term, object: Term | LiteralValue): void;
}

class NTriplesLines implements TripleSink {
  text = '';
  count = 0;

  add(subject: Term, predicate: Term, object: Term | LiteralValue): void {
    const s = subject.encoded;
    const p = predicate.encoded;
    const o = 'iri' in object ? object.encoded : literalText(object, object.datatype?.encoded);
    this.text += s !== null && p !== null && o !== null ? `${s} ${p} ${o} .\n` : n3Line(subject, predicate, object);
    this.count++;
  }
}

/** Turtle statements: the prefixes, then each run of triples of one subject as one statement. */
class TurtleLines implements TripleSink {
  private text = TURTLE_HEADER;
  private subject: string | null = null;
  count = 0;

  add(subject: Term, predicate: Term, object: Term | LiteralValue): void {
    const s = subject.compact;
    const p = predicate === RDF_TYPE ? 'a' : predicate.compact;
    const o = 'iri' in object ? object.compact : literalText(object, object.datatype?.compact);
    this.count++;
    if (s === null || p === null || o === null) {
      this.close();
      this.text += n3Line(subject, predicate, object);
    } else if (this.subject === subject.iri) {
      this.text += ` ;\n  ${p} ${o}`;
    } else {
      this.close();
      this.text += `${s} ${p} ${o}`;
      this.subject = subject.iri;
    }
  }

  finish(): string {
    this.close();
    return this.text;
  }

  private close(): void {
    if (this.subject !== null) this.text += ' .\n';
    this.subject = null;
  }
}

/** A literal as N-Triples and Turtle both write it (with the datatype's form given), or null where n3 would
 * escape part of it. */
function literalText({ text, datatype }: LiteralValue, datatypeForm: string | null | undefined): string | null {
  if (NEEDS_ESCAPE.test(text)) return null;
  if (datatype === null || datatype.iri === XSD_STRING) return `"${text}"`;
  return datatypeForm == null ? null : `"${text}"^^${datatypeForm}`;
}

/** A triple's line as n3's N-Triples writer writes it, escapes and all. */
const n3Line = (subject: Term, predicate: Term, object: Term | LiteralValue): string =>
  N_TRIPLES.quadToString(namedNode(subject.iri), namedNode(predicate.iri), 'iri' in object ? namedNode(object.iri) : n3Literal(object));

function n3Literal({ text, datatype }: LiteralValue) {
  return datatype === null ? literal(text) : literal(text, namedNode(datatype.iri));
}

function isExceptionalValue(element: TreeElement): boolean {
  return element.namespaceURI === SDC4_NS && firstChildElement(element, 'ev-name') !== null;
}

/** What the triples need of an element's type, worked out once per type of a model: its classes (the model's
 * `mc-` class, then its reference-model class), the ct_id it names, whether it is an adapter or a cluster and its
 * XSD builtin. */
interface TypeFacts {
  classes: Term[];
  /** From an `mc-{ct_id}` type; null: from the element's `ms-{ct_id}` name. */
  ctId: string | null;
  adapter: boolean;
  cluster: boolean;
  builtin: string | null;
}

const UNTYPED: TypeFacts = { classes: [], ctId: null, adapter: false, cluster: false, builtin: null };

class ModelFacts {
  private readonly types = new Map<string, TypeFacts>();

  constructor(private readonly model: SchemaModel) {}

  of(typeKey: string | null): TypeFacts {
    if (typeKey === null) return UNTYPED;
    let facts = this.types.get(typeKey);
    if (!facts) {
      // An xsi:type names any type it likes: the map is bounded like the interned terms.
      if (this.types.size >= MAX_INTERNED) this.types.clear();
      this.types.set(typeKey, (facts = this.build(typeKey)));
    }
    return facts;
  }

  private build(typeKey: string): TypeFacts {
    const { model } = this;
    const local = localOf(typeKey);
    const classes = local.startsWith('mc-') ? [sdc4Term(local)] : [];
    const rmType = model.chain(typeKey).find((k) => k.startsWith(`{${SDC4_NS}}`) && !localOf(k).startsWith('mc-'));
    if (rmType) classes.push(sdc4Term(localOf(rmType)));
    return {
      classes,
      ctId: ctIdAfter('mc', local),
      adapter: model.derivesFrom(typeKey, ADAPTER_TYPE),
      cluster: model.derivesFrom(typeKey, CLUSTER_TYPE),
      builtin: model.builtinOf(typeKey),
    };
  }
}

const modelFacts = new WeakMap<SchemaModel, ModelFacts>();
function factsOf(model: SchemaModel): ModelFacts {
  let facts = modelFacts.get(model);
  if (!facts) modelFacts.set(model, (facts = new ModelFacts(model)));
  return facts;
}

const LEXICAL: Record<string, RegExp> = {
  integer: /^[+-]?\d+$/,
  decimal: /^[+-]?(\d+(\.\d*)?|\.\d+)$/,
  double: /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[+-]?INF|NaN)$/,
  boolean: /^(true|false|1|0)$/,
  dateTime: /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
  date: /^-?\d{4,}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})?$/,
  time: /^\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
};
const LEXICAL_FAMILY: Record<string, string> = {
  long: 'integer',
  int: 'integer',
  short: 'integer',
  byte: 'integer',
  nonNegativeInteger: 'integer',
  positiveInteger: 'integer',
  negativeInteger: 'integer',
  nonPositiveInteger: 'integer',
  unsignedLong: 'integer',
  unsignedInt: 'integer',
  unsignedShort: 'integer',
  unsignedByte: 'integer',
  float: 'double',
};

/** A literal of the builtin datatype when the text is of that type, else a plain string. */
function valueLiteral(text: string, builtin: string | null): LiteralValue {
  if (!builtin || builtin === 'string' || builtin === 'anyType' || builtin === 'anySimpleType') return { text, datatype: null };
  const value = text.trim();
  const pattern = LEXICAL[LEXICAL_FAMILY[builtin] ?? builtin];
  if (pattern && !pattern.test(value)) return { text, datatype: null };
  return { text: value, datatype: xsdTerm(builtin) };
}

/** Keyed by the XSD text itself: looking up the text a cached schema holds costs no hashing of its content. */
const models = new Map<string, SchemaModel>();
const MAX_MODELS = 32;

/** The model XSD's declarations (no includes needed: the data model's own types carry the value datatypes). */
function modelOf(modelXsd: string): SchemaModel {
  let model = models.get(modelXsd);
  if (!model) {
    model = SchemaModel.build([readSchemaDocument('model.xsd', 'model.xsd', modelXsd)]);
    if (models.size >= MAX_MODELS) models.delete(models.keys().next().value as string);
    models.set(modelXsd, model);
  }
  return model;
}
