import { childElements, type TreeElement, type XElement } from './dom';
import { positionOf } from './safe-parse';
import { XSD_NS, type SchemaDocument } from './schema-set';

const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

/** `{namespace}local`, the key of every declaration and type in the model. */
export function qkey(namespace: string | null, local: string): string {
  return `{${namespace ?? ''}}${local}`;
}

export interface ElementDeclaration {
  /** Key of the declared (or referenced) element name. */
  key: string;
  typeKey: string | null;
  minOccurs: number;
  /** Key of the global declaration a `ref` points at. */
  ref: string | null;
}

/** An XSD 1.1 `xsd:assert` lifted out of a complex type, with the context its XPath needs. */
export interface Assertion {
  test: string;
  typeKey: string;
  namespaces: Record<string, string>;
  defaultElementNamespace: string | null;
  file: string;
  line: number;
  /** The assert element, so the text libxml2 compiles can leave it out. */
  source: XElement;
}

interface ContentHolder {
  children: Map<string, ElementDeclaration>;
  groupRefs: string[];
}

interface TypeDefinition extends ContentHolder {
  key: string;
  base: string | null;
  assertions: Assertion[];
}

/** What the validator needs to know about a schema set beyond what libxml2 checks: which type each instance
 * element has (for assertions and EV placement), whether a child may be absent, and each type's builtin base. */
export class SchemaModel {
  readonly elements = new Map<string, ElementDeclaration>();
  private readonly types = new Map<string, TypeDefinition>();
  private readonly groups = new Map<string, ContentHolder>();
  private readonly assertionCache = new Map<string, Assertion[]>();
  /** Lookups every validated instance repeats (the model does not change once built). A child declaration is kept
   * only when found, so names an instance makes up (a wildcard's content) grow nothing. */
  private readonly chainCache = new Map<string, readonly string[]>();
  private readonly builtinCache = new Map<string, string | null>();
  private readonly childCache = new Map<string, Map<string, ElementDeclaration>>();
  /** The type of a child without xsi:type by its parent's type, then its namespace ('' for none) and local name:
   * no key string to build and hash an element. Kept only for declared children, as childCache. */
  private readonly childTypeCache = new Map<string, Map<string, Map<string, string | null>>>();
  private anonymous = 0;

  static build(documents: readonly SchemaDocument[]): SchemaModel {
    const model = new SchemaModel();
    for (const doc of documents) model.readDocument(doc);
    return model;
  }

  get assertions(): Assertion[] {
    return [...this.types.values()].flatMap((t) => t.assertions);
  }

  /** Local names of every element declared with a type that carries assertions (a cheap pre-filter). */
  assertingElementNames(): Set<string> {
    const names = new Set<string>();
    const visit = (holder: ContentHolder) => {
      for (const decl of holder.children.values()) {
        const typeKey = decl.ref ? (this.elements.get(decl.ref)?.typeKey ?? null) : decl.typeKey;
        if (typeKey && this.assertionsFor(typeKey).length > 0) names.add(localOf(decl.key));
      }
    };
    for (const decl of this.elements.values()) {
      if (decl.typeKey && this.assertionsFor(decl.typeKey).length > 0) names.add(localOf(decl.key));
    }
    for (const t of this.types.values()) visit(t);
    for (const g of this.groups.values()) visit(g);
    return names;
  }

  /** The type and its bases, nearest first. */
  chain(typeKey: string): readonly string[] {
    let chain = this.chainCache.get(typeKey);
    if (!chain) {
      const built: string[] = [];
      let current: string | null = typeKey;
      while (current && !built.includes(current)) {
        built.push(current);
        current = this.types.get(current)?.base ?? null;
      }
      chain = built;
      this.chainCache.set(typeKey, chain);
    }
    return chain;
  }

  derivesFrom(typeKey: string | null, ancestor: string): boolean {
    return typeKey !== null && this.chain(typeKey).includes(ancestor);
  }

  /** Assertions apply to the type that states them and to every type derived from it. */
  assertionsFor(typeKey: string): Assertion[] {
    let cached = this.assertionCache.get(typeKey);
    if (!cached) {
      cached = this.chain(typeKey).flatMap((k) => this.types.get(k)?.assertions ?? []);
      this.assertionCache.set(typeKey, cached);
    }
    return cached;
  }

  /** The local name of the XSD builtin a (simple) type finally restricts, e.g. `integer`. */
  builtinOf(typeKey: string | null): string | null {
    if (!typeKey) return null;
    let builtin = this.builtinCache.get(typeKey);
    if (builtin === undefined) {
      const key = this.chain(typeKey).find((k) => k.startsWith(`{${XSD_NS}}`));
      builtin = key ? localOf(key) : null;
      this.builtinCache.set(typeKey, builtin);
    }
    return builtin;
  }

