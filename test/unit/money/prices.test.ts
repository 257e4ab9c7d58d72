import { csvUploadPrice, PRICES, unpaidTreePrice } from '../../../src/money';

describe('unpaidTreePrice: what publishing charges for the drafts no door charged for', () => {
  it('the model with its root cluster is the model price, as assembly charges it', () => {
    expect(unpaidTreePrice({ model: true, rootCluster: true, clusters: 1, components: 0 })).toBe(PRICES.model);
  });

  it('every other cluster and every component adds 100', () => {
    expect(unpaidTreePrice({ model: true, rootCluster: true, clusters: 3, components: 4 })).toBe(
      PRICES.model + 2 * PRICES.cluster + 4 * PRICES.component,
    );
  });

  it('a paid model with an unpaid root cluster pays the cluster alone; a paid tree pays nothing', () => {
    expect(unpaidTreePrice({ model: false, rootCluster: true, clusters: 1, components: 0 })).toBe(PRICES.cluster);
    expect(unpaidTreePrice({ model: false, rootCluster: false, clusters: 0, components: 0 })).toBe(0);
  });

  it('an unpaid model on a paid root cluster pays the model price, no more', () => {
    expect(unpaidTreePrice({ model: true, rootCluster: false, clusters: 0, components: 2 })).toBe(PRICES.model + 2 * PRICES.component);
  });

  it('a CSV upload is priced like the unpaid tree it mints (N components, a model with its root)', () => {
    expect(csvUploadPrice(3)).toBe(unpaidTreePrice({ model: true, rootCluster: true, clusters: 1, components: 3 }));
  });
});
