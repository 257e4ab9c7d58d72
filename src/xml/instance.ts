import { decodeXmlBytes, scanXml } from './safe-parse';
import { dmCtIdOf } from './sdc4';

export { XmlParseError } from './xml-errors';
export { decodeXmlBytes } from './safe-parse';

export interface InstanceInspection {
  /** The root element's name as written, e.g. `sdc4:dm-its7j6bvrb9n2fxdcxmoemod`. */
  rootTag: string;
  namespace: string | null;
  /** ct_id of a `dm-{ct_id}` root in the SDC4 namespace; null for any other root. */
  dmCtId: string | null;
}

/** Well-formedness and root check of an uploaded instance, without DTDs, entities or network, with size and
 * depth bounded. Bytes are decoded strictly (invalid UTF-8 is an error). Throws XmlParseError, whose `rootTag`
 * is the root seen before the problem (null when there was none). */
export function inspectInstance(xml: string | Uint8Array): InstanceInspection {
  const text = typeof xml === 'string' ? xml : decodeXmlBytes(xml);
  const root = scanXml(text);
  return { rootTag: root.rootTag, namespace: root.namespace, dmCtId: dmCtIdOf(root.namespace, root.localName) };
}