  /** The declaration a child of an element of `typeKey` matches, derived types first, then their bases. */
  childDeclaration(typeKey: string, childKey: string): ElementDeclaration | null {
    let children = this.childCache.get(typeKey);
    const known = children?.get(childKey);
    if (known) return known;
    for (const k of this.chain(typeKey)) {
      const type = this.types.get(k);
      const found = type && this.findIn(type, childKey, new Set());
      if (found) {
        if (!children) {
          children = new Map<string, ElementDeclaration>();
          this.childCache.set(typeKey, children);
        }
        children.set(childKey, found);
        return found;
      }
    }
    return null;
  }

  /** The type of `element` given its parent's type (null for the document element); honours xsi:type. */
  typeOf(element: TreeElement, parentTypeKey: string | null): string | null {
    const xsiType = element.getAttributeNS(XSI_NS, 'type');
    if (xsiType) {
      const [prefix, local] = xsiType.includes(':') ? xsiType.split(':', 2) : [null, xsiType];
      return qkey(element.lookupNamespaceURI(prefix), local);
    }
    const namespace = element.namespaceURI ?? '';
    const byNamespace = parentTypeKey === null ? undefined : this.childTypeCache.get(parentTypeKey)?.get(namespace);
    const known = byNamespace?.get(element.localName);
    if (known !== undefined) return known;
    const key = qkey(element.namespaceURI, element.localName);
    const declared = parentTypeKey ? this.childDeclaration(parentTypeKey, key) : null;
    if (declared) {
      const typeKey = declared.ref ? (this.elements.get(declared.ref)?.typeKey ?? null) : declared.typeKey;
      this.rememberChildType(parentTypeKey as string, namespace, element.localName, typeKey);
      return typeKey;
    }
    return element.namespaceURI ? (this.elements.get(key)?.typeKey ?? null) : null;
  }

  private rememberChildType(parentTypeKey: string, namespace: string, localName: string, typeKey: string | null): void {
    let byNamespace = this.childTypeCache.get(parentTypeKey);
    if (!byNamespace) this.childTypeCache.set(parentTypeKey, (byNamespace = new Map<string, Map<string, string | null>>()));
    let byName = byNamespace.get(namespace);
    if (!byName) byNamespace.set(namespace, (byName = new Map<string, string | null>()));
    byName.set(localName, typeKey);
  }

  /** The type of an element found by walking the declarations down from the document element. */
  typeOfPath(element: XElement): string | null {
    const lineage: XElement[] = [];
    for (let e: XElement | null = element; e; e = e.parentElement) lineage.unshift(e);
    let typeKey: string | null = null;
    for (const e of lineage) {
      typeKey = this.typeOf(e, typeKey);
      if (!typeKey) return null;
    }
    return typeKey;
  }

  private findIn(holder: ContentHolder, childKey: string, seen: Set<string>): ElementDeclaration | null {
    const direct = holder.children.get(childKey);
    if (direct) return direct;
    for (const ref of holder.groupRefs) {
      const group = this.groups.get(ref);
      if (!group || seen.has(ref)) continue;
      seen.add(ref);
      const found = this.findIn(group, childKey, seen);
      if (found) return found;
    }
    return null;
  }

  private readDocument(doc: SchemaDocument): void {
    const schema = doc.dom.documentElement as XElement;
    const context: DocumentContext = {
      doc,
      targetNamespace: schema.getAttribute('targetNamespace') || null,
      qualified: schema.getAttribute('elementFormDefault') === 'qualified',
      xpathDefaultNamespace: schema.getAttribute('xpathDefaultNamespace'),
    };
    for (const child of xsdChildren(schema)) {
      const name = child.getAttribute('name');
      if (!name) continue;
      const key = qkey(context.targetNamespace, name);
      if (child.localName === 'element') this.elements.set(key, this.readElement(child, key, context));
      if (child.localName === 'complexType') this.readComplexType(child, key, context);
      if (child.localName === 'simpleType') this.readSimpleType(child, key);
      if (child.localName === 'group') this.groups.set(key, this.readContent(xsdChildren(child), context));
    }
  }

