import { Parser, Writer, type Quad } from 'n3';
import { validateWithCorrection } from '../../../src/xml/ev';
import { instanceToJson } from '../../../src/xml/instance-json';
import { extractInstanceRdf, extractInstanceTurtle } from '../../../src/xml/instance-rdf';
import { parseXmlDom } from '../../../src/xml/safe-parse';
import { compileSchema } from '../../../src/xml/schema';
import { offlineResolver, STATE_POPULATION_CT_ID, statePopulationNaXml, statePopulationXml, statePopulationXsd } from './fixtures';

const SDC4 = 'https://semanticdatacharter.com/ns/sdc4/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const DC_IDENTIFIER = 'http://purl.org/dc/elements/1.1/identifier';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

/** Each StatePopulation component as its package declares it, with the example's value. */
const COMPONENTS = [
  { ctId: 'poq4ywx89zvijxwoqz8djrxj', label: 'State', property: 'xdstring-value', value: 'DefaultString', datatype: `${XSD}string` },
  { ctId: 'ac79bjkqi8906qzjujpwtlsy', label: 'Adult Population', property: 'xdcount-value', value: '23', datatype: `${XSD}integer` },
  { ctId: 'w30d6kzcdcfnjxvk94w58nfw', label: 'Total Population', property: 'xdcount-value', value: '86', datatype: `${XSD}integer` },
  { ctId: 'hzsoktbrtlhowsl71kywg81w', label: 'Adult Population Percentage', property: 'xdquantity-value', value: '0.0', datatype: `${XSD}decimal` },
];

function extract(xml: string): { graphUri: string; quads: Quad[]; ntriples: string; tripleCount: number } {
  const { graphUri, ntriples, tripleCount } = extractInstanceRdf({
    document: parseXmlDom(xml),
    instanceId: 'i-test1',
    dmCtId: STATE_POPULATION_CT_ID,
    modelXsd: statePopulationXsd().content,
  });
  return { graphUri, quads: new Parser({ format: 'N-Triples' }).parse(ntriples), ntriples, tripleCount };
}

/** The triples as n3's canonical N-Triples writer writes them. */
const n3NTriples = (quads: Quad[]) => new Writer({ format: 'N-Triples' }).quadsToString(quads);

const objectsOf = (quads: Quad[], subject: string, predicate: string) =>
  quads.filter((q) => q.subject.value === subject && q.predicate.value === predicate).map((q) => q.object);

describe('extractInstanceRdf', () => {
  it('puts the StatePopulation instance, typed as its data model, in its own named graph', () => {
    const { graphUri, quads, ntriples, tripleCount } = extract(statePopulationXml());

    expect(graphUri).toBe('urn:sdc4:instance:i-test1');
    expect(tripleCount).toBe(quads.length);
    expect(ntriples).toBe(n3NTriples(quads));
    expect(objectsOf(quads, graphUri, RDF_TYPE).map((o) => o.value)).toContain(`${SDC4}mc-${STATE_POPULATION_CT_ID}`);
  });

  it('writes the canonical N-Triples escapes of n3 for texts that need them', () => {
    const label = 'Quote " backslash \\ tab \t newline \n delete \u007f non-BMP \u{1F600} end';
    const { quads, ntriples } = extract(statePopulationXml().replace('<label>State</label>', `<label>${label.replace(/&/g, '&amp;')}</label>`));

    expect(objectsOf(quads, `urn:sdc4:instance:i-test1/ms-poq4ywx89zvijxwoqz8djrxj`, `${SDC4}label`).map((o) => o.value)).toEqual([label]);
    expect(ntriples).toBe(n3NTriples(quads));
    expect(ntriples).toContain('\\u007F');
  });

  it.each(COMPONENTS)(
    'carries $label with its ct_id, label and typed value, as a member of the cluster',
    ({ ctId, label, property, value, datatype }) => {
      const { graphUri, quads } = extract(statePopulationXml());
      const node = quads.find((q) => q.predicate.value === DC_IDENTIFIER && q.object.value === ctId)?.subject.value as string;

      expect(node).toBeDefined();
      expect(objectsOf(quads, node, `${SDC4}label`).map((o) => o.value)).toEqual([label]);
      expect(objectsOf(quads, node, RDF_TYPE).map((o) => o.value)).toContain(`${SDC4}mc-${ctId}`);
      const [literal] = objectsOf(quads, node, `${SDC4}${property}`);
      expect(literal.value).toBe(value);
      expect(literal.termType === 'Literal' && literal.datatype.value).toBe(datatype);
      const cluster = objectsOf(quads, graphUri, `${SDC4}hasDataItem`)[0].value;
      expect(objectsOf(quads, cluster, `${SDC4}hasItems`).map((o) => o.value)).toContain(node);
    },
  );

  it('links a count to its units', () => {
    const { quads } = extract(statePopulationXml());
    const node = quads.find((q) => q.object.value === 'ac79bjkqi8906qzjujpwtlsy')?.subject.value as string;
    const [units] = objectsOf(quads, node, `${SDC4}hasXdCountUnits`);

    expect(objectsOf(quads, units.value, `${SDC4}xdstring-value`).map((o) => o.value)).toEqual(['people']);
  });

  it('records the EV of a corrected value and keeps the placeholder as a plain string', async () => {
    const schema = await compileSchema(statePopulationXsd(), offlineResolver());
    const { correctedXml } = validateWithCorrection(statePopulationNaXml(), schema);
    const { quads } = extract(correctedXml);
    const node = quads.find((q) => q.object.value === 'ac79bjkqi8906qzjujpwtlsy')?.subject.value as string;
    const [ev] = objectsOf(quads, node, `${SDC4}hasExceptionalValue`);

    expect(objectsOf(quads, ev.value, RDF_TYPE).map((o) => o.value)).toEqual([`${SDC4}NIType`]);
    expect(objectsOf(quads, ev.value, `${SDC4}ev-name`).map((o) => o.value)).toEqual(['No Information']);
    const [value] = objectsOf(quads, node, `${SDC4}xdcount-value`);
    expect(value.termType === 'Literal' && [value.value, value.datatype.value]).toEqual(['N/A', `${XSD}string`]);
  });
});

