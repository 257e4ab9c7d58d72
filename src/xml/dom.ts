import type * as Slimdom from 'slimdom' with { 'resolution-mode': 'import' };

/** slimdom is typed as ESM but ships a CommonJS build: load that build so this CommonJS project can use it
 * synchronously (fontoxpath evaluates XPath over slimdom nodes). */
export const slimdom = require('slimdom') as typeof Slimdom;

export type XDocument = Slimdom.Document;
export type XElement = Slimdom.Element;
export type XNode = Slimdom.Node;

export function childElements(parent: XElement | XDocument): XElement[] {
  return parent.children;
}

export function firstChildElement(parent: XElement, localName: string, namespace: string | null = null): XElement | null {
  return parent.children.find((c) => c.localName === localName && c.namespaceURI === namespace) ?? null;
}

/** Text of an element's own text and CDATA children (not of descendants). */
export function ownText(element: XElement): string {
  let text = '';
  for (const node of element.childNodes) if (node.nodeType === 3 || node.nodeType === 4) text += (node as Slimdom.Text).data;
  return text;
}
