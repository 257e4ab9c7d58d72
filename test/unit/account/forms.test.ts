import type { Request } from 'express';
import { autoReloadFormFields, fieldMessages, keyFormFields } from '../../../src/account/forms';
import { badRequest, type DomainError } from '../../../src/lib/errors';
import { parseCreateKeyFields } from '../../../src/parsers/keys.parser';

const form = (body: Record<string, unknown>) => ({ body }) as Request;

describe('account forms as the JSON API fields', () => {
  it('reads numbers (thousands commas allowed), empties as absent, and one or many scopes', () => {
    const { fields } = keyFormFields(form({ name: 'ci', scopes: 'build', spend_limit_credits: '5,000', expires_in_days: '' }));
    expect(parseCreateKeyFields(fields)).toEqual({ name: 'ci', scopes: ['read', 'build'], spendLimitCredits: 5000, expiresInDays: null });
    const many = keyFormFields(form({ name: 'ci', scopes: ['build', 'spend'], spend_limit_credits: '', expires_in_days: '30' }));
    expect(parseCreateKeyFields(many.fields)).toEqual({ name: 'ci', scopes: ['read', 'build', 'spend'], spendLimitCredits: null, expiresInDays: 30 });
  });

  it('leaves no box ticked as read only, and passes text on for the parser to refuse next to its field', () => {
    expect(parseCreateKeyFields(keyFormFields(form({ name: 'r' })).fields).scopes).toEqual(['read']);
    const { fields, values } = keyFormFields(form({ name: 'x', spend_limit_credits: '5e3' }));
    expect(values.spendLimitCredits).toBe('5e3');
    try {
      parseCreateKeyFields(fields);
      throw new Error('accepted');
    } catch (error) {
      expect(fieldMessages(error as DomainError)).toEqual({
        spend_limit_credits: ['spend_limit_credits must be an integer of at least 0, or null.'],
      });
    }
  });

  it('reads an unticked auto-reload box as disabled', () => {
    expect(autoReloadFormFields(form({ threshold_credits: '10', amount_credits: '1,000' }))).toEqual({
      enabled: false,
      thresholdCredits: 10,
      amountCredits: 1000,
    });
    expect(fieldMessages(badRequest('no details'))).toEqual({});
  });
});
