import { loadSettings } from '../../../src/config';

describe('HEAP_GROWING_PERCENT', () => {
  it('defaults to 30 and can be set, 0 leaving V8 its own factor', () => {
    expect(loadSettings({}).heapGrowingPercent).toBe(30);
    expect(loadSettings({ HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).toBe(0);
    expect(loadSettings({ HEAP_GROWING_PERCENT: '50' }).heapGrowingPercent).toBe(50);
  });

  it('refuses a value that is not a number', () => {
    expect(() => loadSettings({ HEAP_GROWING_PERCENT: 'lots' })).toThrow('HEAP_GROWING_PERCENT');
  });
});
