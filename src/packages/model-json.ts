import { componentParticles, TYPE_INFO, type Particle } from './data-types';
import { prettyJson } from './escape';
import type { PackageChild, PackageCluster, PackageModel } from './package-model';
import { SDC4_NS } from './package-model';

/** The example instance as plain JSON (`dm-<ct_id>-instance.json`), shaped like the studio's (the model's JSON-LD is
 * model-jsonld.ts). */

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
