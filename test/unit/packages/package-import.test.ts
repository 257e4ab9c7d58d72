import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataModelDocument, TreeNode } from '../../../src/domain/model-tree';
import { generateModelFiles } from '../../../src/packages/model-package';
import { zipFiles } from '../../../src/packages/zip-files';
import { parsePackageXsd, readPackage } from '../../../src/packages/package-import';
import { allTypesModel, ARREST_REPORT_DIR, nestedModel, STATE_POPULATION_DIR, STATE_POPULATION_XSD } from './package-support';

function shape(node: TreeNode): unknown {
  return node.kind === 'component'
    ? { ctId: node.ctId, label: node.label, dataType: node.dataType, units: node.units }
    : { ctId: node.ctId, label: node.label, children: node.children.map(shape) };
}

/** The tree as the generated XSD can carry it: units only where the reference-model type has them. */
function expectedShape(m: DataModelDocument): unknown {
  const withUnits = new Set([
    ...['XdCount', 'XdQuantity', 'XdFloat', 'XdDouble', 'XdInterval'],
    ...['XdDecimalList', 'XdDoubleList', 'XdIntegerList', 'XdNonNegativeIntegerList', 'XdPositiveIntegerList'],
  ]);
  const strip = (node: TreeNode): TreeNode =>
    node.kind === 'component'
      ? { ...node, units: withUnits.has(node.dataType) ? node.units : null }
      : { ...node, children: node.children.map(strip) };
  return shape(strip(m.root));
}

describe('importing a real SDC4 package (StatePopulation)', () => {
  const imported = parsePackageXsd(readFileSync(STATE_POPULATION_XSD, 'utf8'));

  it('reads the model: its ct_id, title and description', () => {
    expect(imported.dm.ctId).toBe('its7j6bvrb9n2fxdcxmoemod');
    expect(imported.dm.title).toBe('StatePopulation');
    expect(imported.dm.description).toMatch(/^The 'StatePopulation' dataset provides demographic information/);
  });

  it('registers its cluster and four components with their original ct_ids, labels and types', () => {
    expect(imported.root).toMatchObject({ kind: 'cluster', ctId: 'nk7ry8358vwjojwswli6ssrv', label: 'StatePopulation Data Cluster' });
    expect(imported.root.children.map((c) => (c.kind === 'component' ? [c.ctId, c.label, c.dataType] : c.ctId))).toEqual([
      ['poq4ywx89zvijxwoqz8djrxj', 'State', 'XdString'],
      ['ac79bjkqi8906qzjujpwtlsy', 'Adult Population', 'XdCount'],
      ['w30d6kzcdcfnjxvk94w58nfw', 'Total Population', 'XdCount'],
      ['hzsoktbrtlhowsl71kywg81w', 'Adult Population Percentage', 'XdQuantity'],
    ]);
  });

  it('keeps each component description and folds adapters and units components away', () => {
    const [state] = imported.root.children;
    expect(state.description).toMatch(/^This column represents the U\.S\. state/);
    const ids = JSON.stringify(imported);
    for (const folded of ['o2x5o8e6vmu00ypxer768q3n', 'y0wjrexefsmsebpu0rnf8da9', 'w9prqlh0m9jdng93uwz6hqwz']) expect(ids).not.toContain(folded);
  });

  it('reads the package directory and finds its XSD', async () => {
    const pkg = await readPackage(STATE_POPULATION_DIR);
    expect(pkg.xsdName).toBe('dm-its7j6bvrb9n2fxdcxmoemod.xsd');
    expect(pkg.files).toHaveLength(8);
    expect(parsePackageXsd(pkg.xsd).root.children).toHaveLength(4);
  });
});

describe('refusing broken packages', () => {
  it('refuses Arrest-Report, whose XSD references elements it never declares', async () => {
    const pkg = await readPackage(ARREST_REPORT_DIR);
    expect(() => parsePackageXsd(pkg.xsd)).toThrow(/references element ms-[a-z0-9]+ \(in mc-[a-z0-9]+\) but never declares it/);
  });

  it('refuses a document that is not an XML Schema, and a folder without a dm- XSD', async () => {
    expect(() => parsePackageXsd('<root/>')).toThrow('Not an XML Schema document');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sdc-pkg-'));
    await writeFile(path.join(dir, 'notes.txt'), 'no schema here');
    await expect(readPackage(dir)).rejects.toThrow(/holds no dm-<ct_id>\.xsd/);
    await rm(dir, { recursive: true, force: true });
  });
});

describe('round trip through a generated package', () => {
  it.each<[string, () => DataModelDocument]>([
    ['every data type with hostile labels', allTypesModel],
    ['nested three deep', nestedModel],
  ])('a generated package of a model %s imports back to the same tree', async (_name, build) => {
    const m = build();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sdc-zip-'));
    const zip = path.join(dir, 'package.zip');
    await writeFile(zip, await zipFiles(generateModelFiles(m)));
    const pkg = await readPackage(zip);
    expect(pkg.xsdName).toBe(`dm-${m.ctId}.xsd`);
    const imported = parsePackageXsd(pkg.xsd);
    expect(imported.dm).toEqual({ ctId: m.ctId, title: m.title, description: m.description });
    expect(shape(imported.root)).toEqual(expectedShape(m));
    await rm(dir, { recursive: true, force: true });
  });
});
