import type { DataType } from '../domain/model-tree';
import { htmlText } from './escape';
import type { PackageModel } from './package-model';

/** The model's tree drawn as inline SVG: an indented tree (one row per placement, connectors from each parent),
 * clusters filled, components outlined in their type family's colour, each node linking to its table. */

export const TYPE_FAMILIES: Array<{ name: string; color: string; types: DataType[] }> = [
  { name: 'Text', color: '#2563eb', types: ['XdString', 'XdToken', 'XdStringList', 'XdTokenList'] },
  {
    name: 'Number',
    color: '#c2410c',
    types: [
      'XdCount',
      'XdQuantity',
      'XdFloat',
      'XdDouble',
      'XdOrdinal',
      'XdDecimalList',
      'XdDoubleList',
      'XdIntegerList',
      'XdNonNegativeIntegerList',
      'XdPositiveIntegerList',
    ],
  },
  { name: 'Time and range', color: '#7c3aed', types: ['XdTemporal', 'XdInterval'] },
  { name: 'Yes / no', color: '#15803d', types: ['XdBoolean', 'XdBooleanList'] },
  { name: 'Link and file', color: '#be123c', types: ['XdLink', 'XdFile'] },
];

export const CLUSTER_COLOR = '#0f5f5a';

export function typeColor(type: DataType): string {
  return TYPE_FAMILIES.find((family) => family.types.includes(type))?.color ?? '#475569';
}

const ROW = 30;
const BOX = 22;
const INDENT = 24;
const MAX_CHARS = 36;

/** Rendered width of 13px sans-serif text, estimated on the wide side (DejaVu Sans metrics); the caption is
 * then drawn with that textLength so it always fits its box, whatever font the reader's system picks. */
function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    if (/[\u1100-\uFFFF]|[\u{10000}-\u{10FFFF}]/u.test(ch)) width += 13.5;
    else if (/[il|!.,:;'j]/.test(ch)) width += 3.7;
    else if (/[ftr()[\] "]/.test(ch)) width += 5.2;
    else if (/[mwMW]/.test(ch)) width += 12;
    else if (/[A-Z]/.test(ch)) width += 9;
    else width += 8;
  }
  return Math.ceil(width);
}

function shorten(label: string): string {
  const flat = label.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_CHARS ? `${flat.slice(0, MAX_CHARS - 1)}…` : flat;
}

function fit(width: number): string {
  return ` textLength="${width}" lengthAdjust="spacing"`;
}

export function treeDiagramSvg(pm: PackageModel): string {
  const parts: string[] = [];
  const lines: string[] = [];
  const parents: Array<{ x: number; y: number }> = [];
  let width = 0;
  pm.occurrences.forEach(({ depth, child }, row) => {
    const x = 8 + depth * INDENT;
    const y = 8 + row * ROW;
    const parent = depth > 0 ? parents[depth - 1] : undefined;
    if (parent) lines.push(`M${parent.x + 10} ${parent.y + BOX}V${y + BOX / 2}H${x}`);
    parents[depth] = { x, y };
    const isCluster = child.kind === 'cluster';
    const node = isCluster ? child.cluster.node : child.component.node;
    const caption = shorten(node.label);
    const captionWidth = textWidth(caption);
    const boxWidth = captionWidth + 20;
    const typeName = child.kind === 'cluster' ? 'Cluster' : child.component.node.dataType;
    const color = child.kind === 'cluster' ? CLUSTER_COLOR : typeColor(child.component.node.dataType);
    width = Math.max(width, x + boxWidth + 12 + typeName.length * 6.4);
    parts.push(
      `<a href="#mc-${node.ctId}"><title>${htmlText(`${node.label} (${typeName}, ${node.ctId})`)}</title>` +
        (isCluster
          ? `<rect x="${x}" y="${y}" width="${boxWidth}" height="${BOX}" rx="6" fill="${color}"/>` +
            `<text x="${x + 9}" y="${y + 15}" class="t tc"${fit(captionWidth)}>${htmlText(caption)}</text>`
          : `<rect x="${x}" y="${y}" width="${boxWidth}" height="${BOX}" rx="6" fill="#fff" stroke="${color}" stroke-width="1.5"/>` +
            `<rect x="${x}" y="${y}" width="5" height="${BOX}" rx="2" fill="${color}"/>` +
            `<text x="${x + 11}" y="${y + 15}" class="t"${fit(captionWidth)}>${htmlText(caption)}</text>`) +
        `<text x="${x + boxWidth + 8}" y="${y + 15}" class="k" fill="${color}">${typeName}</text></a>`,
    );
  });
  const height = 16 + pm.occurrences.length * ROW;
  const w = Math.ceil(width + 8);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${height}" viewBox="0 0 ${w} ${height}" role="img" aria-label="Tree of the data model">`,
    '<style>.t{font:13px system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;fill:#1e293b}.tc{fill:#fff;font-weight:600}' +
      '.k{font:11px ui-monospace,SFMono-Regular,Menlo,monospace}a:hover rect{filter:brightness(.93)}</style>',
    `<path d="${lines.join('')}" fill="none" stroke="#94a3b8" stroke-width="1.2"/>`,
    ...parts,
    '</svg>',
  ].join('\n');
}
