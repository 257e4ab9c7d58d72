import { qkey } from './schema-model';

export const SDC4_NS = 'https://semanticdatacharter.com/ns/sdc4/';

/** Every SDC4 data component (Xd*) derives from this type; its values are what EV correction may tag. */
export const XD_ANY_TYPE = qkey(SDC4_NS, 'XdAnyType');
export const EXCEPTIONAL_VALUE_TYPE = qkey(SDC4_NS, 'ExceptionalValueType');
export const CLUSTER_TYPE = qkey(SDC4_NS, 'ClusterType');
export const ADAPTER_TYPE = qkey(SDC4_NS, 'XdAdapterType');

/** Children of a component that describe it rather than carry its value; an EV goes right after them. */
export const COMPONENT_HEADER = ['label', 'act'] as const;

/** `dm-{ct_id}` in the SDC4 namespace → ct_id. */
export function dmCtIdOf(namespace: string | null, localName: string): string | null {
  const match = /^dm-(.+)$/.exec(localName);
  return namespace === SDC4_NS && match ? match[1] : null;
}
