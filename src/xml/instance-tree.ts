import type { SaxesTagNS } from 'saxes';
import type { TreeDocument, TreeElement } from './dom';
import { runSax } from './safe-parse';
import { dmCtIdOf } from './sdc4';
import { XmlParseError } from './xml-errors';

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

class TextNode {
  constructor(
    readonly nodeType: 3 | 4,
    readonly data: string,
  ) {}
}

/** A read-only element built straight from saxes' tag: no DOM bookkeeping, attributes kept as saxes gave them. */
class InstanceElement implements TreeElement {
  readonly children: InstanceElement[] = [];
  readonly childNodes: Array<InstanceElement | TextNode> = [];
  readonly nodeType = 1;

  constructor(
    private readonly tag: SaxesTagNS,
    readonly parentElement: InstanceElement | null,
  ) {}

  get localName(): string {
    return this.tag.local;
  }

  get namespaceURI(): string | null {
    return this.tag.uri || null;
  }

  getAttributeNS(namespace: string | null, localName: string): string | null {
    for (const name in this.tag.attributes) {
      const attribute = this.tag.attributes[name];
      if (attribute.local === localName && (attribute.uri || null) === namespace) return attribute.value;
    }
    return null;
  }

  lookupNamespaceURI(prefix: string | null): string | null {
    const key = prefix ?? '';
    if (key === 'xml') return XML_NS;
    if (key === 'xmlns') return XMLNS_NS;
    const bound = this.tag.ns?.[key];
    if (bound !== undefined) return bound || null;
    return this.parentElement ? this.parentElement.lookupNamespaceURI(prefix) : null;
  }
}

export interface InstanceTree extends TreeDocument {
  readonly documentElement: TreeElement;
  /** The root's name as written, its namespace, and the ct_id of a `dm-{ct_id}` root in the SDC4 namespace. */
  readonly rootTag: string;
  readonly namespace: string | null;
  readonly dmCtId: string | null;
}

/**
 * One pass over an instance: well-formedness and every structural limit (as parseXmlDom), and a light tree of
 * its elements and text for the JSON rendering and the triples. Comments and processing instructions are not
 * kept (nothing reads them). Throws XmlParseError as scanXml does.
 */
export function parseInstanceTree(xml: string): InstanceTree {
  let root: InstanceElement | null = null;
  let current: InstanceElement | null = null;
  const { rootTag } = runSax(xml, {
    opentag: (tag) => {
      const element = new InstanceElement(tag, current);
      if (current) {
        current.children.push(element);
        current.childNodes.push(element);
      } else root ??= element;
      current = element;
    },
    closetag: () => {
      current = current?.parentElement ?? null;
    },
    text: (text) => current?.childNodes.push(new TextNode(3, text)),
    cdata: (text) => current?.childNodes.push(new TextNode(4, text)),
  });
  const found = root as InstanceElement | null;
  if (!found || !rootTag) throw new XmlParseError('The document has no root element', null, null);
  return { documentElement: found, rootTag, namespace: found.namespaceURI, dmCtId: dmCtIdOf(found.namespaceURI, found.localName) };
}
