import { chargeHeaders, creditsToUsd } from '../../../src/money';

describe('dollars as clients read them', () => {
  it.each([
    [0, '0.000'],
    [1, '0.001'],
    [999, '0.999'],
    [1000, '1.000'],
    [123_456_789, '123456.789'],
    [-1500, '-1.500'],
  ])('%i credits are "%s" dollars, exactly', (credits, dollars) => {
    expect(creditsToUsd(credits)).toBe(dollars);
  });

  it('every charging answer carries dollars and their integer-credit twins', () => {
    expect(chargeHeaders(123_456_789, 999)).toEqual({
      'X-SDC-Estimated-Cost': '123456.789',
      'X-SDC-Balance-Remaining': '0.999',
      'X-SDC-Estimated-Cost-Credits': '123456789',
      'X-SDC-Balance-Remaining-Credits': '999',
    });
  });
});
