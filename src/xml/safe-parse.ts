import { SaxesParser, type SaxesTagNS } from 'saxes';
import { slimdom, type XDocument, type XElement, type XNode } from './dom';
import { XmlParseError } from './xml-errors';

/** Bounds on every document this module parses: larger, deeper or wider input is refused, naming the limit,
 * before it can cost memory or time (README: Configuration, XML_MAX_*). */
export interface XmlLimits {
  /** UTF-8 bytes of one document (instance or schema). */
  maxBytes: number;
  /** Element nesting, libxml2's own default. */
  maxDepth: number;
  maxElements: number;
  maxAttributesPerElement: number;
  maxTotalAttributes: number;
  /** Characters of one text or CDATA node. */
  maxTextLength: number;
  /** xmlns declarations in the whole document. */
  maxNamespaceDeclarations: number;
}

export const DEFAULT_XML_LIMITS: Readonly<XmlLimits> = {
  maxBytes: 8 * 1024 * 1024,
  maxDepth: 256,
  maxElements: 500_000,
  maxAttributesPerElement: 256,
  maxTotalAttributes: 500_000,
  maxTextLength: 4 * 1024 * 1024,
  maxNamespaceDeclarations: 1_000,
};

/** The limits in force in this thread: the defaults until the service (or a worker thread) applies its settings. */
const XML_LIMITS: XmlLimits = { ...DEFAULT_XML_LIMITS };

export function applyXmlLimits(limits: Partial<XmlLimits>): void {
  Object.assign(XML_LIMITS, limits);
}

/** Where an element sits in its source text: its start line and the offsets of `<`, of the start tag's end and
 * of the element's end, so edits can splice the original text and keep its layout. */
export interface SourcePosition {
  line: number;
  start: number;
  startTagEnd: number;
  end: number;
}

interface SourceMaps {
  positions: Map<XElement, SourcePosition>;
  attributeEnds: Map<XElement, Map<string, number>>;
}

/** Positions of each parsed document, released with the document. */
const sourceMaps = new WeakMap<XDocument, SourceMaps>();

export function positionOf(element: XElement): SourcePosition {
  const position = element.ownerDocument && sourceMaps.get(element.ownerDocument)?.positions.get(element);
  if (!position) throw new Error(`No source position recorded for <${element.nodeName}>`);
  return position;
}

/** Offsets of an attribute's value (without quotes) in the source, when attribute positions were recorded. */
export function attributeValueRange(xml: string, element: XElement, name: string): [number, number] | null {
  const end = element.ownerDocument ? sourceMaps.get(element.ownerDocument)?.attributeEnds.get(element)?.get(name) : undefined;
  if (end === undefined) return null;
  const quote = xml[end - 1];
  return [xml.lastIndexOf(quote, end - 2) + 1, end - 1];
}

export function checkSize(xml: string): void {
  if (xml.length > XML_LIMITS.maxBytes) throw tooLarge(Buffer.byteLength(xml, 'utf8'));
  if (xml.length * 3 > XML_LIMITS.maxBytes) {
    const bytes = Buffer.byteLength(xml, 'utf8');
    if (bytes > XML_LIMITS.maxBytes) throw tooLarge(bytes);
  }
}

function tooLarge(bytes: number): XmlParseError {
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  return new XmlParseError(`XML document is ${mb(bytes)} MB; the limit is ${mb(XML_LIMITS.maxBytes)} MB`);
}

/** Decodes uploaded bytes strictly: BOM or XML declaration picks the encoding, and bytes that are not valid in
 * it are an error instead of silently becoming U+FFFD. */
export function decodeXmlBytes(bytes: Uint8Array): string {
  if (bytes.byteLength > XML_LIMITS.maxBytes) throw tooLarge(bytes.byteLength);
  const label = declaredEncoding(bytes);
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    throw new XmlParseError(`Unsupported XML encoding "${label}"`);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new XmlParseError(
      `The document is not valid ${decoder.encoding.toUpperCase()}: it contains bytes that are not characters in that encoding`,
    );
  }
}

