import { compileSchema, SchemaCompileError } from '../../../src/xml/schema';
import { intervalModel, offlineResolver } from './fixtures';

const SDC4 = 'https://semanticdatacharter.com/ns/sdc4/';

const interval = (upperBoundary: string) => `<?xml version="1.0"?>
<sdc4:ms-interval xmlns:sdc4="${SDC4}">
  <label>Age range</label>
  <lower><invl-int>18</invl-int></lower>
  <upper>${upperBoundary}</upper>
  <lower_included>true</lower_included>
  <upper_included>true</upper_included>
  <lower_bounded>true</lower_bounded>
  <upper_bounded>true</upper_bounded>
</sdc4:ms-interval>`;

describe('XSD 1.1 assertions', () => {
  it('evaluates sdc4.xsd XdIntervalType assert on an element of a type restricting it', async () => {
    const schema = await compileSchema(intervalModel, offlineResolver());

    expect(schema.validate(interval('<invl-int>65</invl-int>'))).toEqual([]);
    expect(schema.validate(interval('<invl-date>2020-01-01</invl-date>'))).toEqual([
      {
        line: 2,
        message:
          "Element 'sdc4:ms-interval': The assertion 'not(exists(lower) and exists(upper)) or (name(lower/*) eq name(upper/*))' of type 'XdIntervalType' is not satisfied.",
      },
    ]);
  });

  const ranged = (extraAssert = '') => ({
    name: 'ranged.xsd',
    content: `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:t" targetNamespace="urn:t" elementFormDefault="qualified">
  <xs:complexType name="Range">
    <xs:sequence><xs:element name="min" type="xs:integer"/><xs:element name="max" type="xs:integer"/></xs:sequence>
    <xs:assert test="xs:integer(t:min) le xs:integer(t:max)"/>${extraAssert}
  </xs:complexType>
  <xs:complexType name="NamedRange">
    <xs:complexContent><xs:extension base="t:Range"><xs:sequence><xs:element name="name" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent>
  </xs:complexType>
  <xs:element name="ranges">
    <xs:complexType><xs:sequence><xs:element name="range" type="t:NamedRange" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
  </xs:element>
</xs:schema>`,
  });

  it('applies an assertion to every element of a derived type and reports each failing one at its line', async () => {
    const schema = await compileSchema(ranged(), async () => null);
    const xml = `<ranges xmlns="urn:t">
  <range><min>1</min><max>9</max><name>ok</name></range>
  <range><min>10</min><max>2</max><name>bad</name></range>
</ranges>`;

    const errors = schema.validate(xml);
    expect(errors).toHaveLength(1);
    expect(errors[0].line).toBe(3);
    expect(errors[0].message).toContain("of type 'Range' is not satisfied");
  });

  it('evaluates the assertion of a type an xsi:type switches in, on an element no asserting type declares', async () => {
    const schema = await compileSchema(
      {
        name: 'switched.xsd',
        content: `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:t" targetNamespace="urn:t" elementFormDefault="qualified">
  <xs:complexType name="Pair">
    <xs:sequence><xs:element name="min" type="xs:integer"/><xs:element name="max" type="xs:integer"/></xs:sequence>
  </xs:complexType>
  <xs:complexType name="Ordered">
    <xs:complexContent><xs:extension base="t:Pair"><xs:sequence/><xs:assert test="xs:integer(t:min) le xs:integer(t:max)"/></xs:extension></xs:complexContent>
  </xs:complexType>
  <xs:element name="pairs">
    <xs:complexType><xs:sequence><xs:element name="pair" type="t:Pair" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
  </xs:element>
</xs:schema>`,
      },
      async () => null,
    );
    const pairs = (max: string) => `<pairs xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <pair><min>10</min><max>2</max></pair>
  <pair xsi:type="Ordered"><min>10</min><max>${max}</max></pair>
</pairs>`;

    expect(schema.validate(pairs('20'))).toEqual([]);
    const errors = schema.validate(pairs('2'));
    expect(errors).toHaveLength(1);
    expect(errors[0].line).toBe(3);
    expect(errors[0].message).toContain("of type 'Ordered' is not satisfied");
  });

  it('refuses a schema whose assertion is not valid XPath', async () => {
    const error = await compileSchema(ranged('<xs:assert test="min le ("/>'), async () => null).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SchemaCompileError);
    expect((error as SchemaCompileError).messages[0]).toBe(
      "ranged.xsd:4: xsd:assert 'min le (' is not valid XPath: XPST0003: Failed to parse script",
    );
  });
});
