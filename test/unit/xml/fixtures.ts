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