/** Whether `text` as UTF-8 bytes decodes back to itself here (decodeXmlBytes): no byte-order mark (the decoder drops
 * it) and no declared encoding other than UTF-8. */
export function utf8RoundTrips(text: string, bytes: Uint8Array): boolean {
  if (text.startsWith('\uFEFF')) return false;
  try {
    return new TextDecoder(declaredEncoding(bytes)).encoding === 'utf-8';
  } catch {
    return false;
  }
}

function declaredEncoding(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  const head = Buffer.from(bytes.subarray(0, 256)).toString('latin1');
  return /^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']/.exec(head)?.[1] ?? 'utf-8';
}

type SaxOptions = { xmlns: true; position: true };

type HandlerField =
  `${'xmldecl' | 'text' | 'pi' | 'doctype' | 'comment' | 'openTagStart' | 'attribute' | 'openTag' | 'closeTag' | 'cdata' | 'error' | 'end' | 'ready'}Handler`;

/** saxes adds a field per handler as `on()` sets it; past six such keyed additions V8 makes the parser a slow
 * dictionary-mode object (and saxes' code megamorphic for every parser after), so the fields are made up front. */
class SaxParser extends SaxesParser<SaxOptions> {
  constructor() {
    super({ xmlns: true, position: true });
    const fields = this as unknown as Record<HandlerField, undefined>;
    fields.xmldeclHandler = undefined;
    fields.textHandler = undefined;
    fields.piHandler = undefined;
    fields.doctypeHandler = undefined;
    fields.commentHandler = undefined;
    fields.openTagStartHandler = undefined;
    fields.attributeHandler = undefined;
    fields.openTagHandler = undefined;
    fields.closeTagHandler = undefined;
    fields.cdataHandler = undefined;
    fields.errorHandler = undefined;
    fields.endHandler = undefined;
    fields.readyHandler = undefined;
  }
}

export interface SaxHandlers {
  opentagstart?: (parser: SaxesParser<SaxOptions>, start: number) => void;
  attribute?: (name: string, end: number) => void;
  opentag?: (tag: SaxesTagNS, end: number) => void;
  closetag?: (end: number) => void;
  text?: (text: string) => void;
  cdata?: (text: string) => void;
  comment?: (text: string) => void;
  processinginstruction?: (target: string, body: string) => void;
}