describe('extractInstanceTurtle', () => {
  const args = (xml: string) => ({
    document: parseXmlDom(xml),
    instanceId: 'i-test1',
    dmCtId: STATE_POPULATION_CT_ID,
    modelXsd: statePopulationXsd().content,
  });
  /** A graph's triples, one canonical N-Triples line each, sorted: equal sets of triples give equal lists. */
  const canonical = (quads: Quad[]) => n3NTriples(quads).split('\n').filter(Boolean).sort();

  const corpus: Array<[string, () => Promise<string> | string]> = [
    ['the StatePopulation example', () => statePopulationXml()],
    [
      'a label that needs escapes (the N-Triples line is kept as is)',
      () => statePopulationXml().replace('<label>State</label>', '<label>Quote " backslash \\ newline \n end</label>'),
    ],
    [
      'a corrected instance with an EV',
      async () => validateWithCorrection(statePopulationNaXml(), await compileSchema(statePopulationXsd(), offlineResolver())).correctedXml,
    ],
  ];

  it.each(corpus)('holds the same triples as the N-Triples, in fewer bytes: %s', async (_name, xml) => {
    const text = await xml();
    const { ntriples, tripleCount, graphUri } = extractInstanceRdf(args(text));
    const turtle = extractInstanceTurtle(args(text));

    expect(turtle.graphUri).toBe(graphUri);
    expect(turtle.tripleCount).toBe(tripleCount);
    expect(canonical(new Parser({ format: 'Turtle' }).parse(turtle.turtle))).toEqual(canonical(new Parser({ format: 'N-Triples' }).parse(ntriples)));
    expect(turtle.turtle.length).toBeLessThan(ntriples.length * 0.6);
  });

  it('writes prefixed names, `a` and one statement per run of a subject', () => {
    const { turtle } = extractInstanceTurtle(args(statePopulationXml()));

    expect(turtle).toMatch(/^@prefix sdc4: <https:\/\/semanticdatacharter\.com\/ns\/sdc4\/> \.\n/);
    expect(turtle).toContain('<urn:sdc4:instance:i-test1> a sdc4:mc-');
    expect(turtle).toContain(' ;\n  a sdc4:DMType ;\n  dct:conformsTo sdc4:dm-');
    expect(turtle).toContain('"23"^^xsd:integer');
  });
});

describe('instanceToJson', () => {
  it('renders the StatePopulation example as metadata and its cluster of typed components', () => {
    const json = instanceToJson(parseXmlDom(statePopulationXml())) as {
      dm_id: string;
      metadata: Record<string, string>;
      data: { type: string; items: unknown[] };
    };

    expect(json.dm_id).toBe(STATE_POPULATION_CT_ID);
    expect(json.metadata.dm_label).toBe('StatePopulation');
    expect(json.data.type).toBe('Cluster');
    expect(json.data.items).toEqual([
      { component_id: 'poq4ywx89zvijxwoqz8djrxj', label: 'State', type: 'XdString', value: 'DefaultString' },
      {
        component_id: 'ac79bjkqi8906qzjujpwtlsy',
        label: 'Adult Population',
        type: 'XdCount',
        value: 23,
        units: { label: 'Adult Population_units', value: 'people' },
      },
      {
        component_id: 'w30d6kzcdcfnjxvk94w58nfw',
        label: 'Total Population',
        type: 'XdCount',
        value: 86,
        units: { label: 'Total Population_units', value: 'people' },
      },
      {
        component_id: 'hzsoktbrtlhowsl71kywg81w',
        label: 'Adult Population Percentage',
        type: 'XdQuantity',
        value: 0,
        units: { label: 'Adult Population Percentage_units', value: '%' },
      },
    ]);
  });

  it('shows the exceptional value of a corrected component', async () => {
    const schema = await compileSchema(statePopulationXsd(), offlineResolver());
    const { correctedXml } = validateWithCorrection(statePopulationNaXml(), schema);
    const json = instanceToJson(parseXmlDom(correctedXml)) as { data: { items: Array<Record<string, unknown>> } };

    expect(json.data.items[1]).toMatchObject({ value: 'N/A', exceptional_value: { code: 'NI', name: 'No Information' } });
  });
});
