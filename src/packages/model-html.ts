import { TYPE_INFO } from './data-types';
import { htmlText } from './escape';
import type { PackageChild, PackageCluster, PackageModel } from './package-model';
import { SDC4_NS } from './package-model';
import { CLUSTER_COLOR, treeDiagramSvg, TYPE_FAMILIES, typeColor } from './tree-diagram';

/** `dm-<ct_id>.html`: documentation a person reads. Self-contained (inline CSS and SVG, no scripts, no
 * external assets): the tree diagram beside one table per cluster, then the package's files. */

const CSS = `
*{box-sizing:border-box}
body{margin:0;background:#f1f5f9;color:#1e293b;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
header{background:linear-gradient(120deg,#0f5f5a,#14857c);color:#fff;padding:28px 40px 24px}
header h1{margin:0 0 6px;font-size:28px;line-height:1.2}
header p{margin:0 0 14px;max-width:900px;color:#d5f5ef;white-space:pre-line}
.chips{display:flex;flex-wrap:wrap;gap:8px}
.chip{background:rgba(255,255,255,.14);border:1px solid rgba(255,255,255,.25);border-radius:999px;padding:2px 12px;font-size:12.5px}
main{display:grid;grid-template-columns:minmax(300px,42%) 1fr;gap:24px;padding:24px 40px;align-items:start}
@media (max-width:1000px){main{grid-template-columns:1fr}}
.card{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(15,23,42,.08),0 1px 2px rgba(15,23,42,.04);padding:18px 20px}
.diagram{position:sticky;top:16px;max-height:calc(100vh - 32px);overflow:auto}
h2{font-size:16px;margin:0 0 12px;color:#0f5f5a;text-transform:uppercase;letter-spacing:.06em}
h3{font-size:17px;margin:0 0 2px}
.legend{display:flex;flex-wrap:wrap;gap:6px 14px;margin:0 0 12px;font-size:12px;color:#475569}
.legend span::before{content:"";display:inline-block;width:10px;height:10px;border-radius:3px;margin-right:5px;background:var(--c);vertical-align:-1px}
.cluster{margin-bottom:20px}
.cluster .meta{color:#64748b;font-size:12.5px;margin-bottom:8px}
.cluster .desc{white-space:pre-line;color:#334155;margin:4px 0 10px}
table{width:100%;border-collapse:collapse;font-size:13.5px}
th{text-align:left;font-size:11.5px;text-transform:uppercase;letter-spacing:.05em;color:#64748b;border-bottom:2px solid #e2e8f0;padding:6px 8px}
td{border-bottom:1px solid #eef2f6;padding:8px;vertical-align:top}
tr:last-child td{border-bottom:none}
td .d{color:#64748b;font-size:12.5px;white-space:pre-line;margin-top:4px}
td .id{font:11.5px ui-monospace,SFMono-Regular,Menlo,monospace;color:#94a3b8}
details.d summary{cursor:pointer;white-space:normal}
details.d[open] summary{display:none}
td:first-child{width:62%}
.type{display:inline-block;border-radius:6px;padding:1px 8px;font:12px ui-monospace,SFMono-Regular,Menlo,monospace;color:#fff;background:var(--c);white-space:nowrap}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;color:#475569;word-break:break-all}
a{color:#0f766e}
.files{padding:0 40px 32px}
.files ul{columns:2;margin:0;padding-left:18px}
footer{color:#94a3b8;font-size:12px;padding:0 40px 28px}
`;

const SHORT_DESCRIPTION = 160;

/** A description under its label; a long one shows its opening and unfolds on a click (no script needed). */
function descriptionBlock(description: string | null): string {
  if (!description) return '';
  if (description.length <= SHORT_DESCRIPTION) return `<div class="d">${htmlText(description)}</div>`;
  const opening = description.slice(0, SHORT_DESCRIPTION - 20).replace(/\s+\S*$/, '');
  return `<details class="d"><summary>${htmlText(opening)} …</summary>${htmlText(description)}</details>`;
}

