import type { DataType } from '../domain/model-tree';
import { TYPE_INFO } from './data-types';
import type { ContextualComponent } from './contextual-slots';
import type { PackageChild, PackageCluster, PackageComponent, PackageModel } from './package-model';

/** The `gql` artefact: a GraphQL SDL describing the shape of the model's instances (one object type per cluster
 * and per component, fields named after labels), for clients that expose or consume instances over GraphQL. */

const SCALARS = ['DateTime', 'Date', 'URI'];

const SCALAR_OF: Record<string, string> = {
  'xsd:string': 'String',
  'xsd:token': 'String',
  'xsd:integer': 'Int',
  'xsd:decimal': 'Float',
  'xsd:float': 'Float',
  'xsd:double': 'Float',
  'xsd:date': 'Date',
  'xsd:dateTime': 'DateTime',
  'xsd:anyURI': 'URI',
};

const typeSuffix = (ctId: string) => ctId.replace(/[^0-9A-Za-z_]/g, '_');
const clusterType = (ctId: string) => `Cluster_${typeSuffix(ctId)}`;
const componentType = (ctId: string) => `Component_${typeSuffix(ctId)}`;

/** GraphQL descriptions are block strings: only `"""` needs escaping. */
const describe = (text: string, pad = '') => `${pad}"""${text.replace(/"""/g, '\\"""').replace(/\\$/, '\\\\')}"""`;

/** camelCase field names from labels, unique within their type. */
function fieldNamer(): (label: string) => string {
  const used = new Set<string>(['label']);
  return (label) => {
    const words = label.split(/[^0-9A-Za-z]+/).filter(Boolean);
    let name = words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join('');
    if (!/^[A-Za-z_]/.test(name)) name = `f_${name}`;
    let unique = name;
    for (let n = 2; used.has(unique); n++) unique = `${name}_${n}`;
    used.add(unique);
    return unique;
  };
}

function valueFields(dataType: DataType, hasUnits: boolean): string[] {
  switch (dataType) {
    case 'XdBoolean':
      return ['value: Boolean'];
    case 'XdInterval':
      return ['lower: String', 'upper: String'];
    case 'XdTemporal':
      return [`${describe('An ISO 8601 date, time, date-time, duration or part of a date.')} value: String`];
    case 'XdLink':
      return ['link: URI', 'relation: String'];
    case 'XdFile':
      return ['uri: URI', 'mediaType: String'];
    case 'XdOrdinal':
      return ['ordinal: Float', 'symbol: String'];
    default: {
      const datatype = TYPE_INFO[dataType].valueDatatype;
      const scalar = SCALAR_OF[datatype] ?? '[String!]';
      return [`value: ${scalar}`, ...(hasUnits ? ['units: String'] : [])];
    }
  }
}

function objectType(name: string, description: string | null, fields: string[]): string[] {
  return [...(description ? [describe(description)] : []), `type ${name} {`, '  label: String!', ...fields.map((f) => `  ${f}`), '}', ''];
}

function componentTypeLines(c: PackageComponent): string[] {
  return objectType(componentType(c.node.ctId), `${c.node.label} (${c.node.dataType}, ${c.node.ctId})`, valueFields(c.node.dataType, !!c.units));
}

function childField(child: PackageChild, name: (label: string) => string): string {
  return child.kind === 'cluster'
    ? `${name(child.cluster.node.label)}: ${clusterType(child.cluster.node.ctId)}`
    : `${name(child.component.node.label)}: ${componentType(child.component.node.ctId)}`;
}

function clusterTypeLines(cluster: PackageCluster): string[] {
  const name = fieldNamer();
  return objectType(
    clusterType(cluster.node.ctId),
    `${cluster.node.label} (Cluster, ${cluster.node.ctId})`,
    cluster.children.map((child) => childField(child, name)),
  );
}

const CONTEXTUAL_FIELDS: Record<string, string[]> = {
  Party: ['partyName: String'],
  Audit: ['systemId: String', 'timestamp: DateTime'],
  Attestation: ['committed: DateTime', 'pending: Boolean!'],
  Participation: ['function: String', 'start: DateTime'],
};

function contextualTypeLines(c: ContextualComponent, defined: Set<string>): string[] {
  const name = componentType(c.ctId);
  if (defined.has(name)) return [];
  defined.add(name);
  const fields = CONTEXTUAL_FIELDS[c.componentType] ?? valueFields(c.componentType === 'XdLink' ? 'XdLink' : 'XdString', false);
  return objectType(name, `${c.label} (${c.componentType}, ${c.slot}, ${c.ctId})`, fields);
}

export function generateGraphqlSdl(pm: PackageModel): string {
  const m = pm.model;
  const dmType = `DM_${typeSuffix(m.ctId)}`;
  const defined = new Set(pm.components.map((c) => componentType(c.node.ctId)));
  const contextualFields = pm.contextual.map((c) => {
    const many = c.slot === 'provider' || c.slot === 'participation' || c.slot === 'audit';
    return `${c.slot}: ${many ? `[${componentType(c.ctId)}!]` : componentType(c.ctId)}`;
  });
  return [
    `# The instances of SDC4 data model dm-${m.ctId}, generated from its schema.`,
    ...SCALARS.map((s) => `scalar ${s}`),
    '',
    describe(`${m.title}${m.description ? `: ${m.description}` : ''}`),
    `type ${dmType} {`,
    '  dmLabel: String!',
    '  dmLanguage: String!',
    '  dmEncoding: String!',
    '  creationTimestamp: DateTime',
    '  instanceId: String',
    '  instanceVersion: String',
    `  data: ${clusterType(pm.root.node.ctId)}!`,
    ...contextualFields.map((f) => `  ${f}`),
    '}',
    '',
    ...pm.clusters.flatMap(clusterTypeLines),
    ...pm.components.flatMap(componentTypeLines),
    ...pm.contextual.flatMap((c) => contextualTypeLines(c, defined)),
    'type Query {',
    `  instance(instanceId: String!): ${dmType}`,
    `  instances(first: Int = 50): [${dmType}!]!`,
    '}',
    '',
  ].join('\n');
}
