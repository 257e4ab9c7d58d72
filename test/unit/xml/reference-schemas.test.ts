import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadSettings } from '../../../src/config';
import { referenceSource } from '../../../src/xml/reference-schemas';
import { catalogResolver } from '../../../src/xml/schema';

const SDC4_XSD = 'https://semanticdatacharter.com/ns/sdc4/sdc4.xsd';

describe('referenceSource', () => {
  it('fetches an allow-listed URL itself by default', () => {
    expect(referenceSource(SDC4_XSD, loadSettings({}).referenceSchemas)).toBe(SDC4_XSD);
  });

  it('maps the allowed namespace onto SDC4_SCHEMA_MIRROR', () => {
    const options = loadSettings({ SDC4_SCHEMA_MIRROR: 'http://mirror.internal/sdc4/' }).referenceSchemas;
    expect(referenceSource(SDC4_XSD, options)).toBe('http://mirror.internal/sdc4/sdc4.xsd');
  });

  it('fetches nothing outside the allow-list, and nothing at all with SDC4_SCHEMA_ALLOW=none', () => {
    expect(referenceSource('https://example.org/ns/sdc4/sdc4.xsd', loadSettings({}).referenceSchemas)).toBeNull();
    expect(referenceSource('https://semanticdatacharter.com/other.xsd', loadSettings({}).referenceSchemas)).toBeNull();
    expect(referenceSource(SDC4_XSD, loadSettings({ SDC4_SCHEMA_ALLOW: 'none' }).referenceSchemas)).toBeNull();
  });

  it('takes a comma-separated allow-list', () => {
    const options = loadSettings({ SDC4_SCHEMA_ALLOW: 'https://a.example/ns/, https://b.example/ns/' }).referenceSchemas;
    expect(referenceSource('https://b.example/ns/x.xsd', options)).toBe('https://b.example/ns/x.xsd');
    expect(referenceSource(SDC4_XSD, options)).toBeNull();
  });
});

describe('catalogResolver with stored reference schemas', () => {
  it('asks the reference store after dmlib and the catalog directory, and only for what they lack', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'catalog-'));
    const asked: string[] = [];
    const reference = async (url: string) => {
      asked.push(url);
      return url === SDC4_XSD ? 'from the store' : null;
    };
    const empty = catalogResolver({ dmlib: async () => null, catalogDir: dir, fetchAllowed: false, reference });
    expect(await empty(SDC4_XSD)).toBe('from the store');
    expect(await empty('https://example.org/other.xsd')).toBeNull();
    expect(asked).toEqual([SDC4_XSD, 'https://example.org/other.xsd']);

    await writeFile(path.join(dir, 'sdc4.xsd'), 'from catalog');
    asked.length = 0;
    const pinned = catalogResolver({ dmlib: async () => null, catalogDir: dir, fetchAllowed: false, reference });
    expect(await pinned(SDC4_XSD)).toBe('from catalog');
    expect(asked).toEqual([]);
  });
});
