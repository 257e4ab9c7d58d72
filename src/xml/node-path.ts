import { childElements, type XDocument, type XElement } from './dom';
import { positionOf } from './safe-parse';
import type { XmlError } from './xml-errors';

/** A validation error with the path of the element it is about, in libxml2's xmlGetNodePath form. */
export interface LocatedError extends XmlError {
  path: string | null;
}

/** libxml2's path form: `prefix:name`, `*` for elements in a default namespace, `[n]` only among namesakes. */
export function nodePath(element: XElement): string {
  const steps: string[] = [];
  for (let e: XElement | null = element; e; e = e.parentElement) {
    const generic = e.namespaceURI !== null && !e.prefix;
    const namesakes = e.parentElement ? childElements(e.parentElement).filter((s) => generic || sameName(s, e)) : [e];
    const name = generic ? '*' : e.nodeName;
    steps.unshift(namesakes.length > 1 ? `${name}[${namesakes.indexOf(e) + 1}]` : name);
  }
  return `/${steps.join('/')}`;
}

/** The element an error is about: by its path, else by its line and the element name the message quotes. */
export function locateError(document: XDocument, error: LocatedError): XElement | null {
  return (error.path ? resolveNodePath(document, error.path) : null) ?? byLineAndName(document, error);
}

function resolveNodePath(document: XDocument, path: string): XElement | null {
  let candidates: XElement[] = document.documentElement ? [document.documentElement] : [];
  let current: XElement | null = null;
  for (const step of path.split('/').slice(1)) {
    const match = /^(.*?)(?:\[(\d+)\])?$/.exec(step);
    if (!match) return null;
    const [, name, index] = match;
    const namesakes = candidates.filter((c) => (name === '*' ? c.namespaceURI !== null && !c.prefix : c.nodeName === name));
    current = namesakes[index ? Number(index) - 1 : 0] ?? null;
    if (!current) return null;
    candidates = childElements(current);
  }
  return current;
}

function byLineAndName(document: XDocument, error: XmlError): XElement | null {
  const quoted = /^Element '([^']+)'/.exec(error.message)?.[1];
  const local = quoted?.replace(/^\{[^}]*\}/, '').replace(/^[^:]*:/, '');
  const visit = (element: XElement): XElement | null => {
    if (positionOf(element).line === error.line && (!local || element.localName === local)) return element;
    for (const child of childElements(element)) {
      const found = visit(child);
      if (found) return found;
    }
    return null;
  };
  return document.documentElement ? visit(document.documentElement) : null;
}

function sameName(a: XElement, b: XElement): boolean {
  return a.localName === b.localName && a.prefix === b.prefix && (a.namespaceURI === null) === (b.namespaceURI === null);
}
