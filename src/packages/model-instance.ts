import { contextualParticles } from './contextual';
import { instanceElementName } from './contextual-slots';
import { componentParticles, type ElementParticle, type Particle } from './data-types';
import { xmlAttr, xmlText } from './escape';
import type { PackageChild, PackageCluster, PackageModel } from './package-model';
import { DMLIB_URL, SDC4_NS } from './package-model';

/** The model's example XML instance: every required element with a value that validates, and each contextual
 * component at its place. The skeleton (skeleton.ts) is this instance with placeholders in its value positions. */

function leafLines(p: ElementParticle, pad: string): string[] {
  const sample = p.sample;
  if (!sample) return [];
  if ('text' in sample) return [`${pad}<${p.element}>${xmlText(sample.text)}</${p.element}>`];
  const children = sample.children.map((child) => `${pad}  <${child.element}>${xmlText(child.text)}</${child.element}>`);
  return [`${pad}<${p.element}>`, ...children, `${pad}</${p.element}>`];
}

function particleLines(p: Particle, pad: string): string[] {
  if ('ref' in p) return [];
  if ('choice' in p) return leafLines(p.choice[p.pick], pad);
  return leafLines(p, pad);
}

function childLines(pm: PackageModel, child: PackageChild, pad: string): string[] {
  if (child.kind === 'cluster') return clusterLines(pm, child.cluster, pad);
  const c = child.component;
  const body = componentParticles(c, pm.createdDate).flatMap((p) => particleLines(p, `${pad}    `));
  return [
    `${pad}<sdc4:ms-${c.adapterCtId}>`,
    `${pad}  <sdc4:ms-${c.node.ctId}>`,
    ...body,
    `${pad}  </sdc4:ms-${c.node.ctId}>`,
    `${pad}</sdc4:ms-${c.adapterCtId}>`,
  ];
}

function clusterLines(pm: PackageModel, cluster: PackageCluster, pad: string): string[] {
  const name = `sdc4:ms-${cluster.node.ctId}`;
  return [
    `${pad}<${name}>`,
    `${pad}  <label>${xmlText(cluster.node.label)}</label>`,
    ...cluster.children.flatMap((child) => childLines(pm, child, `${pad}  `)),
    `${pad}</${name}>`,
  ];
}

function contextualLines(pm: PackageModel, pad: string): string[] {
  const createdIso = pm.model.created.toISOString();
  return pm.contextual.flatMap((c) => {
    const name = instanceElementName(c);
    if (!name) return [];
    const body = contextualParticles(c, createdIso, pm.createdDate).flatMap((p) => particleLines(p, `${pad}  `));
    return [`${pad}<${name}>`, ...body, `${pad}</${name}>`];
  });
}

export function generateInstanceXml(pm: PackageModel): string {
  const m = pm.model;
  const root = `sdc4:dm-${m.ctId}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<${root}`,
    '  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
    `  xmlns:sdc4="${SDC4_NS}"`,
    `  xsi:schemaLocation="${xmlAttr(`${SDC4_NS} ${DMLIB_URL}dm-${m.ctId}.xsd`)}">`,
    `  <dm-label>${xmlText(m.title)}</dm-label>`,
    `  <dm-language>${xmlText(m.language)}</dm-language>`,
    '  <dm-encoding>utf-8</dm-encoding>',
    `  <creation_timestamp>${m.created.toISOString()}</creation_timestamp>`,
    `  <instance_id>dm-${m.ctId}</instance_id>`,
    '  <instance_version>1.0</instance_version>',
    ...clusterLines(pm, pm.root, '  '),
    ...contextualLines(pm, '  '),
    `</${root}>`,
    '',
  ].join('\n');
}
