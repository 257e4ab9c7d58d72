import type * as Slimdom from 'slimdom' with { 'resolution-mode': 'import' };
import type { DataType } from '../domain/model-tree';
import { TYPE_INFO } from './data-types';
import { SDC4_NS } from './package-model';

/** The skeleton of a model: an instance of it (the generated example, or an imported package's own XML, which its
 * own schema accepts) with a `__PLACEHOLDER_<ct_id>__` token in each value position, and the field mapping that
 * names every token. Filling each token with a value of its datatype gives an instance the schema accepts. */

// slimdom's CommonJS build, as src/xml/dom.ts loads it (importing that module would make packages and xml a cycle).
const slimdom = require('slimdom') as typeof Slimdom;

export interface ValueSpec {
  /** Element names from the component's element down to the value. */
  path: string[];
  datatype: string;
}

/** A component whose element carries values: a tree component (`sdc4:ms-<ct_id>`) or a contextual one. */
export interface SkeletonComponent {
  ctId: string;
  label: string;
  type: string;
  /** The element's local name and namespace (null: an unqualified local element such as `subject`). */
  element: { localName: string; namespace: string | null };
  values: ValueSpec[];
  required: boolean;
}

export interface SkeletonField {
  placeholder: string;
  ctId: string;
  elementName: string;
  type: string;
  datatype: string;
  label: string;
  required: boolean;
}

export interface Skeleton {
  xml: string;
  fieldMapping: { ctId: string; fields: SkeletonField[] };
}

const TEMPORAL: Array<[string, string]> = [
  ['xdtemporal-date', 'xsd:date'],
  ['xdtemporal-time', 'xsd:time'],
  ['xdtemporal-datetime', 'xsd:dateTime'],
  ['xdtemporal-duration', 'xsd:duration'],
  ['xdtemporal-year', 'xsd:gYear'],
  ['xdtemporal-year-month', 'xsd:gYearMonth'],
  ['xdtemporal-month', 'xsd:gMonth'],
  ['xdtemporal-month-day', 'xsd:gMonthDay'],
  ['xdtemporal-day', 'xsd:gDay'],
];

/** The value positions of a component of each type; an instance holds one of several alternatives (a temporal's
 * element, a file's uri or content). XdBoolean's value is its element's name and XdInterval's bounds are typed by
 * their element, so neither takes a free token. */
export function componentValueSpecs(dataType: DataType): ValueSpec[] {
  switch (dataType) {
    case 'XdBoolean':
    case 'XdInterval':
      return [];
    case 'XdTemporal':
      return TEMPORAL.map(([element, datatype]) => ({ path: [element], datatype }));
    case 'XdFile':
      return [
        { path: ['uri'], datatype: 'xsd:anyURI' },
        { path: ['media-content'], datatype: 'xsd:base64Binary' },
      ];
    case 'XdLink':
      return [{ path: ['link'], datatype: 'xsd:anyURI' }];
    case 'XdOrdinal':
      return [{ path: ['ordinal'], datatype: 'xsd:decimal' }];
    default:
      return [{ path: [TYPE_INFO[dataType].valueElement], datatype: TYPE_INFO[dataType].valueDatatype }];
  }
}

/** Instance-level values of DMType, in their order. */
const INSTANCE_VALUES: Array<{ element: string; datatype: string; label: string }> = [
  { element: 'creation_timestamp', datatype: 'xsd:dateTime', label: 'Creation timestamp' },
  { element: 'instance_id', datatype: 'xsd:string', label: 'Instance id' },
  { element: 'instance_version', datatype: 'xsd:string', label: 'Instance version' },
];

const placeholderToken = (key: string) => `__PLACEHOLDER_${key}__`;

type Element = Slimdom.Element;

function childNamed(parent: Element, localName: string): Element | null {
  return parent.children.find((child) => child.localName === localName && child.namespaceURI === null) ?? null;
}

function follow(from: Element, path: string[]): Element | null {
  let at: Element | null = from;
  for (const name of path) at = at && childNamed(at, name);
  return at;
}

export function buildSkeleton(instanceXml: string, dmCtId: string, components: SkeletonComponent[]): Skeleton {
  const document = slimdom.parseXmlDocument(instanceXml);
  const root = document.documentElement;
  if (!root) throw new Error('The instance has no root element');
  const fields: SkeletonField[] = [];
  const listed = new Set<string>();
  const put = (el: Element, field: SkeletonField) => {
    el.textContent = field.placeholder;
    if (listed.has(field.placeholder)) return;
    listed.add(field.placeholder);
    fields.push(field);
  };

  for (const v of INSTANCE_VALUES) {
    const el = childNamed(root, v.element);
    const field = { placeholder: placeholderToken(v.element), ctId: dmCtId, elementName: v.element, type: 'DM', label: v.label };
    if (el) put(el, { ...field, datatype: v.datatype, required: false });
  }

  const byElement = new Map(components.map((c) => [`${c.element.namespace ?? ''} ${c.element.localName}`, c]));
  const walk = (el: Element) => {
    const component = byElement.get(`${el.namespaceURI ?? ''} ${el.localName}`);
    if (component) {
      let first = true;
      for (const spec of component.values) {
        const target = follow(el, spec.path);
        if (!target) continue;
        const elementName = spec.path[spec.path.length - 1];
        const key = first ? component.ctId : `${component.ctId}_${elementName}`;
        first = false;
        put(target, {
          placeholder: placeholderToken(key),
          ctId: component.ctId,
          elementName,
          type: component.type,
          datatype: spec.datatype,
          label: component.label,
          required: component.required,
        });
      }
    }
    for (const child of el.children) walk(child);
  };
  walk(root);
  return { xml: `<?xml version="1.0" encoding="UTF-8"?>\n${slimdom.serializeToWellFormedString(root)}\n`, fieldMapping: { ctId: dmCtId, fields } };
}

/** A tree component's element in every SDC4 instance. */
export const componentElement = (ctId: string) => ({ localName: `ms-${ctId}`, namespace: SDC4_NS });
