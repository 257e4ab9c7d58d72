import { DATA_TYPES } from '../domain/model-tree';
import { childElements, firstChildElement, ownText, type TreeDocument, type TreeElement } from './dom';
import { ctIdAfter, SDC4_NS } from './sdc4';

/** The value element of each data type, e.g. `xdcount-value` → XdCount (lists too: `xdstringlist-value`). */
const TYPE_BY_VALUE_ELEMENT = new Map<string, string>([
  ...DATA_TYPES.map((t) => [`${t.toLowerCase()}-value`, t] as [string, string]),
  ['true-value', 'XdBoolean'],
  ['false-value', 'XdBoolean'],
  ['link', 'XdLink'],
  ['ordinal', 'XdOrdinal'],
  ['media-type', 'XdFile'],
  ['lower_bounded', 'XdInterval'],
]);
const NUMERIC_TYPES = new Set(['XdCount', 'XdQuantity', 'XdFloat', 'XdDouble', 'XdOrdinal']);

/**
 * A JSON rendering of an SDC4 instance, in the shape of the studio's `-instance.json`: model id and metadata,
 * then the data cluster tree. Adapters are flattened; each component gives its ct_id, label, data type (from
 * its value element), value (a number for quantified types), units, exceptional value and other fields.
 */
export function instanceToJson(document: TreeDocument): unknown {
  const root = document.documentElement as TreeElement;
  const dmId = root.localName.replace(/^dm-/, '');
  const metadata: Record<string, string> = {};
  let data: unknown = null;
  for (const child of childElements(root)) {
    if (isItem(child)) data = renderItem(child);
    else if (childElements(child).length === 0) metadata[snake(child.localName)] = ownText(child);
  }
  return { '@context': SDC4_NS, dm_id: dmId, dm_type: root.localName, metadata, data };
}

function renderItem(element: TreeElement): unknown {
  const items = childElements(element).filter(isItem);
  const label = firstChildElement(element, 'label');
  if (!label && items.length === 1) return renderItem(items[0]);
  // Built in place (no spreads): the keys keep this order in the stored JSON text.
  const rendered: Record<string, unknown> = {
    component_id: ctIdAfter('ms', element.localName) ?? element.localName,
    label: label ? ownText(label) : null,
  };
  if (items.length === 0) return renderComponent(element, rendered);
  rendered.type = 'Cluster';
  rendered.items = items.map(renderItem);
  return rendered;
}

/** The component's fields, added to `rendered` after the keys it already has. */
function renderComponent(element: TreeElement, rendered: Record<string, unknown> = {}): Record<string, unknown> {
  const children = childElements(element);
  const valueElement = children.find((c) => TYPE_BY_VALUE_ELEMENT.has(c.localName) || c.localName.startsWith('xdtemporal-'));
  const type = valueElement ? (TYPE_BY_VALUE_ELEMENT.get(valueElement.localName) ?? 'XdTemporal') : null;
  rendered.type = type;
  rendered.value = valueElement ? typedValue(type, ownText(valueElement)) : null;
  for (const child of children) {
    if (child === valueElement || child.localName === 'label') continue;
    const evName = child.namespaceURI === SDC4_NS ? firstChildElement(child, 'ev-name') : null;
    if (evName) rendered.exceptional_value = { code: child.localName, name: ownText(evName) };
    else if (child.localName.endsWith('-units')) rendered.units = renderUnits(child);
    else if (childElements(child).length === 0) rendered[snake(child.localName)] = ownText(child);
    else rendered[snake(child.localName)] = renderComponent(child);
  }
  return rendered;
}

function renderUnits(element: TreeElement): Record<string, string | null> {
  const label = firstChildElement(element, 'label');
  const value = childElements(element).find((c) => c.localName.endsWith('-value'));
  return { label: label ? ownText(label) : null, value: value ? ownText(value) : null };
}

function typedValue(type: string | null, text: string): unknown {
  if (type && NUMERIC_TYPES.has(type) && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  return text;
}

function isItem(element: TreeElement): boolean {
  return element.namespaceURI === SDC4_NS && element.localName.startsWith('ms-');
}

function snake(name: string): string {
  return name.includes('-') ? name.replace(/-/g, '_') : name;
}
