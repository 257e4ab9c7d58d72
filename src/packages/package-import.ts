import { sync as parseXmlDocument } from 'slimdom-sax-parser';
import { isDataType, type ClusterNode, type ComponentNode, type TreeNode } from '../domain/model-tree';
import { readPackageFiles } from './package-reader';
import type { PackageFile } from './zip-files';

/** Reads a real SDC4 model package's XSD back into a model tree with the original ct_ids: each `mc-<ct_id>`
 * complex type gives a cluster or a component (its rdfs:label, rdfs:comment and the reference-model type named
 * by sdc4-meta:isConstrainedByRmComponent); XdAdapter wrappers and units components fold into their component. */

export interface ImportedPackage {
  dm: { ctId: string; title: string; description: string | null };
  root: ClusterNode;
}

type Element = NonNullable<ReturnType<typeof parseXmlDocument>['documentElement']>;

const XSD_NS = 'http://www.w3.org/2001/XMLSchema';
const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const RDFS_NS = 'http://www.w3.org/2000/01/rdf-schema#';
const DC_NS = 'http://purl.org/dc/elements/1.1/';
const META_NS = 'https://semanticdatacharter.com/ontology/sdc4-meta/';

/** The local part of a QName or the last segment of an IRI (`sdc4:XdCountType`, `https://…/sdc4/XdCountType`). */
function localName(value: string): string {
  return value.slice(Math.max(value.lastIndexOf(':'), value.lastIndexOf('/'), value.lastIndexOf('#')) + 1);
}

