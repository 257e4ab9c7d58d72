import { componentParticles, type ElementParticle, type Particle } from './data-types';
import { xmlAttr, xmlText } from './escape';
import type { PackageChild, PackageCluster, PackageModel } from './package-model';
import { DMLIB_URL, SDC4_NS } from './package-model';

/** XML instances of the model: the example (every required element with a value that validates) and the
 * skeleton (the same structure, fixed values filled in, every free value left empty with its type noted). */

export type InstanceMode = 'example' | 'skeleton';

function leafLines(p: ElementParticle, mode: InstanceMode, pad: string): string[] {
  const sample = p.sample;
  if (!sample) return [];
  if (mode === 'skeleton' && p.min === 0) return [];
  if ('text' in sample) {
    if (mode === 'skeleton' && p.fixed === undefined && !p.enumeration) {
      return [`${pad}<${p.element}><!-- ${p.type ?? 'value'} --></${p.element}>`];
    }
    return [`${pad}<${p.element}>${xmlText(sample.text)}</${p.element}>`];
  }
  const children = sample.children.map((child) => {
    const text = mode === 'example' || child.fixed ? xmlText(child.text) : '';
    return `${pad}  <${child.element}>${text}</${child.element}>`;
  });
  return [`${pad}<${p.element}>`, ...children, `${pad}</${p.element}>`];
}

function particleLines(p: Particle, mode: InstanceMode, pad: string): string[] {
  if ('ref' in p) return [];
  if ('choice' in p) {
    const lines = leafLines(p.choice[p.pick], mode, pad);
    if (mode === 'skeleton') {
      const options = p.choice.map((option) => option.element).join(' | ');
      return [`${pad}<!-- one of: ${options} -->`, ...lines];
    }
    return lines;
  }
  return leafLines(p, mode, pad);
}

function childLines(pm: PackageModel, child: PackageChild, mode: InstanceMode, pad: string): string[] {
  if (child.kind === 'cluster') return clusterLines(pm, child.cluster, mode, pad);
  const c = child.component;
  const body = componentParticles(c, pm.createdDate).flatMap((p) => particleLines(p, mode, `${pad}    `));
  return [
    `${pad}<sdc4:ms-${c.adapterCtId}>`,
    `${pad}  <sdc4:ms-${c.node.ctId}>`,
    ...body,
    `${pad}  </sdc4:ms-${c.node.ctId}>`,
    `${pad}</sdc4:ms-${c.adapterCtId}>`,
  ];
}

function clusterLines(pm: PackageModel, cluster: PackageCluster, mode: InstanceMode, pad: string): string[] {
  const name = `sdc4:ms-${cluster.node.ctId}`;
  return [
    `${pad}<${name}>`,
    `${pad}  <label>${xmlText(cluster.node.label)}</label>`,
    ...cluster.children.flatMap((child) => childLines(pm, child, mode, `${pad}  `)),
    `${pad}</${name}>`,
  ];
}

export function generateInstanceXml(pm: PackageModel, mode: InstanceMode): string {
  const m = pm.model;
  const root = `sdc4:dm-${m.ctId}`;
  const metadata =
    mode === 'example'
      ? [
          `  <creation_timestamp>${m.created.toISOString()}</creation_timestamp>`,
          `  <instance_id>dm-${m.ctId}</instance_id>`,
          '  <instance_version>1.0</instance_version>',
        ]
      : ['  <creation_timestamp><!-- xsd:dateTime --></creation_timestamp>', '  <instance_id><!-- xsd:string --></instance_id>'];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<${root}`,
    '  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
    `  xmlns:sdc4="${SDC4_NS}"`,
    `  xsi:schemaLocation="${xmlAttr(`${SDC4_NS} ${DMLIB_URL}dm-${m.ctId}.xsd`)}">`,
    `  <dm-label>${xmlText(m.title)}</dm-label>`,
    `  <dm-language>${xmlText(m.language)}</dm-language>`,
    '  <dm-encoding>utf-8</dm-encoding>',
    ...metadata,
    ...clusterLines(pm, pm.root, mode, '  '),
    `</${root}>`,
    '',
  ].join('\n');
}
