/** The data model as every generator, the catalog and the estimate see it: a title and a tree of clusters
 * whose leaves are components. Built by the catalog service from stored rows; pure data, no ORM types. */

/** SDC4 reference-model types a component may be constrained by (sdc4.xsd `<Name>Type`). */
export const DATA_TYPES = [
  'XdString',
  'XdCount',
  'XdQuantity',
  'XdBoolean',
  'XdTemporal',
  'XdLink',
  'XdFile',
  'XdOrdinal',
  'XdInterval',
  'XdDouble',
  'XdFloat',
  'XdToken',
  'XdBooleanList',
  'XdDecimalList',
  'XdDoubleList',
  'XdIntegerList',
  'XdNonNegativeIntegerList',
  'XdPositiveIntegerList',
  'XdStringList',
  'XdTokenList',
] as const;

export type DataType = (typeof DATA_TYPES)[number];

export function isDataType(value: unknown): value is DataType {
  return typeof value === 'string' && (DATA_TYPES as readonly string[]).includes(value);
}

/** A semantic link of a component or cluster (drafts API `pred_obj`): an RDF predicate IRI and its object IRI. */
export interface SemanticLink {
  predicate: string;
  object: string;
}

export interface ComponentNode {
  kind: 'component';
  ctId: string;
  label: string;
  dataType: DataType;
  description: string | null;
  units: string | null;
  /** Enumerated values (XdString, XdToken: the value; XdOrdinal: the symbols, ordinals 1…n) with descriptions. */
  enums?: string[];
  enumDescr?: Record<string, string>;
  /** XdTemporal: the xdtemporal-* parts allowed (e.g. `date`, `datetime`); absent or empty means all. */
  temporalParts?: string[];
  links?: SemanticLink[];
}

export interface ClusterNode {
  kind: 'cluster';
  ctId: string;
  label: string;
  description: string | null;
  children: TreeNode[];
  links?: SemanticLink[];
}

export type TreeNode = ComponentNode | ClusterNode;

export interface DataModelDocument {
  ctId: string;
  title: string;
  description: string | null;
  /** BCP 47 tag written into dm-language; the studio uses en-US. */
  language: string;
  author: string | null;
  created: Date;
  root: ClusterNode;
  /** Dublin Core fields beyond title, description, creator and language (drafts API). */
  dublinCore?: { subject?: string; publisher?: string; source?: string; rights?: string };
}
