import type * as Slimdom from 'slimdom' with { 'resolution-mode': 'import' };

/** slimdom is typed as ESM but ships a CommonJS build: load that build so this CommonJS project can use it
 * synchronously (fontoxpath evaluates XPath over slimdom nodes). */
export const slimdom = require('slimdom') as typeof Slimdom;

export type XDocument = Slimdom.Document;
export type XElement = Slimdom.Element;
export type XNode = Slimdom.Node;

/** What reading an instance needs of an element; slimdom's elements have the same shape, so the renderers and
 * the schema model read either tree. */
export interface TreeElement {
  readonly localName: string;
  readonly namespaceURI: string | null;
  readonly parentElement: TreeElement | null;
  /** Child elements, in document order. */
  readonly children: readonly TreeElement[];
  /** Child nodes; text and CDATA nodes (nodeType 3 and 4) carry `data`. */
  readonly childNodes: ReadonlyArray<{ readonly nodeType: number }>;
  getAttributeNS(namespace: string | null, localName: string): string | null;
  lookupNamespaceURI(prefix: string | null): string | null;
}

export interface TreeDocument {
  readonly documentElement: TreeElement | null;
}

export function childElements<E>(parent: { readonly children: readonly E[] }): E[] {
  return parent.children as E[];
}

export function firstChildElement<E extends { readonly localName: string; readonly namespaceURI: string | null }>(
  parent: { readonly children: readonly E[] },
  localName: string,
  namespace: string | null = null,
): E | null {
  return parent.children.find((c) => c.localName === localName && c.namespaceURI === namespace) ?? null;
}

/** Text of an element's own text and CDATA children (not of descendants); any tree with DOM-shaped nodes. */
export function ownText(element: { readonly childNodes: ReadonlyArray<{ readonly nodeType: number }> }): string {
  let text = '';
  for (const node of element.childNodes) if (node.nodeType === 3 || node.nodeType === 4) text += (node as Slimdom.Text).data;
  return text;
}
