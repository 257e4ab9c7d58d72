import { parseAutoReload, parseAutoReloadFields } from '../../../src/parsers/wallet.parser';
import { refusal } from './refusal';

const NOTHING = { status: 400, code: 'invalid_request', message: 'Send at least one of enabled, threshold_credits, amount_credits.', fields: {} };

describe('parseAutoReload', () => {
  it('keeps only the fields sent', () => {
    expect(parseAutoReload({ enabled: true, threshold_credits: 100, amount_credits: 5000 })).toEqual({
      enabled: true,
      thresholdCredits: 100,
      amountCredits: 5000,
    });
    expect(parseAutoReload({ enabled: false })).toEqual({ enabled: false });
    expect(parseAutoReload({ threshold_credits: 0 })).toEqual({ thresholdCredits: 0 });
  });

  it.each([[{}], [{ enable: false }], [null], [[true]]])('refuses %j: nothing to change', (body) => {
    expect(refusal(() => parseAutoReload(body))).toEqual(NOTHING);
  });

  it.each([['yes'], [1], [null]])('refuses enabled = %j', (enabled) => {
    expect(refusal(() => parseAutoReload({ enabled }))).toEqual({
      status: 400,
      code: 'invalid_request',
      message: 'enabled must be a boolean.',
      fields: { details: { enabled: ['Must be a boolean.'] } },
    });
  });

  it.each([
    ['threshold_credits', -1],
    ['threshold_credits', 1.5],
    ['threshold_credits', '10'],
    ['amount_credits', -1],
    ['amount_credits', null],
    ['amount_credits', 2 ** 53],
  ])('refuses %s = %j', (field, value) => {
    expect(refusal(() => parseAutoReload({ [field]: value }))).toEqual({
      status: 400,
      code: 'invalid_request',
      message: `${field} must be an integer of at least 0.`,
      fields: { details: { [field]: ['Must be an integer ≥ 0.'] } },
    });
  });

  it('checks enabled, then the threshold, then the amount', () => {
    expect(refusal(() => parseAutoReload({ enabled: 'x', threshold_credits: -1, amount_credits: -1 })).message).toBe('enabled must be a boolean.');
    expect(refusal(() => parseAutoReload({ threshold_credits: -1, amount_credits: -1 })).message).toBe(
      'threshold_credits must be an integer of at least 0.',
    );
  });

  it('takes the GraphQL input type’s camelCase fields with the same rules', () => {
    expect(parseAutoReloadFields({ amountCredits: 10 })).toEqual({ amountCredits: 10 });
    expect(refusal(() => parseAutoReloadFields({}))).toEqual(NOTHING);
  });
});