function childRow(child: PackageChild, anchored: Set<string>): string {
  if (child.kind === 'cluster') {
    const node = child.cluster.node;
    return (
      `<tr><td><a href="#mc-${node.ctId}"><strong>${htmlText(node.label)}</strong></a><div class="id">mc-${node.ctId}</div></td>` +
      `<td><span class="type" style="--c:${CLUSTER_COLOR}">Cluster</span></td><td></td></tr>`
    );
  }
  const c = child.component;
  const node = c.node;
  const id = anchored.has(node.ctId) ? '' : ` id="mc-${node.ctId}"`;
  anchored.add(node.ctId);
  const units = c.units ? (c.units.value ?? 'not fixed') : node.dataType === 'XdInterval' ? (node.units ?? '') : '';
  return (
    `<tr${id}><td><strong>${htmlText(node.label)}</strong><div class="id">mc-${node.ctId}</div>${descriptionBlock(node.description)}</td>` +
    `<td><span class="type" style="--c:${typeColor(node.dataType)}">${node.dataType}</span><div class="d">${TYPE_INFO[node.dataType].valueDatatype}</div></td>` +
    `<td>${htmlText(units)}</td></tr>`
  );
}

function clusterSection(cluster: PackageCluster, path: string, anchored: Set<string>): string {
  const node = cluster.node;
  const rows = cluster.children.map((child) => childRow(child, anchored)).join('\n');
  return [
    `<section class="card cluster" id="mc-${node.ctId}">`,
    `<h3>${htmlText(node.label)}</h3>`,
    `<div class="meta">${htmlText(path)} · <code>mc-${node.ctId}</code> · ${cluster.children.length} item${cluster.children.length === 1 ? '' : 's'}</div>`,
    node.description ? `<div class="desc">${htmlText(node.description)}</div>` : '',
    rows
      ? `<table><thead><tr><th>Label</th><th>Type</th><th>Units</th></tr></thead><tbody>\n${rows}\n</tbody></table>`
      : '<div class="meta">This cluster is empty.</div>',
    '</section>',
  ].join('\n');
}

/** Cluster sections in document order, each with its path of cluster labels from the root. */
function clusterSections(pm: PackageModel): string[] {
  const sections: string[] = [];
  const anchored = new Set<string>();
  const seen = new Set<string>();
  const visit = (cluster: PackageCluster, trail: string[]) => {
    if (seen.has(cluster.node.ctId)) return;
    seen.add(cluster.node.ctId);
    const path = [...trail, cluster.node.label.replace(/\s+/g, ' ')];
    sections.push(clusterSection(cluster, path.join(' › '), anchored));
    for (const child of cluster.children) if (child.kind === 'cluster') visit(child.cluster, path);
  };
  visit(pm.root, []);
  return sections;
}

export function generateHtml(pm: PackageModel, fileNames: string[]): string {
  const m = pm.model;
  const chips = [
    `dm-${m.ctId}`,
    `${pm.components.length} component${pm.components.length === 1 ? '' : 's'}`,
    `${pm.clusters.length} cluster${pm.clusters.length === 1 ? '' : 's'}`,
    `language ${m.language}`,
    `created ${m.created.toISOString().slice(0, 10)}`,
    ...(m.author ? [`by ${m.author}`] : []),
  ];
  const legend = [
    `<span style="--c:${CLUSTER_COLOR}">Cluster</span>`,
    ...TYPE_FAMILIES.map((family) => `<span style="--c:${family.color}">${family.name}</span>`),
  ];
  return [
    '<!DOCTYPE html>',
    `<html lang="${htmlText(m.language)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${htmlText(m.title)} · SDC4 data model</title>`,
    `<style>${CSS}</style>`,
    '</head>',
    '<body>',
    '<header>',
    `<h1>${htmlText(m.title)}</h1>`,
    m.description ? `<p>${htmlText(m.description)}</p>` : '',
    `<div class="chips">${chips.map((chip) => `<span class="chip">${htmlText(chip)}</span>`).join('')}</div>`,
    '</header>',
    '<main>',
    '<section class="card diagram">',
    '<h2>Structure</h2>',
    `<div class="legend">${legend.join('')}</div>`,
    treeDiagramSvg(pm),
    '</section>',
    '<div>',
    '<h2>Components by cluster</h2>',
    ...clusterSections(pm),
    '</div>',
    '</main>',
    '<section class="files">',
    '<div class="card">',
    '<h2>Files in this package</h2>',
    `<ul>${fileNames.map((name) => `<li><a href="${htmlText(name)}">${htmlText(name)}</a></li>`).join('')}</ul>`,
    '</div>',
    '</section>',
    `<footer>Schema namespace ${SDC4_NS} · root element <code>sdc4:dm-${m.ctId}</code></footer>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
