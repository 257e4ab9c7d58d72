import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  DATA_TYPES,
  type ClusterNode,
  type ComponentNode,
  type DataModelDocument,
  type DataType,
  type TreeNode,
} from '../../../src/domain/model-tree';
import type { PackageFile } from '../../../src/packages/zip-files';
import { parsePackageXsd } from '../../../src/packages/package-import';
import { compileSchema, type CompiledSchema } from '../../../src/xml/schema';

/** Models and checks shared by the package tests: small factories, the real SDC4 reference model resolved from
 * the fixtures (never the network), and the real StatePopulation package. */

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures');
const SDC4_XSD_URL = 'https://semanticdatacharter.com/ns/sdc4/sdc4.xsd';
export const STATE_POPULATION_DIR = path.join(FIXTURES, 'sdc4/packages/StatePopulation');
export const STATE_POPULATION_XSD = path.join(STATE_POPULATION_DIR, 'dm-its7j6bvrb9n2fxdcxmoemod.xsd');
export const ARREST_REPORT_DIR = path.join(FIXTURES, 'sdc4/packages/Arrest-Report');

const sdc4Xsd = readFileSync(path.join(FIXTURES, 'sdc4/reference/sdc4.xsd'), 'utf8');

/** Labels a user may type: quotes, markup characters, line breaks, accents, CJK and emoji. */
export const HOSTILE_LABEL = `Weight "net" <kg> & 'tare'\nline two — Ünïcødé 体重 🎉`;

const UNITS: Partial<Record<DataType, string>> = {
  XdCount: 'people',
  XdQuantity: 'kg',
  XdFloat: 'm/s',
  XdDecimalList: 'mmol/L',
  XdDoubleList: 'Hz',
  XdIntegerList: '{count}',
  XdNonNegativeIntegerList: 'steps',
  XdInterval: 'cm',
};

function component(ctId: string, dataType: DataType, label: string, description: string | null = null): ComponentNode {
  return { kind: 'component', ctId, label, dataType, description, units: UNITS[dataType] ?? null };
}

function cluster(ctId: string, label: string, children: TreeNode[], description: string | null = null): ClusterNode {
  return { kind: 'cluster', ctId, label, description, children };
}

export function model(ctId: string, title: string, root: ClusterNode, description: string | null = null): DataModelDocument {
  return { ctId, title, description, language: 'en-US', author: 'Test Author', created: new Date('2025-06-01T09:30:00Z'), root };
}

export function flatModel(): DataModelDocument {
  return model(
    'flatmodel0000000000000001',
    'Flat survey',
    cluster('flatroot00000000000000001', 'Survey answers', [
      component('flatname00000000000000001', 'XdString', 'Respondent name'),
      component('flatage000000000000000001', 'XdCount', 'Age'),
      component('flatheight000000000000001', 'XdQuantity', 'Height'),
      component('flatconsent00000000000001', 'XdBoolean', 'Consent given'),
      component('flatvisit0000000000000001', 'XdTemporal', 'Visit date'),
    ]),
  );
}

export function nestedModel(): DataModelDocument {
  return model(
    'nestedmodel00000000000001',
    'Nested clinic visit',
    cluster('nestroot00000000000000001', 'Visit', [
      component('nestsite00000000000000001', 'XdToken', 'Site code'),
      cluster('nestpatient0000000000001', 'Patient', [
        component('nestpatname0000000000001', 'XdString', 'Patient name'),
        cluster('nestvitals00000000000001', 'Vital signs', [
          component('nestpulse000000000000001', 'XdCount', 'Pulse'),
          cluster('nestbp000000000000000001', 'Blood pressure', [
            component('nestsys0000000000000001', 'XdQuantity', 'Systolic'),
            component('nestdia0000000000000001', 'XdQuantity', 'Diastolic'),
          ]),
        ]),
      ]),
    ]),
  );
}

/** Every supported data type, each label hostile, the model title and descriptions too. */
export function allTypesModel(): DataModelDocument {
  const components = DATA_TYPES.map((type, i) => {
    const ctId = `alltype${String(i).padStart(2, '0')}${type.toLowerCase()}`;
    return component(ctId, type, `${type}: ${HOSTILE_LABEL}`, `About ${type} -- <b>&amp;</b>\n"second" line`);
  });
  return model(
    'alltypesmodel000000000001',
    `Every type ${HOSTILE_LABEL}`,
    cluster('alltypesroot0000000000001', `Root ${HOSTILE_LABEL}`, [
      ...components.slice(0, 10),
      cluster('alltypesinner000000000001', 'Inner & <more>', components.slice(10)),
    ]),
    `Model description with <tags> & "quotes"\nand a second line`,
  );
}

/** A new model that reuses the real StatePopulation components (original ct_ids) beside a new one. */
export function statePopulationReuseModel(): DataModelDocument {
  const imported = parsePackageXsd(readFileSync(STATE_POPULATION_XSD, 'utf8'));
  const reused = imported.root.children;
  return model(
    'reusemodel000000000000001',
    'Population with growth',
    cluster('reuseroot0000000000000001', 'Population by state', [
      ...reused,
      cluster('reusegrowth00000000000001', 'Growth', [component('reusegrowthrate000000001', 'XdDecimalList', 'Yearly growth rates')]),
    ]),
  );
}

/** A model of `count` components of every type in turn, ten to a cluster. */
export function sizedModel(count: number, prefix = 'sz'): DataModelDocument {
  const clusters: ClusterNode[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 10 === 0) clusters.push(cluster(`${prefix}cl${i}`, `Group ${i / 10 + 1}`, []));
    const type = DATA_TYPES[i % DATA_TYPES.length];
    clusters[clusters.length - 1].children.push(component(`${prefix}c${i}`, type, `${type} field ${i}`));
  }
  return model(`${prefix}model${count}`, `Model of ${count} components`, cluster(`${prefix}root`, 'All groups', clusters));
}

export function fileNamed(files: PackageFile[], suffix: string): string {
  const file = files.find((f) => f.name.endsWith(suffix));
  if (!file) throw new Error(`No file ending in ${suffix}`);
  return file.content.toString();
}

/** Compiles a generated XSD against the real sdc4.xsd (resolved from the fixtures by its canonical URL). */
export async function compileGenerated(files: PackageFile[]): Promise<CompiledSchema> {
  const xsd = files.find((f) => f.name.endsWith('.xsd'));
  if (!xsd) throw new Error('No XSD in the package');
  return compileSchema({ name: xsd.name, content: xsd.content.toString() }, async (location) => (location === SDC4_XSD_URL ? sdc4Xsd : null));
}
