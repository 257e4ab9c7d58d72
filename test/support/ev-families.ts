import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ClusterNode, ComponentNode, DataModelDocument, DataType } from '../../src/domain/model-tree';
import { generateModelFiles } from '../../src/packages/model-package';
import { type PackageFile } from '../../src/packages/zip-files';

/**
 * One generated model with a component of every datatype family the EV rule is checked on (string, count,
 * quantity, temporal, boolean), its example instance, and the instances that try to smuggle content past an
 * ExceptionalValue. The unit test (libxml2 + the corrector) and the HTTP tests (Interface B, VaaS, GraphQL) share it.
 */

export type Family = 'string' | 'count' | 'quantity' | 'temporal' | 'boolean';

interface FamilySpec {
  ctId: string;
  dataType: DataType;
  label: string;
  units: string | null;
  /** The component's value element and its text in the generated instance. */
  value: string;
  text: string;
}

const FAMILIES: Record<Family, FamilySpec> = {
  string: { ctId: 'evfamstring00000000000001', dataType: 'XdString', label: 'Name', units: null, value: 'xdstring-value', text: 'Example text' },
  count: { ctId: 'evfamcount000000000000001', dataType: 'XdCount', label: 'Age', units: 'people', value: 'xdcount-value', text: '42' },
  quantity: { ctId: 'evfamquantity00000000001', dataType: 'XdQuantity', label: 'Height', units: 'kg', value: 'xdquantity-value', text: '12.5' },
  temporal: { ctId: 'evfamtemporal00000000001', dataType: 'XdTemporal', label: 'Visit', units: null, value: 'xdtemporal-date', text: '2025-06-01' },
  boolean: { ctId: 'evfamboolean000000000001', dataType: 'XdBoolean', label: 'Consent', units: null, value: 'true-value', text: 'true' },
};
export const FAMILY_NAMES = Object.keys(FAMILIES) as Family[];

export const EV_FAMILIES_CT_ID = 'evfamilies000000000000001';

function evFamiliesModel(): DataModelDocument {
  const children: ComponentNode[] = FAMILY_NAMES.map((f) => {
    const { ctId, dataType, label, units } = FAMILIES[f];
    return { kind: 'component', ctId, label, dataType, description: null, units };
  });
  const root: ClusterNode = { kind: 'cluster', ctId: 'evfamroot0000000000000001', label: 'EV families', description: null, children };
  return {
    ctId: EV_FAMILIES_CT_ID,
    title: 'EV families',
    description: 'One component of each datatype family',
    language: 'en-US',
    author: 'Test Author',
    created: new Date('2025-06-01T09:30:00Z'),
    root,
  };
}

const evFamiliesFiles = (): PackageFile[] => generateModelFiles(evFamiliesModel());

const fileText = (files: PackageFile[], name: string) => files.find((f) => f.name === name)!.content.toString();
export const evFamiliesXsd = (files = evFamiliesFiles()) => fileText(files, `dm-${EV_FAMILIES_CT_ID}.xsd`);
export const evFamiliesXml = (files = evFamiliesFiles()) => fileText(files, `dm-${EV_FAMILIES_CT_ID}.xml`);

/** The generated package in a fresh directory, for PackageService.importPackage. */
export async function evFamiliesPackageDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ev-families-'));
  for (const file of evFamiliesFiles()) await writeFile(path.join(dir, file.name), file.content);
  return dir;
}

const NI = '<sdc4:NI><ev-name>No Information</ev-name></sdc4:NI>';

/** The instance with one family's component rewritten: `edit` gets the component's inner XML. */
function editComponent(xml: string, family: Family, edit: (inner: string) => string): string {
  const tag = `sdc4:ms-${FAMILIES[family].ctId}`;
  const start = xml.indexOf(`<${tag}>`) + tag.length + 2;
  const end = xml.indexOf(`</${tag}>`);
  if (start < tag.length + 2 || end < 0) throw new Error(`No component ${tag} in the instance`);
  const edited = edit(xml.slice(start, end));
  if (edited === xml.slice(start, end)) throw new Error(`The edit of ${family} changed nothing`);
  return xml.slice(0, start) + edited + xml.slice(end);
}

const labelOf = (family: Family) => `<label>${FAMILIES[family].label}</label>`;
const valueOf = (family: Family) => `<${FAMILIES[family].value}>${FAMILIES[family].text}</${FAMILIES[family].value}>`;

/** The three ways an EV must not excuse: every one is invalid for an XSD processor, EV or not. */
export type Smuggling = 'undeclared child' | 'wrong fixed label' | 'missing value';
export const SMUGGLINGS: Smuggling[] = ['undeclared child', 'wrong fixed label', 'missing value'];

export function smuggled(family: Family, shape: Smuggling, xml = evFamiliesXml()): string {
  return editComponent(xml, family, (inner) => {
    switch (shape) {
      case 'undeclared child':
        return inner.replace(labelOf(family), `${labelOf(family)}${NI}<smuggled>anything at all</smuggled>`);
      case 'wrong fixed label':
        return inner.replace(labelOf(family), `<label>Not the label</label>${NI}`);
      case 'missing value':
        return inner.replace(labelOf(family), `${labelOf(family)}${NI}`).replace(valueOf(family), '');
    }
  });
}

/** The instance with one family's value text replaced (escaped as XML text). */
export function withValue(family: Family, text: string, xml = evFamiliesXml()): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const { value } = FAMILIES[family];
  return editComponent(xml, family, (inner) => inner.replace(valueOf(family), `<${value}>${escaped}</${value}>`));
}

/** 1-based line of a family's value element in the generated instance. */
export function valueLine(family: Family, xml = evFamiliesXml()): number {
  const at = xml.indexOf(`<${FAMILIES[family].value}>`, xml.indexOf(`<sdc4:ms-${FAMILIES[family].ctId}>`));
  return xml.slice(0, at).split('\n').length;
}
