import { DataFactory, Parser, Store, type Quad } from 'n3';
import { parseRdfXml } from '../../support/rdf-xml';
import type { ClusterNode, ComponentNode, DataModelDocument, TreeNode } from '../../../src/domain/model-tree';
import { generateModelFiles } from '../../../src/packages/model-package';
import { allTypesModel, fileNamed, nestedModel, statePopulationReuseModel } from './package-support';

const SDC4 = 'https://semanticdatacharter.com/ns/sdc4/';
const META = 'https://semanticdatacharter.com/ontology/sdc4-meta/';
const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const SH = 'http://www.w3.org/ns/shacl#';
const namedNode = (iri: string) => DataFactory.namedNode(iri);

function components(node: TreeNode): ComponentNode[] {
  return node.kind === 'component' ? [node] : node.children.flatMap(components);
}

function clusters(node: ClusterNode): ClusterNode[] {
  return [node, ...node.children.flatMap((child) => (child.kind === 'cluster' ? clusters(child) : []))];
}

function canonical(quads: Quad[]): string[] {
  return quads.map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.termType}:${q.object.value}`).sort();
}

describe.each<[string, () => DataModelDocument]>([
  ['every data type with hostile labels', allTypesModel],
  ['nested three deep', nestedModel],
  ['reusing StatePopulation components', statePopulationReuseModel],
])('model RDF of a model %s', (_name, build) => {
  const m = build();
  const files = generateModelFiles(m);
  const store = new Store(new Parser().parse(fileNamed(files, `dm-${m.ctId}.ttl`)));

  it('parses as Turtle and names every component with its label and reference-model type', () => {
    for (const c of components(m.root)) {
      const subject = namedNode(`${SDC4}mc-${c.ctId}`);
      expect(store.getObjects(subject, namedNode(RDFS_LABEL), null).map((o) => o.value)).toEqual([c.label]);
      expect(store.getObjects(subject, namedNode(`${META}isConstrainedByRmComponent`), null).map((o) => o.value)).toEqual([
        `${SDC4}${c.dataType}Type`,
      ]);
      expect(store.has(DataFactory.quad(subject, namedNode(RDF_TYPE), namedNode(`${META}ModelComponent`)))).toBe(true);
    }
  });

  it('states the hierarchy: the model has its root cluster, each cluster its items', () => {
    const dm = namedNode(`${SDC4}dm-${m.ctId}`);
    expect(store.getObjects(dm, namedNode(`${SDC4}hasDataItem`), null).map((o) => o.value)).toEqual([`${SDC4}mc-${m.root.ctId}`]);
    expect(store.getObjects(dm, namedNode('http://purl.org/dc/elements/1.1/title'), null).map((o) => o.value)).toEqual([m.title]);
    for (const cl of clusters(m.root)) {
      const items = store.getObjects(namedNode(`${SDC4}mc-${cl.ctId}`), namedNode(`${SDC4}hasItems`), null).map((o) => o.value);
      expect(items.sort()).toEqual(cl.children.map((child) => `${SDC4}mc-${child.ctId}`).sort());
    }
  });

  it('says the same in RDF/XML as in Turtle', async () => {
    const rdfXml = await parseRdfXml(fileNamed(files, `dm-${m.ctId}.rdf`));
    expect(canonical(rdfXml)).toEqual(canonical(store.getQuads(null, null, null, null)));
  });

  it('has SHACL shapes that parse, one per cluster and component, fixing each label', () => {
    const shapes = new Store(new Parser().parse(fileNamed(files, '_shacl.ttl')));
    for (const node of [...clusters(m.root), ...components(m.root)]) {
      const [shape] = shapes.getSubjects(namedNode(`${SH}targetClass`), namedNode(`${SDC4}mc-${node.ctId}`), null);
      expect(shape).toBeDefined();
      const properties = shapes.getObjects(shape, namedNode(`${SH}property`), null);
      const labelValues = properties.flatMap((p) => shapes.getObjects(p, namedNode(`${SH}hasValue`), null)).map((o) => o.value);
      expect(labelValues).toContain(node.label);
    }
  });

  it('has JSON-LD and a JSON instance that are valid JSON naming every component', () => {
    const jsonld = JSON.parse(fileNamed(files, '.jsonld'));
    const instance = JSON.parse(fileNamed(files, '-instance.json'));
    expect(jsonld['@id']).toBe(`sdc4:dm-${m.ctId}`);
    expect(instance.dm_type).toBe(`dm-${m.ctId}`);
    const ldText = JSON.stringify(jsonld);
    const instanceText = JSON.stringify(instance);
    for (const c of components(m.root)) {
      expect(ldText).toContain(JSON.stringify(`sdc4:mc-${c.ctId}`));
      expect(instanceText).toContain(JSON.stringify(c.label));
    }
  });
});

describe('JSON instance values', () => {
  it('carries typed example values and units', () => {
    const files = generateModelFiles(allTypesModel());
    const items = JSON.parse(fileNamed(files, '-instance.json')).data.items as Array<Record<string, unknown>>;
    const count = items.find((item) => item.type === 'XdCount');
    expect(count).toMatchObject({ value: 42, units: { 'xdstring-value': 'people' } });
    expect(items.find((item) => item.type === 'XdBoolean')?.value).toBe('true');
  });
});
