import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { catalogResolver, compileSchema, SchemaCompileError } from '../../../src/xml/schema';
import { ARREST_REPORT_CT_ID, packageFile, offlineResolver, statePopulationXml, statePopulationXsd } from './fixtures';

describe('compileSchema with the real SDC4 packages', () => {
  it('validates the StatePopulation example against its XSD and the real sdc4.xsd resolved from the catalog', async () => {
    const asked: string[] = [];
    const resolver = offlineResolver();
    const schema = await compileSchema(statePopulationXsd(), (location) => {
      asked.push(location);
      return resolver(location);
    });

    expect(asked).toEqual(['https://semanticdatacharter.com/ns/sdc4/sdc4.xsd']);
    expect(schema.names).toEqual(['dm-its7j6bvrb9n2fxdcxmoemod.xsd', 'sdc4.xsd']);
    expect(schema.validate(statePopulationXml())).toEqual([]);
  });

  it('reports a non-placeholder invalid value with its line and the validator message', async () => {
    const schema = await compileSchema(statePopulationXsd(), offlineResolver());
    const xml = statePopulationXml().replace('<xdquantity-value>0.0</xdquantity-value>', '<xdquantity-value>lots</xdquantity-value>');

    expect(schema.validate(xml)).toEqual([
      { line: 45, message: "Element 'xdquantity-value': 'lots' is not a valid value of the local atomic type." },
    ]);
  });

  it('refuses Arrest-Report with the compiler messages naming the undeclared components', async () => {
    const error = await compileSchema(packageFile('Arrest-Report', ARREST_REPORT_CT_ID, 'xsd'), offlineResolver()).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SchemaCompileError);
    const messages = (error as SchemaCompileError).messages;
    expect(
      messages.some((m) =>
        m.includes("'{https://semanticdatacharter.com/ns/sdc4/}ms-z20mkgtan3ssfkr039znza8o' does not resolve to a(n) element declaration"),
      ),
    ).toBe(true);
    expect(messages.some((m) => m.includes('ms-zzv4926e94jue681tt75gxz0'))).toBe(true);
    expect(messages[0]).toMatch(/^dm-o4elmdzifsi9e0nakyfdm8l1\.xsd:1492: /);
  });

  it('fails with a clear message when an include cannot be resolved', async () => {
    const main = {
      name: 'dm-x.xsd',
      content:
        '<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema"><xsd:include schemaLocation="https://example.org/missing.xsd"/></xsd:schema>',
    };
    const error = await compileSchema(main, offlineResolver()).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SchemaCompileError);
    expect((error as SchemaCompileError).messages).toEqual([
      "dm-x.xsd:1: Cannot resolve schema location 'https://example.org/missing.xsd' (include): not in dmlib nor in the schema catalog",
    ]);
  });

  it('refuses a schema document that carries a DTD', async () => {
    const main = {
      name: 'dm-x.xsd',
      content: '<!DOCTYPE xsd:schema [<!ENTITY e SYSTEM "file:///etc/passwd">]><xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema"/>',
    };

    await expect(compileSchema(main, offlineResolver())).rejects.toThrow(/DOCTYPE declarations are not allowed/);
  });
});

describe('catalogResolver', () => {
  const realFetch = globalThis.fetch;
  let fetched: string[];

  beforeEach(() => {
    fetched = [];
    globalThis.fetch = async (url: string | URL | Request) => {
      fetched.push(url instanceof Request ? url.url : url.toString());
      return new Response('<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema"/>', { status: 200 });
    };
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('prefers dmlib, then the catalog file named by the URL last segment, and never fetches unless allowed', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'catalog-'));
    await writeFile(path.join(dir, 'sdc4.xsd'), 'from catalog');
    const resolve = catalogResolver({ dmlib: async (name) => (name === 'dm-a.xsd' ? 'from dmlib' : null), catalogDir: dir, fetchAllowed: false });

    expect(await resolve('https://semanticdatacharter.com/dmlib/dm-a.xsd')).toBe('from dmlib');
    expect(await resolve('https://semanticdatacharter.com/ns/sdc4/sdc4.xsd')).toBe('from catalog');
    expect(await resolve('https://example.org/other.xsd')).toBeNull();
    expect(await resolve('../../etc/passwd')).toBeNull();
    expect(fetched).toEqual([]);
  });

  it('fetches an unknown absolute URL once when SCHEMA_FETCH=allow', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'catalog-'));
    const resolve = catalogResolver({ dmlib: async () => null, catalogDir: dir, fetchAllowed: true });

    const first = await resolve('https://example.org/remote.xsd');
    const second = await resolve('https://example.org/remote.xsd');

    expect(first).toContain('xsd:schema');
    expect(second).toBe(first);
    expect(fetched).toEqual(['https://example.org/remote.xsd']);
  });
});
