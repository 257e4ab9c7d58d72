import yauzl from 'yauzl';
import { generateModelFiles, generateSkeleton, packageFileNames } from '../../../src/packages/model-package';
import { zipFiles, type PackageFile } from '../../../src/packages/zip-files';
import { allTypesModel, compileGenerated, fileNamed, flatModel, nestedModel, sizedModel, statePopulationReuseModel } from './package-support';

function zipEntries(zip: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: false }, (err, file) => {
      if (err) return reject(err);
      const names: string[] = [];
      file.on('entry', (entry: yauzl.Entry) => names.push(entry.fileName));
      file.on('end', () => resolve(names));
      file.on('error', reject);
    });
  });
}

const MODELS = {
  flat: flatModel,
  'nested three deep': nestedModel,
  'every data type with hostile labels': allTypesModel,
  'reusing the real StatePopulation components': statePopulationReuseModel,
  '60 components': () => sizedModel(60),
};

describe('model package', () => {
  it.each(Object.entries(MODELS))('the example instance of a %s model is valid against its XSD and the real sdc4.xsd', async (_name, build) => {
    const files = generateModelFiles(build());
    const schema = await compileGenerated(files);
    expect(schema.validate(fileNamed(files, '.xml'))).toEqual([]);
  });

  it('validation of an example instance can fail: a changed fixed label or a wrong value is reported', async () => {
    const files = generateModelFiles(flatModel());
    const schema = await compileGenerated(files);
    const xml = fileNamed(files, '.xml');
    expect(schema.validate(xml.replace('<label>Age</label>', '<label>Years</label>')).length).toBeGreaterThan(0);
    expect(schema.validate(xml.replace(/<xdcount-value>\d+<\/xdcount-value>/, '<xdcount-value>N/A</xdcount-value>')).length).toBeGreaterThan(0);
    expect(schema.validate(xml.replace('<dm-label>Flat survey</dm-label>', '<dm-label>Other</dm-label>')).length).toBeGreaterThan(0);
  });

  it('fixes each label, the units and the title in the XSD, escaped, and the instance states them back', async () => {
    const files = generateModelFiles(allTypesModel());
    const xsd = fileNamed(files, '.xsd');
    expect(xsd).toContain('fixed="XdCount: Weight &quot;net&quot; &lt;kg&gt; &amp; \'tare\'&#10;line two — Ünïcødé 体重 🎉"');
    expect(xsd).toContain('<xsd:element maxOccurs="1" minOccurs="1" name="xdstring-value" type="xsd:string" fixed="people"/>');
    expect(xsd).toContain('<xsd:include schemaLocation="https://semanticdatacharter.com/ns/sdc4/sdc4.xsd"/>');
    const xml = fileNamed(files, '.xml');
    expect(xml).toContain(`<label>XdCount: Weight "net" &lt;kg&gt; &amp; 'tare'\nline two — Ünïcødé 体重 🎉</label>`);
    const schema = await compileGenerated(files);
    expect(schema.validate(xml.replace('体重', '体'))).not.toEqual([]);
  });

  it('follows the real package structure: dm- root in sdc4:DM, mc- types, components wrapped in XdAdapters', () => {
    const files = generateModelFiles(flatModel());
    const xsd = fileNamed(files, '.xsd');
    expect(xsd).toContain('<xsd:element name="dm-flatmodel0000000000000001" substitutionGroup="sdc4:DM" type="sdc4:mc-flatmodel0000000000000001"/>');
    expect(xsd).toContain('<xsd:restriction base="sdc4:DMType">');
    expect(xsd).toContain('<xsd:restriction base="sdc4:ClusterType">');
    expect(xsd).toContain('<xsd:restriction base="sdc4:XdCountType">');
    expect(xsd).toContain(
      '<xsd:element name="ms-flatage000000000000000001" substitutionGroup="sdc4:XdAdapter-value" type="sdc4:mc-flatage000000000000000001"/>',
    );
    expect(xsd.match(/<xsd:restriction base="sdc4:XdAdapterType">/g)).toHaveLength(5);
    expect(xsd).toContain('<sdc4-meta:isConstrainedByRmComponent rdf:resource="https://semanticdatacharter.com/ns/sdc4/XdCountType"/>');
    const xml = fileNamed(files, '.xml');
    expect(xml).toMatch(/<sdc4:ms-[a-z0-9]{24}>\s*<sdc4:ms-flatage000000000000000001>\s*<label>Age<\/label>/);
  });

  it('lists every artefact of the package, named after the model', () => {
    const files = generateModelFiles(flatModel());
    expect(files.map((f) => f.name)).toEqual([
      'dm-flatmodel0000000000000001.xsd',
      'dm-flatmodel0000000000000001.xml',
      'dm-flatmodel0000000000000001.html',
      'dm-flatmodel0000000000000001.ttl',
      'dm-flatmodel0000000000000001.rdf',
      'dm-flatmodel0000000000000001_shacl.ttl',
      'dm-flatmodel0000000000000001.jsonld',
      'dm-flatmodel0000000000000001-instance.json',
      'dm-flatmodel0000000000000001.graphql',
      'README.md',
    ]);
    expect(packageFileNames('flatmodel0000000000000001')).toEqual(files.map((f) => f.name));
  });

  it('is deterministic: the same model gives the same files and the same ZIP bytes', async () => {
    const first = generateModelFiles(allTypesModel());
    const second = generateModelFiles(allTypesModel());
    expect(second).toEqual(first);
    const [zipA, zipB] = await Promise.all([zipFiles(first), zipFiles(second)]);
    expect(zipA.equals(zipB)).toBe(true);
    expect(await zipEntries(zipA)).toEqual(first.map((f) => f.name));
  });

  it('writes a reused component once in the schema even where the tree places it twice', async () => {
    const base = flatModel();
    const age = base.root.children[1];
    base.root.children.push({ kind: 'cluster', ctId: 'flatagain00000000000000001', label: 'Again', description: null, children: [age] });
    const files = generateModelFiles(base);
    const xsd = fileNamed(files, '.xsd');
    expect(xsd.match(/<xsd:complexType name="mc-flatage000000000000000001">/g)).toHaveLength(1);
    expect((await compileGenerated(files)).validate(fileNamed(files, '.xml'))).toEqual([]);
  });

  it('refuses a ct_id that cannot name an XML element', () => {
    const bad = flatModel();
    bad.root.children[0] = { ...bad.root.children[0], ctId: 'has space' };
    expect(() => generateModelFiles(bad)).toThrow(/ct_id that cannot name an XML element: "has space"/);
  });

  it('accepts a cluster with no items: its instance holds just the label', async () => {
    const m = nestedModel();
    m.root.children.push({ kind: 'cluster', ctId: 'nestempty0000000000000001', label: 'Notes (none yet)', description: null, children: [] });
    const files = generateModelFiles(m);
    expect(fileNamed(files, '.xml')).toMatch(
      /<sdc4:ms-nestempty0000000000000001>\s*<label>Notes \(none yet\)<\/label>\s*<\/sdc4:ms-nestempty0000000000000001>/,
    );
    expect((await compileGenerated(files)).validate(fileNamed(files, '.xml'))).toEqual([]);
  });

  it('refuses a language that is not a language tag, and one ct_id naming two model components', () => {
    expect(() => generateModelFiles({ ...flatModel(), language: 'English (US)' })).toThrow('"English (US)" is not a language tag');
    const clash = flatModel();
    clash.root.children.push({ kind: 'cluster', ctId: 'flatage000000000000000001', label: 'Clash', description: null, children: [] });
    expect(() => generateModelFiles(clash)).toThrow('ct_id flatage000000000000000001 names both cluster "Clash" and component "Age"');
  });

  it('drops characters XML cannot carry, the same way in every artefact', async () => {
    const m = flatModel();
    m.root.children[0] = { ...m.root.children[0], label: 'Bell\u0007 name' };
    const files: PackageFile[] = generateModelFiles(m);
    expect(fileNamed(files, '.xsd')).toContain('fixed="Bell name"');
    expect(fileNamed(files, '.ttl')).toContain('"Bell name"');
    expect((await compileGenerated(files)).validate(fileNamed(files, '.xml'))).toEqual([]);
  });
});