  private readElement(element: XElement, key: string, context: DocumentContext): ElementDeclaration {
    const minOccurs = Number(element.getAttribute('minOccurs') ?? '1');
    const ref = element.getAttribute('ref');
    if (ref) {
      const refKey = resolveQName(element, ref);
      return { key: refKey, typeKey: null, minOccurs, ref: refKey };
    }
    const type = element.getAttribute('type');
    let typeKey = type ? resolveQName(element, type) : null;
    const inline = xsdChildren(element).find((c) => c.localName === 'complexType' || c.localName === 'simpleType');
    if (inline) {
      typeKey = `#anonymous-${++this.anonymous}`;
      if (inline.localName === 'complexType') this.readComplexType(inline, typeKey, context);
      else this.readSimpleType(inline, typeKey);
    }
    return { key, typeKey: typeKey ?? qkey(XSD_NS, 'anyType'), minOccurs, ref: null };
  }

  private readComplexType(element: XElement, key: string, context: DocumentContext): void {
    let base: string | null = null;
    let body = xsdChildren(element);
    const assertionSources = body.filter((c) => c.localName === 'assert');
    const content = body.find((c) => c.localName === 'complexContent' || c.localName === 'simpleContent');
    if (content) {
      const derivation = xsdChildren(content).find((c) => c.localName === 'extension' || c.localName === 'restriction');
      if (derivation) {
        const baseName = derivation.getAttribute('base');
        base = baseName ? resolveQName(derivation, baseName) : null;
        body = xsdChildren(derivation);
        assertionSources.push(...body.filter((c) => c.localName === 'assert'));
      }
    }
    const type: TypeDefinition = { key, base, ...this.readContent(body, context), assertions: [] };
    type.assertions = assertionSources.map((source) => readAssertion(source, key, context));
    this.types.set(key, type);
  }

  private readSimpleType(element: XElement, key: string): void {
    const body = xsdChildren(element);
    const restriction = body.find((c) => c.localName === 'restriction');
    let base: string | null = qkey(XSD_NS, 'string');
    if (restriction) {
      const baseName = restriction.getAttribute('base');
      const inline = xsdChildren(restriction).find((c) => c.localName === 'simpleType');
      if (baseName) base = resolveQName(restriction, baseName);
      else if (inline) {
        base = `#anonymous-${++this.anonymous}`;
        this.readSimpleType(inline, base);
      }
    }
    this.types.set(key, { key, base, children: new Map(), groupRefs: [], assertions: [] });
  }

  /** Element declarations anywhere in a content model (sequence, choice, all, nested), plus group references. */
  private readContent(particles: XElement[], context: DocumentContext): ContentHolder {
    const holder: ContentHolder = { children: new Map(), groupRefs: [] };
    const visit = (nodes: XElement[]) => {
      for (const node of nodes) {
        if (node.localName === 'element') {
          const name = node.getAttribute('name');
          const form = node.getAttribute('form');
          const qualified = form ? form === 'qualified' : context.qualified;
          const key = name ? qkey(qualified ? context.targetNamespace : null, name) : '';
          const decl = this.readElement(node, key, context);
          holder.children.set(decl.key, decl);
        } else if (node.localName === 'group' && node.getAttribute('ref')) {
          holder.groupRefs.push(resolveQName(node, node.getAttribute('ref') as string));
        } else if (['sequence', 'choice', 'all', 'group'].includes(node.localName)) {
          visit(xsdChildren(node));
        }
      }
    };
    visit(particles);
    return holder;
  }
}

interface DocumentContext {
  doc: SchemaDocument;
  targetNamespace: string | null;
  qualified: boolean;
  xpathDefaultNamespace: string | null;
}

function readAssertion(source: XElement, typeKey: string, context: DocumentContext): Assertion {
  const namespaces: Record<string, string> = {};
  for (let e: XElement | null = source; e; e = e.parentElement) {
    for (const attr of e.attributes) {
      if (attr.prefix === 'xmlns' && !(attr.localName in namespaces)) namespaces[attr.localName] = attr.value;
    }
  }
  const declared = source.getAttribute('xpathDefaultNamespace') ?? context.xpathDefaultNamespace;
  const defaultElementNamespace =
    declared === '##targetNamespace'
      ? context.targetNamespace
      : declared === '##defaultNamespace'
        ? source.lookupNamespaceURI(null)
        : declared && declared !== '##local'
          ? declared
          : null;
  return {
    test: source.getAttribute('test') ?? 'true()',
    typeKey,
    namespaces,
    defaultElementNamespace,
    file: context.doc.name,
    line: positionOf(source).line,
    source,
  };
}

function xsdChildren(element: XElement): XElement[] {
  return childElements(element).filter((c) => c.namespaceURI === XSD_NS);
}

function resolveQName(element: XElement, qname: string): string {
  const colon = qname.indexOf(':');
  const prefix = colon === -1 ? null : qname.slice(0, colon);
  return qkey(element.lookupNamespaceURI(prefix), qname.slice(colon + 1));
}

export function localOf(key: string): string {
  return key.slice(key.indexOf('}') + 1);
}
