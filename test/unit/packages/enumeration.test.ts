import { generateModelFiles } from '../../../src/packages/model-package';
import { cluster, compileGenerated, fileNamed, model } from './package-support';

/** An enumerated component (an assembly's mint ref with `enumeration`) in every artefact that constrains values. */

const quality = {
  kind: 'component' as const,
  ctId: 'enumquality0000000000001',
  label: 'Quality flag',
  dataType: 'XdString' as const,
  description: null,
  units: null,
  enumeration: [
    { code: '1', label: 'Acceptable' },
    { code: '2', label: 'Questionable <check> & "review"' },
    { code: '9', label: '' },
  ],
};
const site = {
  kind: 'component' as const,
  ctId: 'enumsite000000000000001',
  label: 'Site',
  dataType: 'XdToken' as const,
  description: null,
  units: null,
  enumeration: [{ code: 'NORTH', label: 'North clinic' }],
};
const enumerated = () => model('enummodel0000000000000001', 'Quality survey', cluster('enumroot00000000000000001', 'Answers', [quality, site]));

describe('an enumerated component', () => {
  it('restricts the value to its codes in the XSD, each label the documentation of its code', () => {
    const xsd = fileNamed(generateModelFiles(enumerated()), '.xsd');
    expect(xsd).toContain('<xsd:restriction base="xsd:string">');
    expect(xsd).toContain(
      [
        '<xsd:enumeration value="1">',
        '  <xsd:annotation><xsd:documentation>Acceptable</xsd:documentation></xsd:annotation>',
        '</xsd:enumeration>',
      ].join(`\n${' '.repeat(xsd.match(/( *)<xsd:enumeration value="1">/)![1].length)}`),
    );
    expect(xsd).toContain('<xsd:documentation>Questionable &lt;check&gt; &amp; "review"</xsd:documentation>');
    expect(xsd).toMatch(/<xsd:enumeration value="9"\/>/);
    expect(xsd).toMatch(/<xsd:restriction base="xsd:token">\s*<xsd:enumeration value="NORTH">/);
  });

  it('gives an example instance valid against its XSD and the real sdc4.xsd, and refuses a value outside the codes', async () => {
    const files = generateModelFiles(enumerated());
    const schema = await compileGenerated(files);
    const xml = fileNamed(files, '.xml');
    expect(xml).toContain('<xdstring-value>1</xdstring-value>');
    expect(schema.validate(xml)).toEqual([]);
    expect(schema.validate(xml.replace('<xdstring-value>1</xdstring-value>', '<xdstring-value>9</xdstring-value>'))).toEqual([]);
    expect(schema.validate(xml.replace('<xdstring-value>1</xdstring-value>', '<xdstring-value>3</xdstring-value>')).length).toBeGreaterThan(0);
    expect(schema.validate(xml.replace('<xdtoken-value>NORTH</xdtoken-value>', '<xdtoken-value>SOUTH</xdtoken-value>')).length).toBeGreaterThan(0);
  });

  it('lists the codes as the SHACL shape’s allowed values', () => {
    expect(fileNamed(generateModelFiles(enumerated()), 'shacl.ttl')).toContain('sh:in ( "1" "2" "9" )');
  });
});
