import { qkey } from './schema-model';

export const SDC4_NS = 'https://semanticdatacharter.com/ns/sdc4/';

/** Every SDC4 data component (Xd*) derives from this type; its values are what EV correction may tag. */
export const XD_ANY_TYPE = qkey(SDC4_NS, 'XdAnyType');
export const EXCEPTIONAL_VALUE_TYPE = qkey(SDC4_NS, 'ExceptionalValueType');
export const CLUSTER_TYPE = qkey(SDC4_NS, 'ClusterType');
export const ADAPTER_TYPE = qkey(SDC4_NS, 'XdAdapterType');

/** Children of a component that describe it rather than carry its value; an EV goes right after them. */
export const COMPONENT_HEADER = ['label', 'act'] as const;

/**
 * The local names sdc4.xsd gives the value of a data component (the element an ExceptionalValue stands for):
 * `xd…-value`, `true-value`/`false-value`, the `xdtemporal-…` choice, XdOrdinal's `ordinal`, XdLink's `link` and
 * XdFile's `uri`/`media-content`. Units, ranges, label, act and the XdAnyType metadata (vtb, vte, …) are not values.
 */
export const VALUE_ELEMENT =
  /^(?:[a-z]+-value|xdtemporal-(?:date|time|datetime|duration|year|year-month|month|month-day|day)|ordinal|link|uri|media-content)$/;

/** The ct_id a generated name carries after its prefix: `dm-` (a model's root element), `mc-` (a component's
 * complex type) or `ms-` (its element); null when the name has no such prefix or nothing after it. */
export function ctIdAfter(prefix: 'dm' | 'mc' | 'ms', name: string): string | null {
  return name.length > 3 && name.startsWith(`${prefix}-`) ? name.slice(3) : null;
}

/** `dm-{ct_id}` in the SDC4 namespace → ct_id. */
export function dmCtIdOf(namespace: string | null, localName: string): string | null {
  return namespace === SDC4_NS ? ctIdAfter('dm', localName) : null;
}
