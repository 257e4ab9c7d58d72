import { SchemaCache, SchemaCompileError } from '../../../src/xml/schema';
import { ARREST_REPORT_CT_ID, offlineResolver, packageFile, statePopulationXml, statePopulationXsd } from './fixtures';

describe('SchemaCache', () => {
  it('returns the same compiled schema for the same content and a new one when the content changes', async () => {
    const cache = new SchemaCache();
    const resolve = offlineResolver();
    const main = statePopulationXsd();

    const first = await cache.get(main, resolve);
    const again = await cache.get({ ...main }, resolve);
    const changed = await cache.get({ ...main, content: main.content.replace('fixed="StatePopulation"', 'fixed="Renamed"') }, resolve);

    expect(again).toBe(first);
    expect(changed).not.toBe(first);
    expect(changed.key).not.toBe(first.key);
    expect(cache.size).toBe(2);
    expect(first.validate(statePopulationXml())).toEqual([]);
    expect(changed.validate(statePopulationXml())[0].message).toContain("Element 'dm-label'");
  });

  it('keys on the included documents too', async () => {
    const cache = new SchemaCache();
    const main = statePopulationXsd();
    const resolve = offlineResolver();
    const first = await cache.get(main, resolve);
    const withEditedSdc4 = await cache.get(main, async (location) => `${await resolve(location)}<!-- edited -->`);

    expect(withEditedSdc4).not.toBe(first);
  });

  it('invalidates every entry built from a document of that name', async () => {
    const cache = new SchemaCache();
    const resolve = offlineResolver();
    const main = statePopulationXsd();
    const first = await cache.get(main, resolve);

    expect(cache.invalidate('sdc4.xsd')).toBe(1);
    expect(cache.size).toBe(0);
    expect(await cache.get(main, resolve)).not.toBe(first);
  });

  it('evicts the least recently used entry beyond its capacity', async () => {
    const cache = new SchemaCache(1);
    const resolve = offlineResolver();
    const main = statePopulationXsd();
    const first = await cache.get(main, resolve);
    await cache.get({ ...main, content: main.content.replace('fixed="StatePopulation"', 'fixed="Other"') }, resolve);

    expect(cache.size).toBe(1);
    expect(await cache.get(main, resolve)).not.toBe(first);
  });

  it('caches a compile failure for the same content', async () => {
    const cache = new SchemaCache();
    const arrest = packageFile('Arrest-Report', ARREST_REPORT_CT_ID, 'xsd');

    await expect(cache.get(arrest, offlineResolver())).rejects.toBeInstanceOf(SchemaCompileError);
    await expect(cache.get(arrest, offlineResolver())).rejects.toBeInstanceOf(SchemaCompileError);
    expect(cache.size).toBe(1);
  });
});
