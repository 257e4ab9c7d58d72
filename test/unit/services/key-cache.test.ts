import type { DataSource } from 'typeorm';
import type { ApiKey } from '../../../src/entities/api-key.entity';
import type { User } from '../../../src/entities/user.entity';
import { createLogger } from '../../../src/lib/logger';
import { KeyCache, type CachedStudioKey } from '../../../src/services/key-cache';

/** A cache that serves entries as if its LISTEN connection were up (the listener itself is tested against
 * Postgres in test/integration/key-cache.test.ts). */
function listeningCache(): KeyCache {
  const cache = new KeyCache({} as DataSource, createLogger('silent'));
  Object.assign(cache, { listener: { listening: true } });
  return cache;
}

const resolved = (userId: number): CachedStudioKey => ({ user: { id: userId } as User, key: { id: userId * 10 } as ApiKey });

describe('KeyCache generations', () => {
  it('keeps a key resolved while a key-list change was announced (a new key, a spend, a rename)', () => {
    const cache = listeningCache();
    const mark = cache.mark();
    cache.keyListChanged(7);
    cache.keepStudioKey('h', resolved(7), mark);
    expect(cache.studioKey('h')?.user.id).toBe(7);
  });

  it('does not keep a key resolved while a credential change was announced', () => {
    const cache = listeningCache();
    const mark = cache.mark();
    cache.userChanged(7);
    cache.keepStudioKey('h', resolved(7), mark);
    expect(cache.studioKey('h')).toBeNull();
  });

  it('does not keep a key list read while that kind changed, and keeps app keys apart', () => {
    const cache = listeningCache();
    const mark = cache.mark();
    cache.keyListChanged(7);
    cache.keepKeyList(7, [], mark);
    expect(cache.keyList(7)).toBeNull();
    cache.keepAppKey('a', { keyId: 1, organization: 'Org' }, mark);
    expect(cache.appKey('a')?.organization).toBe('Org');
    const before = cache.mark();
    cache.appKeyChanged(1);
    cache.keepAppKey('b', { keyId: 2, organization: 'Other' }, before);
    expect(cache.appKey('b')).toBeNull();
  });

  it('after clear() nothing read before it is kept', () => {
    const cache = listeningCache();
    const mark = cache.mark();
    cache.clear();
    cache.keepStudioKey('h', resolved(7), mark);
    cache.keepAppKey('a', { keyId: 1, organization: 'Org' }, mark);
    cache.keepKeyList(7, [], mark);
    expect([cache.studioKey('h'), cache.appKey('a'), cache.keyList(7)]).toEqual([null, null, null]);
  });
});