function descendants(root: Element, ns: string, name: string): Element[] {
  const found: Element[] = [];
  const walk = (el: Element) => {
    for (const child of el.children) {
      if (child.namespaceURI === ns && child.localName === name) found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

function firstText(root: Element, ns: string, name: string): string | null {
  const el = descendants(root, ns, name)[0];
  const text = el?.textContent ?? null;
  return text === null || text.trim() === '' ? null : text;
}

interface TypeInfo {
  name: string;
  base: string;
  el: Element;
}

class XsdIndex {
  readonly types = new Map<string, TypeInfo>();
  readonly elements = new Map<string, { type: string; group: string | null }>();

  constructor(readonly schema: Element) {
    for (const child of schema.children) {
      if (child.namespaceURI !== XSD_NS) continue;
      const name = child.getAttribute('name');
      if (!name) continue;
      if (child.localName === 'complexType') {
        const restriction = descendants(child, XSD_NS, 'restriction')[0] ?? descendants(child, XSD_NS, 'extension')[0];
        this.types.set(name, { name, base: localName(restriction?.getAttribute('base') ?? ''), el: child });
      } else if (child.localName === 'element') {
        const group = child.getAttribute('substitutionGroup');
        this.elements.set(name, { type: localName(child.getAttribute('type') ?? ''), group: group ? localName(group) : null });
      }
    }
  }

  typeOfElement(elementName: string): TypeInfo {
    const declaration = this.elements.get(elementName);
    if (!declaration) throw new Error(`The schema references element ${elementName} but never declares it`);
    const type = this.types.get(declaration.type);
    if (!type) throw new Error(`Element ${elementName} has type ${declaration.type}, which the schema does not define`);
    return type;
  }

  /** The ms- elements a type's content model references, in order. */
  refs(type: TypeInfo): string[] {
    return descendants(type.el, XSD_NS, 'element')
      .map((el) => el.getAttribute('ref'))
      .filter((ref): ref is string => ref !== null && localName(ref).startsWith('ms-'))
      .map(localName);
  }

  /** Every ms- reference must resolve, as it must for the schema to compile at all. */
  assertReferencesResolve(): void {
    for (const type of this.types.values()) {
      const missing = this.refs(type).find((ref) => !this.elements.has(ref));
      if (missing) throw new Error(`The schema references element ${missing} (in ${type.name}) but never declares it`);
    }
  }

  localElement(type: TypeInfo, name: string): Element | undefined {
    return descendants(type.el, XSD_NS, 'element').find((el) => el.getAttribute('name') === name);
  }
}

function ctIdOf(type: TypeInfo): string {
  if (!type.name.startsWith('mc-')) throw new Error(`Type ${type.name} is not named mc-<ct_id>`);
  return type.name.slice(3);
}

/** Label from the type's RDF annotation, else from its fixed `label` element. */
function labelOf(index: XsdIndex, type: TypeInfo): string {
  const label = firstText(type.el, RDFS_NS, 'label') ?? index.localElement(type, 'label')?.getAttribute('fixed') ?? null;
  if (label === null) throw new Error(`Type ${type.name} has no label`);
  return label;
}

function fixedValue(el: Element | undefined): string | null {
  if (!el) return null;
  const fixed = el.getAttribute('fixed');
  if (fixed !== null) return fixed;
  const enumerations = descendants(el, XSD_NS, 'enumeration');
  return enumerations.length === 1 ? enumerations[0].getAttribute('value') : null;
}

function unitsOf(index: XsdIndex, type: TypeInfo, dataType: string): string | null {
  if (dataType === 'XdInterval') return fixedValue(index.localElement(type, 'units-name'));
  const unitsElement = descendants(type.el, XSD_NS, 'element').find((el) => el.getAttribute('name')?.endsWith('-units'));
  const unitsType = index.types.get(localName(unitsElement?.getAttribute('type') ?? ''));
  return unitsType ? fixedValue(index.localElement(unitsType, 'xdstring-value')) : null;
}

function rmTypeOf(type: TypeInfo): string {
  const constrainedBy = descendants(type.el, META_NS, 'isConstrainedByRmComponent')[0]?.getAttributeNS(RDF_NS, 'resource');
  return localName(constrainedBy ?? type.base);
}

function componentFrom(index: XsdIndex, type: TypeInfo): ComponentNode {
  const rmType = rmTypeOf(type);
  const dataType = rmType.replace(/Type$/, '');
  if (!isDataType(dataType)) throw new Error(`Component ${type.name} is constrained by ${rmType}, which is not a supported data type`);
  return {
    kind: 'component',
    ctId: ctIdOf(type),
    label: labelOf(index, type),
    dataType,
    description: firstText(type.el, RDFS_NS, 'comment'),
    units: unitsOf(index, type, dataType),
  };
}

function itemFrom(index: XsdIndex, elementName: string, path: string[]): TreeNode {
  const type = index.typeOfElement(elementName);
  if (type.base === 'XdAdapterType') {
    const [inner] = index.refs(type);
    if (!inner) throw new Error(`Adapter ${type.name} wraps no component`);
    return componentFrom(index, index.typeOfElement(inner));
  }
  if (type.base === 'ClusterType') return clusterFrom(index, type, path);
  return componentFrom(index, type);
}

function clusterFrom(index: XsdIndex, type: TypeInfo, path: string[]): ClusterNode {
  if (path.includes(type.name)) throw new Error(`Cluster ${type.name} contains itself`);
  const inner = [...path, type.name];
  return {
    kind: 'cluster',
    ctId: ctIdOf(type),
    label: labelOf(index, type),
    description: firstText(type.el, RDFS_NS, 'comment'),
    children: index.refs(type).map((ref) => itemFrom(index, ref, inner)),
  };
}

export function parsePackageXsd(xsd: string): ImportedPackage {
  const schema = parseXmlDocument(xsd).documentElement;
  if (!schema || schema.namespaceURI !== XSD_NS || schema.localName !== 'schema') throw new Error('Not an XML Schema document');
  const index = new XsdIndex(schema);
  index.assertReferencesResolve();
  const dmName = [...index.elements].find(([name, decl]) => decl.group === 'DM' && name.startsWith('dm-'))?.[0];
  if (!dmName) throw new Error('The schema declares no dm-<ct_id> element in the sdc4:DM substitution group');
  const dmType = index.typeOfElement(dmName);
  const [rootRef] = index.refs(dmType);
  if (!rootRef) throw new Error(`Data model ${dmName} has no root cluster`);
  const rootType = index.typeOfElement(rootRef);
  if (rootType.base !== 'ClusterType') throw new Error(`The root item of ${dmName} is not a cluster`);
  const title = labelOf(index, dmType);
  const description = firstText(schema, DC_NS, 'description') ?? firstText(dmType.el, RDFS_NS, 'comment');
  return { dm: { ctId: dmName.slice(3), title, description }, root: clusterFrom(index, rootType, []) };
}

/** A package's files (their bytes), from a ZIP or a directory, and its data model's XSD. */
export async function readPackage(pathToZipOrDir: string): Promise<{ xsdName: string; xsd: string; files: PackageFile[] }> {
  const files = await readPackageFiles(pathToZipOrDir, true);
  const candidates = files.filter((file) => /(^|\/)dm-[^/]+\.xsd$/.test(file.name)).sort((a, b) => a.name.localeCompare(b.name));
  if (candidates.length === 0) throw new Error(`${pathToZipOrDir} holds no dm-<ct_id>.xsd`);
  const chosen = candidates[0];
  return { xsdName: chosen.name, xsd: chosen.content.toString(), files };
}
