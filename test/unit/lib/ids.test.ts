import { newId } from '../../../src/lib/ids';

describe('newId (the CUID2-shaped ids: ct_ids, instance ids, hold tokens)', () => {
  it('is 24 characters of [a-z0-9] starting with a letter, and does not repeat', () => {
    const ids = Array.from({ length: 5000 }, newId);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9]{23}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses every letter first and every letter and digit after it', () => {
    const ids = Array.from({ length: 5000 }, newId);
    expect(new Set(ids.map((id) => id[0])).size).toBe(26);
    expect(new Set(ids.join('').slice(1)).size).toBe(36);
  });
});