describe('skeleton instance', () => {
  it('has the model structure with fixed values filled in and a placeholder in each free value', () => {
    const skeleton = generateSkeleton(flatModel()).xml;
    expect(skeleton).toContain('<sdc4:dm-flatmodel0000000000000001');
    expect(skeleton).toContain('<dm-label>Flat survey</dm-label>');
    expect(skeleton).toContain('<label>Age</label>');
    expect(skeleton).toContain('<xdcount-value>__PLACEHOLDER_flatage000000000000000001__</xdcount-value>');
    expect(skeleton).toContain('<xdstring-value>people</xdstring-value>');
    expect(skeleton).not.toContain('<xdcount-value>42</xdcount-value>');
    for (const ctId of ['flatname00000000000000001', 'flatage000000000000000001', 'flatvisit0000000000000001']) {
      expect(skeleton).toContain(`<sdc4:ms-${ctId}>`);
    }
  });

  it('escapes hostile labels so the skeleton stays well-formed', () => {
    const skeleton = generateSkeleton(allTypesModel()).xml;
    expect(skeleton).toContain('&lt;kg&gt; &amp;');
    expect(skeleton).not.toMatch(/<kg>/);
  });
});

describe('reference-model assertion', () => {
  it("applies XdIntervalType's assertion to the generated interval: bounds of different kinds are refused", async () => {
    const files = generateModelFiles(allTypesModel());
    const schema = await compileGenerated(files);
    const xml = fileNamed(files, '.xml');
    const mixed = xml.replace('<invl-int>100</invl-int>', '<invl-decimal>100.5</invl-decimal>');
    expect(mixed).not.toEqual(xml);
    expect(schema.validate(mixed).length).toBeGreaterThan(0);
  });
});
