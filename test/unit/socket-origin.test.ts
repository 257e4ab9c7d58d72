import { originAllowed } from '../../src/http/graphql-socket';

describe('originAllowed (may a page of this origin use the session cookie over a socket?)', () => {
  const base = 'https://studio.example.org';
  it.each([
    [undefined, 'studio.example.org', true],
    ['https://studio.example.org', 'studio.example.org', true],
    ['http://127.0.0.1:4000', '127.0.0.1:4000', true],
    ['https://studio.example.org', 'internal:4000', true],
    ['https://partner.example', 'internal:4000', true],
    ['HTTPS://PARTNER.EXAMPLE', 'internal:4000', true],
    ['http://127.0.0.1:4001', '127.0.0.1:4000', false],
    ['https://app.studio.example.org', 'studio.example.org', false],
    ['https://attacker.example', 'studio.example.org', false],
    ['null', 'studio.example.org', false],
    ['not a url', 'studio.example.org', false],
  ])('Origin %s reaching Host %s: %s', (origin, host, expected) => {
    expect(originAllowed(origin, host, base, ['https://partner.example'])).toBe(expected);
  });
});
