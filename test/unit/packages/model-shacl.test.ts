import { readFileSync } from 'node:fs';
import { Parser, type Quad } from 'n3';
import type { DataModelDocument } from '../../../src/domain/model-tree';
import { generateModelFiles } from '../../../src/packages/model-package';
import { extractInstanceRdf } from '../../../src/xml/instance-rdf';
import { parseXmlDom } from '../../../src/xml/safe-parse';
import { isEmptyShacl } from '../../../src/packages/model-shacl';
import { parsePackageXsd } from '../../../src/packages/package-import';
import { allTypesModel, model as packageModel, nestedModel, STATE_POPULATION_XSD } from './package-support';

/** The generated SHACL checked by a maintained SHACL engine (rdf-validate-shacl, W3C SHACL Core) against the RDF the
 * service extracts from an instance: the model's own example instance conforms; a broken value, a missing value, a
 * value outside the enumeration and a misplaced item each fail. */

type Validator = {
  validate(data: unknown): Promise<{ conforms: boolean; results: Array<{ path: { value: string } | null; message: Array<{ value: string }> }> }>;
  factory: { dataset(quads: Quad[]): unknown };
};

async function validator(shacl: string): Promise<Validator> {
  const { default: SHACLValidator } = await import('rdf-validate-shacl');
  const shapes = new Parser().parse(shacl);
  return new (SHACLValidator as unknown as new (shapes: unknown) => Validator)(shapes);
}

function files(model: DataModelDocument) {
  const all = generateModelFiles(model);
  const named = (suffix: string) => all.find((f) => f.name === `dm-${model.ctId}${suffix}`)!.content as string;
  return { xsd: named('.xsd'), xml: named('.xml'), shacl: named('_shacl.ttl') };
}

async function check(model: DataModelDocument, xml: string, shacl = files(model).shacl) {
  const { ntriples } = extractInstanceRdf({ document: parseXmlDom(xml), instanceId: 'i-1', dmCtId: model.ctId, modelXsd: files(model).xsd });
  const engine = await validator(shacl);
  const report = await engine.validate(engine.factory.dataset(new Parser({ format: 'N-Triples' }).parse(ntriples)));
  return { conforms: report.conforms, paths: report.results.map((r) => r.path?.value ?? r.message.map((m) => m.value).join(' ')) };
}

describe('generated SHACL', () => {
  it('of an imported package (whose shipped SHACL is an error stub) accepts its own instance', async () => {
    const xsd = readFileSync(STATE_POPULATION_XSD, 'utf8');
    const imported = parsePackageXsd(xsd);
    const model = packageModel(imported.dm.ctId, imported.dm.title, imported.root);
    const xml = readFileSync(STATE_POPULATION_XSD.replace(/\.xsd$/, '.xml'), 'utf8');
    const shacl = generateModelFiles(model).find((f) => f.name.endsWith('_shacl.ttl'))!.content as string;
    const rdf = (text: string) => extractInstanceRdf({ document: parseXmlDom(text), instanceId: 'i-1', dmCtId: model.ctId, modelXsd: xsd }).ntriples;
    const run = async (text: string) => {
      const engine = await validator(shacl);
      return (await engine.validate(engine.factory.dataset(new Parser({ format: 'N-Triples' }).parse(rdf(text))))).conforms;
    };
    expect(isEmptyShacl(`dm-${model.ctId}_shacl.ttl`, readFileSync(STATE_POPULATION_XSD.replace(/\.xsd$/, '_shacl.ttl')))).toBe(true);
    expect(isEmptyShacl(`dm-${model.ctId}_shacl.ttl`, shacl)).toBe(false);
    expect(await run(xml)).toBe(true);
    expect(await run(xml.replace('<xdcount-value>23</xdcount-value>', '<xdcount-value>twenty</xdcount-value>'))).toBe(false);
  });

  it.each([
    ['every data type', allTypesModel()],
    ['nested clusters', { ...nestedModel(), root: { ...nestedModel().root, children: [...nestedModel().root.children] } }],
  ])('the example instance of %s conforms', async (_name, model) => {
    const { xml } = files(model);
    expect(await check(model, xml)).toEqual({ conforms: true, paths: [] });
  });

  it('a value of the wrong datatype, a missing value and a wrong fixed units value fail, each on its path', async () => {
    const model = nestedModel();
    const { xml } = files(model);
    expect(xml).toContain('<xdcount-value>42</xdcount-value>');
    expect((await check(model, xml.replace('<xdcount-value>42</xdcount-value>', '<xdcount-value>forty-two</xdcount-value>'))).conforms).toBe(false);
    const missing = await check(model, xml.replace(/<xdquantity-value>[^<]*<\/xdquantity-value>/, ''));
    expect(missing.conforms).toBe(false);
    const units = await check(model, xml.replace('<xdstring-value>people</xdstring-value>', '<xdstring-value>persons</xdstring-value>'));
    expect(units.conforms).toBe(false);
  });

  it('a value outside the enumeration and an item the cluster does not hold fail', async () => {
    const base = nestedModel();
    const site = base.root.children[0];
    const model: DataModelDocument = {
      ...base,
      root: {
        ...base.root,
        children: [{ ...site, kind: 'component', dataType: 'XdToken', enums: ['NORTH', 'SOUTH'] } as typeof site, ...base.root.children.slice(1)],
      },
    };
    const { xml } = files(model);
    expect(await check(model, xml)).toEqual({ conforms: true, paths: [] });
    const outside = await check(model, xml.replace('<xdtoken-value>NORTH</xdtoken-value>', '<xdtoken-value>EAST</xdtoken-value>'));
    // Reported on the component (its values are one branch of "values, or an exceptional value").
    expect(outside.conforms).toBe(false);
    // Shapes of another model, whose root holds other classes: this instance's items are refused.
    const other = files(allTypesModel());
    const foreign = await check(model, xml, other.shacl.replaceAll('alltypesmodel000000000001', model.ctId));
    expect(foreign.conforms).toBe(false);
  });
});
