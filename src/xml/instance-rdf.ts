import { Writer } from 'n3';
import { literal, namedNode } from '../rdf/terms';
import { childElements, firstChildElement, ownText, type TreeDocument, type TreeElement } from './dom';
import { localOf, qkey, SchemaModel } from './schema-model';
import { readSchemaDocument } from './schema-set';
import { ADAPTER_TYPE, CLUSTER_TYPE, SDC4_NS } from './sdc4';

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const DC_IDENTIFIER = 'http://purl.org/dc/elements/1.1/identifier';
const DCTERMS_CONFORMS_TO = 'http://purl.org/dc/terms/conformsTo';
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

/** A literal's text and datatype IRI (null: a plain string). */
interface LiteralValue {
  text: string;
  datatype: string | null;
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
export function extractInstanceRdf(args: {
  document: TreeDocument;
  instanceId: string;
  dmCtId: string;
  modelXsd: string;
  baseIri?: string;
}): InstanceRdf {
  const graphUri = `${args.baseIri ?? INSTANCE_GRAPH_PREFIX}${args.instanceId}`;
  const model = modelOf(args.modelXsd);
  const root = args.document.documentElement as TreeElement;
  const lines = new NTriplesLines();
  const add = (s: string, p: string, o: string | LiteralValue) => lines.add(s, p, o);
  const minted = new Map<string, number>();
  const mint = (base: string) => {
    const seen = (minted.get(base) ?? 0) + 1;
    minted.set(base, seen);
    return seen === 1 ? base : `${base}-${seen}`;
  };

  const describeNode = (element: TreeElement, iri: string, typeKey: string | null) => {
    const ctId = ctIdOf(element, typeKey);
    if (typeKey && localOf(typeKey).startsWith('mc-')) add(iri, RDF_TYPE, sdc4(localOf(typeKey)));
    const rmType = typeKey ? model.chain(typeKey).find((k) => k.startsWith(`{${SDC4_NS}}`) && !localOf(k).startsWith('mc-')) : undefined;
    if (rmType) add(iri, RDF_TYPE, sdc4(localOf(rmType)));
    if (ctId) add(iri, DC_IDENTIFIER, { text: ctId, datatype: null });
    const tagged = childElements(element).some(isExceptionalValue);
    for (const child of childElements(element)) visitChild(child, iri, typeKey, tagged);
  };

  const visitChild = (child: TreeElement, parentIri: string, parentType: string | null, tagged: boolean) => {
    const typeKey = parentType ? model.typeOf(child, parentType) : null;
    if (model.derivesFrom(typeKey, ADAPTER_TYPE)) {
      for (const inner of childElements(child)) visitChild(inner, parentIri, typeKey, tagged);
      return;
    }
    if (isExceptionalValue(child)) {
      const evIri = `${parentIri}/ev`;
      add(parentIri, sdc4('hasExceptionalValue'), evIri);
      add(evIri, RDF_TYPE, sdc4(`${child.localName}Type`));
      add(evIri, sdc4('ev-name'), { text: ownText(firstChildElement(child, 'ev-name') as TreeElement), datatype: null });
      return;
    }
    if (childElements(child).length === 0) {
      add(parentIri, sdc4(child.localName), valueLiteral(ownText(child), tagged ? null : model.builtinOf(typeKey)));
      return;
    }
    const isItem = child.namespaceURI === SDC4_NS && child.localName.startsWith('ms-');
    const iri = mint(isItem ? `${graphUri}/${child.localName}` : `${parentIri}/${child.localName}`);
    const property = isItem
      ? model.derivesFrom(typeKey, CLUSTER_TYPE) && parentIri === graphUri
        ? 'hasDataItem'
        : 'hasItems'
      : (CHILD_PROPERTIES[child.localName] ?? child.localName);
    add(parentIri, sdc4(property), iri);
    describeNode(child, iri, typeKey);
  };

  add(graphUri, RDF_TYPE, sdc4(`mc-${args.dmCtId}`));
  add(graphUri, RDF_TYPE, sdc4('DMType'));
  add(graphUri, DCTERMS_CONFORMS_TO, sdc4(`dm-${args.dmCtId}`));
  const rootType = model.elements.get(qkey(SDC4_NS, `dm-${args.dmCtId}`))?.typeKey ?? null;
  for (const child of childElements(root)) visitChild(child, graphUri, rootType, false);
  return { graphUri, ntriples: lines.text, tripleCount: lines.count };
}

/** What n3's canonical N-Triples writer escapes (its `canonicalEscape`): a term without any is written as is. */
const NEEDS_ESCAPE = /[^ !#-[\]-~\u0080-\uFFFD]/;
const XSD_STRING = `${XSD}string`;
const N_TRIPLES = new Writer({ format: 'N-Triples' });

/**
 * N-Triples lines, byte for byte as n3's N-Triples writer writes them, without building n3 terms: a line whose
 * terms need no escape (nearly every one) is written here; any other line is
 * written by n3, which owns the escapes.
 */
class NTriplesLines {
  text = '';
  count = 0;
  /** A node's triples come together: its subject is encoded once for all of them. */
  private subject = '';
  private encodedSubject: string | null = null;

  add(subject: string, predicate: string, object: string | LiteralValue): void {
    if (subject !== this.subject) {
      this.subject = subject;
      this.encodedSubject = this.iri(subject);
    }
    const s = this.encodedSubject;
    const p = this.iri(predicate);
    const o = typeof object === 'string' ? this.iri(object) : this.literal(object);
    this.text +=
      s !== null && p !== null && o !== null
        ? `${s} ${p} ${o} .\n`
        : N_TRIPLES.quadToString(namedNode(subject), namedNode(predicate), typeof object === 'string' ? namedNode(object) : n3Literal(object));
    this.count++;
  }

  /** `<iri>`, or null when n3 would escape part of it. */
  private iri(value: string): string | null {
    return NEEDS_ESCAPE.test(value) ? null : `<${value}>`;
  }

  private literal({ text, datatype }: LiteralValue): string | null {
    if (NEEDS_ESCAPE.test(text)) return null;
    if (datatype === null || datatype === XSD_STRING) return `"${text}"`;
    const type = this.iri(datatype);
    return type === null ? null : `"${text}"^^${type}`;
  }
}

function n3Literal({ text, datatype }: LiteralValue) {
  return datatype === null ? literal(text) : literal(text, namedNode(datatype));
}

function isExceptionalValue(element: TreeElement): boolean {
  return element.namespaceURI === SDC4_NS && firstChildElement(element, 'ev-name') !== null;
}

function ctIdOf(element: TreeElement, typeKey: string | null): string | null {
  const fromType = typeKey ? /^mc-(.+)$/.exec(localOf(typeKey))?.[1] : undefined;
  return fromType ?? /^ms-(.+)$/.exec(element.localName)?.[1] ?? null;
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
  return { text: value, datatype: `${XSD}${builtin}` };
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
