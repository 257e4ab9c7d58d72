import { componentParticles, TYPE_INFO, type Particle } from './data-types';
import { prettyJson } from './escape';
import type { PackageChild, PackageCluster, PackageComponent, PackageModel } from './package-model';
import { SDC4_META_NS, SDC4_NS } from './package-model';

/** The JSON artefacts: the model as JSON-LD (`dm-<ct_id>.jsonld`) and the example instance as plain JSON
 * (`dm-<ct_id>-instance.json`), both shaped like the studio's. */

const CONTEXT = {
  '@vocab': SDC4_NS,
  sdc4: SDC4_NS,
  'sdc4-meta': SDC4_META_NS,
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  dc: 'http://purl.org/dc/elements/1.1/',
  label: 'rdfs:label',
  description: 'rdfs:comment',
  components: { '@id': 'sdc4:hasDataItem' },
  contains: { '@id': 'sdc4:hasItems' },
  constrainedBy: { '@id': 'sdc4-meta:isConstrainedByRmComponent', '@type': '@id' },
  units: { '@id': 'sdc4-meta:hasUnit' },
  dataType: { '@type': '@id' },
};

function ldComponent(c: PackageComponent): Record<string, unknown> {
  const node = c.node;
  return {
    '@type': `${node.dataType}Type`,
    '@id': `sdc4:mc-${node.ctId}`,
    label: node.label,
    ...(node.description ? { description: node.description } : {}),
    constrainedBy: `sdc4:${node.dataType}Type`,
    dataType: TYPE_INFO[node.dataType].valueDatatype,
    ...(c.units
      ? {
          units: {
            '@type': 'XdStringType',
            '@id': `sdc4:mc-${c.units.ctId}`,
            label: c.units.label,
            ...(c.units.value === null ? {} : { 'xdstring-value': c.units.value }),
          },
        }
      : {}),
  };
}

function ldCluster(cluster: PackageCluster): Record<string, unknown> {
  return {
    '@type': 'ClusterType',
    '@id': `sdc4:mc-${cluster.node.ctId}`,
    label: cluster.node.label,
    ...(cluster.node.description ? { description: cluster.node.description } : {}),
    constrainedBy: 'sdc4:ClusterType',
    contains: cluster.children.map((child) => (child.kind === 'cluster' ? ldCluster(child.cluster) : ldComponent(child.component))),
  };
}

export function generateJsonLd(pm: PackageModel): string {
  const m = pm.model;
  return prettyJson({
    '@context': CONTEXT,
    '@type': 'sdc4-meta:DataModel',
    '@id': `sdc4:dm-${m.ctId}`,
    identifier: m.ctId,
    label: m.title,
    ...(m.description ? { description: m.description } : {}),
    'dc:title': m.title,
    ...(m.author ? { 'dc:creator': m.author } : {}),
    'dc:language': m.language,
    'dc:format': 'text/xml',
    'dc:date': { '@value': m.created.toISOString(), '@type': 'xsd:dateTime' },
    components: [ldCluster(pm.root)],
  });
}

const NUMERIC = /^xsd:(integer|decimal|float|double)$|^sdc4:(Decimal|Double|Integer|NonNegativeInteger|PositiveInteger)ListSimpleType$/;

function typedSample(datatype: string, text: string): unknown {
  const numeric = NUMERIC.test(datatype);
  if (datatype.endsWith('ListSimpleType')) {
    const items = text.split(/\s+/).filter(Boolean);
    if (datatype === 'sdc4:BooleanListSimpleType') return items.map((item) => item === 'true');
    return numeric ? items.map(Number) : items;
  }
  return numeric ? Number(text) : text;
}

/** Sample values of the particles the example instance writes, keyed by element name (label left out). */
function sampleFields(particles: Particle[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const p of particles) {
    const leaf = 'choice' in p ? p.choice[p.pick] : p;
    if ('ref' in leaf || !leaf.sample || leaf.element === 'label') continue;
    const sample = leaf.sample;
    fields[leaf.element] =
      'text' in sample
        ? typedSample(leaf.type ?? 'xsd:string', sample.text)
        : Object.fromEntries(sample.children.map((child) => [child.element, child.text]));
  }
  return fields;
}

function instanceItem(pm: PackageModel, child: PackageChild): Record<string, unknown> {
  if (child.kind === 'cluster') return instanceCluster(pm, child.cluster);
  const c = child.component;
  const info = TYPE_INFO[c.node.dataType];
  const fields = sampleFields(componentParticles(c, pm.createdDate));
  const unitsElement = Object.keys(fields).find((name) => name.endsWith('-units'));
  const units = unitsElement ? fields[unitsElement] : undefined;
  if (unitsElement) delete fields[unitsElement];
  const names = Object.keys(fields);
  const simple = names.length === 1 && names[0] === info.valueElement;
  return {
    component_id: c.node.ctId,
    label: c.node.label,
    type: c.node.dataType,
    ...(c.node.description ? { description: c.node.description } : {}),
    value: simple ? fields[info.valueElement] : fields,
    ...(units ? { units } : {}),
  };
}

function instanceCluster(pm: PackageModel, cluster: PackageCluster): Record<string, unknown> {
  return {
    component_id: cluster.node.ctId,
    label: cluster.node.label,
    type: 'Cluster',
    ...(cluster.node.description ? { description: cluster.node.description } : {}),
    items: cluster.children.map((child) => instanceItem(pm, child)),
  };
}

export function generateInstanceJson(pm: PackageModel): string {
  const m = pm.model;
  return prettyJson({
    '@context': SDC4_NS,
    dm_id: m.ctId,
    dm_type: `dm-${m.ctId}`,
    metadata: {
      dm_language: m.language,
      dm_label: m.title,
      dm_encoding: 'utf-8',
      instance_id: `dm-${m.ctId}`,
      instance_version: '1.0',
      creation_timestamp: m.created.toISOString(),
    },
    data: instanceCluster(pm, pm.root),
  });
}