/** Runs saxes over the whole text with the limits applied; DTDs are refused, so no entity is ever declared. */
export function runSax(xml: string, handlers: SaxHandlers): { rootTag: string | null } {
  checkSize(xml);
  const parser = new SaxParser();
  const limits = { ...XML_LIMITS };
  let rootTag: string | null = null;
  let depth = 0;
  let elements = 0;
  let attributes = 0;
  let elementAttributes = 0;
  let namespaces = 0;
  const refuse = (what: string, limit: number, setting: string): never => {
    throw new XmlParseError(`Too many ${what}: the limit is ${limit} (${setting})`, rootTag, parser.line);
  };
  const checkText = (text: string) => {
    if (text.length > limits.maxTextLength) {
      throw new XmlParseError(
        `Text node too long: ${text.length} characters, the limit is ${limits.maxTextLength} (XML_MAX_TEXT_LENGTH)`,
        rootTag,
        parser.line,
      );
    }
  };
  parser.on('doctype', () => {
    throw new XmlParseError('DOCTYPE declarations are not allowed (no DTDs, no entities)', rootTag, parser.line);
  });
  parser.on('opentagstart', (tag) => {
    rootTag ??= tag.name;
    if (++depth > limits.maxDepth) {
      throw new XmlParseError(`Excessive depth in document: more than ${limits.maxDepth} nested elements`, rootTag, parser.line);
    }
    if (++elements > limits.maxElements) refuse('elements in the document', limits.maxElements, 'XML_MAX_ELEMENTS');
    elementAttributes = 0;
    handlers.opentagstart?.(parser, xml.lastIndexOf('<', parser.position - 1));
  });
  parser.on('attribute', (a) => {
    if (++elementAttributes > limits.maxAttributesPerElement)
      refuse('attributes on one element', limits.maxAttributesPerElement, 'XML_MAX_ATTRIBUTES_PER_ELEMENT');
    if (++attributes > limits.maxTotalAttributes) refuse('attributes in the document', limits.maxTotalAttributes, 'XML_MAX_TOTAL_ATTRIBUTES');
    if ((a.name === 'xmlns' || a.name.startsWith('xmlns:')) && ++namespaces > limits.maxNamespaceDeclarations) {
      refuse('namespace declarations', limits.maxNamespaceDeclarations, 'XML_MAX_NAMESPACE_DECLARATIONS');
    }
    handlers.attribute?.(a.name, parser.position);
  });
  parser.on('closetag', () => {
    depth--;
    handlers.closetag?.(parser.position);
  });
  if (handlers.opentag) parser.on('opentag', (tag) => handlers.opentag?.(tag, parser.position));
  parser.on('text', (text) => {
    checkText(text);
    handlers.text?.(text);
  });
  parser.on('cdata', (text) => {
    checkText(text);
    handlers.cdata?.(text);
  });
  if (handlers.comment) parser.on('comment', handlers.comment);
  if (handlers.processinginstruction) parser.on('processinginstruction', (pi) => handlers.processinginstruction?.(pi.target, pi.body));
  try {
    parser.write(xml).close();
  } catch (error) {
    if (error instanceof XmlParseError) throw error;
    throw new XmlParseError((error as Error).message, rootTag, parser.line);
  }
  return { rootTag };
}

/** Checks well-formedness and limits without building a tree; returns the root element's names. */
export function scanXml(xml: string): { rootTag: string; namespace: string | null; localName: string } {
  let root: SaxesTagNS | null = null;
  const { rootTag } = runSax(xml, {
    opentag: (tag) => {
      root ??= tag;
    },
  });
  const found = root as SaxesTagNS | null;
  if (!found || !rootTag) throw new XmlParseError('The document has no root element', null, null);
  return { rootTag, namespace: found.uri || null, localName: found.local };
}

/** Parses into a slimdom document whose elements carry source positions (see positionOf). */
export function parseXmlDom(xml: string, options: { attributePositions?: boolean } = {}): XDocument {
  const document = new slimdom.Document();
  const { positions, attributeEnds }: SourceMaps = { positions: new Map(), attributeEnds: new Map() };
  sourceMaps.set(document, { positions, attributeEnds });
  const stack: Array<XDocument | XElement> = [document];
  const top = () => stack[stack.length - 1];
  const append = (node: XNode) => top().appendChild(node);
  let pending = { line: 0, start: 0 };
  let attrEnds: Map<string, number> | null = null;
  runSax(xml, {
    opentagstart: (parser, start) => {
      pending = { line: parser.line, start };
      if (options.attributePositions) attrEnds = new Map();
    },
    attribute: options.attributePositions ? (name, end) => attrEnds?.set(name, end) : undefined,
    opentag: (tag, end) => {
      const element = document.createElementNS(tag.uri || null, tag.name);
      for (const attr of Object.values(tag.attributes)) element.setAttributeNS(attr.uri || null, attr.name, attr.value);
      append(element);
      positions.set(element, { line: pending.line, start: pending.start, startTagEnd: end, end });
      if (attrEnds) attributeEnds.set(element, attrEnds);
      stack.push(element);
    },
    closetag: (end) => {
      (positions.get(stack.pop() as XElement) as SourcePosition).end = end;
    },
    text: (text) => {
      if (stack.length > 1) append(document.createTextNode(text));
    },
    cdata: (text) => append(document.createCDATASection(text)),
    comment: (text) => append(document.createComment(text)),
    processinginstruction: (target, body) => append(document.createProcessingInstruction(target, body)),
  });
  return document;
}
