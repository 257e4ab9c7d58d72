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

export interface ComponentNode {
  kind: 'component';
  ctId: string;
  label: string;
  dataType: DataType;
  description: string | null;
  units: string | null;
}

export interface ClusterNode {
  kind: 'cluster';
  ctId: string;
  label: string;
  description: string | null;
  children: TreeNode[];
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
}
