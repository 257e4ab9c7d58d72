import { readFileSync } from 'node:fs';
import path from 'node:path';
import { catalogResolver } from '../../../src/xml/schema';

export const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures');
export const SDC4_REFERENCE_DIR = path.join(FIXTURES, 'sdc4/reference');
export const STATE_POPULATION_CT_ID = 'its7j6bvrb9n2fxdcxmoemod';
export const ARREST_REPORT_CT_ID = 'o4elmdzifsi9e0nakyfdm8l1';

export function packageFile(pkg: 'StatePopulation' | 'Arrest-Report', ctId: string, ext: string): { name: string; content: string } {
  const name = `dm-${ctId}.${ext}`;
  return { name, content: readFileSync(path.join(FIXTURES, 'sdc4/packages', pkg, name), 'utf8') };
}

export const statePopulationXsd = () => packageFile('StatePopulation', STATE_POPULATION_CT_ID, 'xsd');
export const statePopulationXml = () => packageFile('StatePopulation', STATE_POPULATION_CT_ID, 'xml').content;

/** The example with the measured fixture change: line 25's count becomes N/A. */
export const statePopulationNaXml = () => statePopulationXml().replace('<xdcount-value>23</xdcount-value>', '<xdcount-value>N/A</xdcount-value>');

/** Resolves sdc4.xsd from the fixture copy; nothing from dmlib; never the network. */
export const offlineResolver = () => catalogResolver({ dmlib: async () => null, catalogDir: SDC4_REFERENCE_DIR, fetchAllowed: false });

const SDC4_NS = 'https://semanticdatacharter.com/ns/sdc4/';

/** A data model whose root `dm-interval` holds one `ms-interval` of a type restricting sdc4:XdIntervalType, the
 * type carrying sdc4.xsd's one xsd:assert (evaluated beside libxml2's XSD 1.0 validation). */
export const intervalModel = {
  name: 'dm-interval.xsd',
  content: `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:sdc4="${SDC4_NS}" targetNamespace="${SDC4_NS}">
  <xsd:include schemaLocation="https://semanticdatacharter.com/ns/sdc4/sdc4.xsd"/>
  <xsd:element name="dm-interval">
    <xsd:complexType><xsd:sequence><xsd:element ref="sdc4:ms-interval"/></xsd:sequence></xsd:complexType>
  </xsd:element>
  <xsd:element name="ms-interval" type="sdc4:mc-interval"/>
  <xsd:complexType name="mc-interval">
    <xsd:complexContent>
      <xsd:restriction base="sdc4:XdIntervalType">
        <xsd:sequence>
          <xsd:element name="label" type="xsd:string"/>
          <xsd:element name="lower" type="sdc4:InvlType" minOccurs="0"/>
          <xsd:element name="upper" type="sdc4:InvlType" minOccurs="0"/>
          <xsd:element name="lower_included" type="xsd:boolean"/>
          <xsd:element name="upper_included" type="xsd:boolean"/>
          <xsd:element name="lower_bounded" type="xsd:boolean"/>
          <xsd:element name="upper_bounded" type="xsd:boolean"/>
        </xsd:sequence>
      </xsd:restriction>
    </xsd:complexContent>
  </xsd:complexType>
</xsd:schema>`,
};
