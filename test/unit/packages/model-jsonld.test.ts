import { readFileSync } from 'node:fs';
import path from 'node:path';
import { flattenShippedJsonLd } from '../../../src/packages/model-jsonld';
import { generateModelFiles } from '../../../src/packages/model-package';
import { nestedModel, STATE_POPULATION_DIR } from './package-support';

/** The model JSON-LD as readers take it: generated flat; an imported package's nested export flattened from its own
 * content; a flat one left as it is (served byte for byte). */

const SP_JSONLD = readFileSync(path.join(STATE_POPULATION_DIR, 'dm-its7j6bvrb9n2fxdcxmoemod.jsonld'), 'utf8');
const isReference = (item: Record<string, unknown>) => Object.keys(item).length === 1 && typeof item['@id'] === 'string';

describe('flattenShippedJsonLd', () => {
  it('moves each nested entry into components[] once, leaving a reference, and keeps every other key as shipped', () => {
    const shipped = JSON.parse(SP_JSONLD);
    const flat = JSON.parse(flattenShippedJsonLd(SP_JSONLD)!);
    expect(Object.keys(flat)).toEqual(Object.keys(shipped));
    expect(flat.metadata).toEqual(shipped.metadata);
    expect(flat.identifier).toBe('its7j6bvrb9n2fxdcxmoemod');
    expect(flat.components).toHaveLength(1 + shipped.components[0].contains.length);
    for (const entry of flat.components) for (const item of entry.contains ?? []) expect(isReference(item)).toBe(true);
    const [root, ...leaves] = flat.components;
    expect(root.contains).toEqual(shipped.components[0].contains.map((c: { '@id': string }) => ({ '@id': c['@id'] })));
    expect(leaves).toEqual(shipped.components[0].contains);
  });

  it('leaves a flat file, a generated one and anything that is not model JSON-LD alone (null: serve the bytes)', () => {
    const flat = flattenShippedJsonLd(SP_JSONLD)!;
    expect(flattenShippedJsonLd(flat)).toBeNull();
    const generated = generateModelFiles(nestedModel()).find((f) => f.name.endsWith('.jsonld'))!.content as string;
    expect(flattenShippedJsonLd(generated)).toBeNull();
    expect(flattenShippedJsonLd('not json')).toBeNull();
    expect(flattenShippedJsonLd('{"components": 3}')).toBeNull();
  });
});

describe('generated JSON-LD', () => {
  it('lists every cluster and component once, each cluster naming its items by reference', () => {
    const doc = JSON.parse(generateModelFiles(nestedModel()).find((f) => f.name.endsWith('.jsonld'))!.content as string);
    const ids = doc.components.map((c: { '@id': string }) => c['@id']);
    expect(new Set(ids).size).toBe(ids.length);
    const known = new Set(ids);
    for (const entry of doc.components) for (const item of entry.contains ?? []) expect(known.has(item['@id'])).toBe(true);
    expect(doc.metadata['dc:title']).toBe(doc.label);
  });
});
