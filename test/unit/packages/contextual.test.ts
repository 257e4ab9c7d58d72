import { buildSchema } from 'graphql';
import type { ContextualComponent } from '../../../src/packages/contextual-slots';
import { CONTEXTUAL_LIBRARY, SLOT_COMPONENT_TYPE } from '../../../src/packages/contextual-library';
import { contextualAndSchemas } from '../../../src/db/migrations/0011-contextual-and-schemas';
import { generateModelFiles, generateSkeleton } from '../../../src/packages/model-package';
import type { Skeleton } from '../../../src/packages/skeleton';
import { allTypesModel, compileGenerated, fileNamed, flatModel } from './package-support';

const LIBRARY: ContextualComponent[] = CONTEXTUAL_LIBRARY.map((e) => ({ ...e, componentType: SLOT_COMPONENT_TYPE[e.slot] }));

/** A value of each datatype a field mapping names, different from the example instance's. */
const FILL: Record<string, string> = {
  'xsd:string': 'filled in',
  'xsd:token': 'FILLED',
  'xsd:integer': '7',
  'xsd:decimal': '3.25',
  'xsd:float': '0.5',
  'xsd:double': '6.5E1',
  'xsd:date': '2024-02-29',
  'xsd:dateTime': '2024-02-29T10:11:12Z',
  'xsd:time': '10:11:12',
  'xsd:duration': 'P2D',
  'xsd:gYear': '2024',
  'xsd:gYearMonth': '2024-02',
  'xsd:gMonth': '--02',
  'xsd:gMonthDay': '--02-29',
  'xsd:gDay': '---29',
  'xsd:anyURI': 'https://example.org/filled',
  'xsd:boolean': 'true',
  'xsd:base64Binary': 'ZmlsbGVk',
  'sdc4:BooleanListSimpleType': 'false true',
  'sdc4:StringListSimpleType': 'one two',
  'sdc4:TokenListSimpleType': 'X Y',
  'sdc4:DecimalListSimpleType': '0.5 1',
  'sdc4:DoubleListSimpleType': '1.5E0',
  'sdc4:IntegerListSimpleType': '5 -5',
  'sdc4:NonNegativeIntegerListSimpleType': '0 9',
  'sdc4:PositiveIntegerListSimpleType': '9',
};

function fill(skeleton: Skeleton): string {
  let xml = skeleton.xml;
  for (const field of skeleton.fieldMapping.fields) {
    const value = FILL[field.datatype];
    if (value === undefined) throw new Error(`No fill value for ${field.datatype}`);
    xml = xml.split(field.placeholder).join(value);
  }
  return xml;
}

describe('the contextual library in a model', () => {
  it('matches the rows migration 0011 ships', () => {
    for (const entry of CONTEXTUAL_LIBRARY) {
      expect(contextualAndSchemas.sql).toContain(
        `('${entry.ctId}', '${entry.label}', '${SLOT_COMPONENT_TYPE[entry.slot]}', '${entry.description}', '${entry.slot}')`,
      );
    }
  });

  it('places all nine slots at their DMType positions, and the example instance validates against sdc4.xsd', async () => {
    const files = generateModelFiles(flatModel(), LIBRARY);
    const xsd = fileNamed(files, '.xsd');
    const byCt = Object.fromEntries(LIBRARY.map((c) => [c.slot, c.ctId]));
    const positions = [
      `name="subject" type="sdc4:mc-${byCt.subject}"`,
      `name="provider" type="sdc4:mc-${byCt.provider}"`,
      `ref="sdc4:ms-${byCt.participation}"`,
      `name="protocol" type="sdc4:mc-${byCt.protocol}"`,
      `name="workflow" type="sdc4:mc-${byCt.workflow}"`,
      `name="acs" type="sdc4:mc-${byCt.acs}"`,
      `ref="sdc4:ms-${byCt.audit}"`,
      `name="attestation" type="sdc4:mc-${byCt.attestation}"`,
    ].map((text) => xsd.indexOf(text));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(xsd).toContain(`<xsd:element name="ms-${byCt.party}" substitutionGroup="sdc4:Party" type="sdc4:mc-${byCt.party}"/>`);
    const xml = fileNamed(files, '.xml');
    for (const element of [
      '<subject>',
      '<provider>',
      `<sdc4:ms-${byCt.participation}>`,
      '<protocol>',
      '<workflow>',
      '<acs>',
      `<sdc4:ms-${byCt.audit}>`,
      '<attestation>',
    ]) {
      expect(xml).toContain(element);
    }
    expect((await compileGenerated(files)).validate(xml)).toEqual([]);
  });

  it('refuses a component of the wrong type in a slot', () => {
    const wrong = { ...LIBRARY.find((c) => c.slot === 'audit')!, slot: 'subject' as const };
    expect(() => generateModelFiles(flatModel(), [wrong])).toThrow(/The subject slot takes a Party component/);
  });
});

describe('the skeleton and its field mapping', () => {
  it.each([
    ['a model with every data type', () => generateSkeleton(allTypesModel()), () => generateModelFiles(allTypesModel())],
    ['a model with all nine contextual slots', () => generateSkeleton(flatModel(), LIBRARY), () => generateModelFiles(flatModel(), LIBRARY)],
  ])('%s: every placeholder is listed once, and filled by datatype it validates', async (_name, skeletonOf, filesOf) => {
    const skeleton = skeletonOf();
    const tokens = new Set(skeleton.xml.match(/__PLACEHOLDER_[^_<]+(?:_[^_<]+)*__/g));
    expect(new Set(skeleton.fieldMapping.fields.map((f) => f.placeholder))).toEqual(tokens);
    for (const token of ['__PLACEHOLDER_instance_id__', '__PLACEHOLDER_creation_timestamp__', '__PLACEHOLDER_instance_version__'])
      expect(tokens).toContain(token);
    const filled = fill(skeleton);
    expect(filled).not.toContain('__PLACEHOLDER_');
    expect((await compileGenerated(filesOf())).validate(filled)).toEqual([]);
  });

  it('names each component value with its ct_id, element, type and label', () => {
    const fields = generateSkeleton(flatModel()).fieldMapping.fields;
    expect(fields).toContainEqual({
      placeholder: '__PLACEHOLDER_flatage000000000000000001__',
      ctId: 'flatage000000000000000001',
      elementName: 'xdcount-value',
      type: 'XdCount',
      datatype: 'xsd:integer',
      label: 'Age',
      required: true,
    });
    expect(generateSkeleton(flatModel()).xml).toContain('<xdcount-value>__PLACEHOLDER_flatage000000000000000001__</xdcount-value>');
  });
});

describe('the gql artefact', () => {
  it('is GraphQL SDL that builds, with a type per cluster, component and contextual component', () => {
    const sdl = fileNamed(generateModelFiles(allTypesModel(), LIBRARY), '.graphql');
    const schema = buildSchema(sdl);
    expect(schema.getType('DM_alltypesmodel000000000001')).toBeDefined();
    expect(schema.getType('Cluster_alltypesinner000000000001')).toBeDefined();
    expect(schema.getType(`Component_${LIBRARY[0].ctId}`)).toBeDefined();
    expect(schema.getQueryType()?.getFields().instance).toBeDefined();
  });
});
