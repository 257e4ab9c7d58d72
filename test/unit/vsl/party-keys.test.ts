import { fetchKeyDocument, isPrivateAddress, keyDocumentUrl, PartyKeyError } from '../../../src/vsl';

const settings = { allow: [], ca: null, timeoutMs: 1000, maxBytes: 1024 };

describe("a party's key document URL", () => {
  it.each([
    ['https://vendor.example/.well-known/vsl-key.json', 'https://vendor.example/.well-known/vsl-key.json'],
    ['did:web:partner.example', 'https://partner.example/.well-known/did.json'],
    ['did:web:partner.example:parties:kestrel', 'https://partner.example/parties/kestrel/did.json'],
    ['did:web:localhost%3A8443', 'https://localhost:8443/.well-known/did.json'],
  ])('%s → %s', (keyId, url) => expect(keyDocumentUrl(keyId)).toBe(url));

  it('refuses any other scheme', () => {
    expect(() => keyDocumentUrl('http://vendor.example/k.json')).toThrow(PartyKeyError);
    expect(() => keyDocumentUrl('did:key:z6Mk')).toThrow(PartyKeyError);
  });
});

describe('the SSRF guard', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1'])(
    '%s is private',
    (address) => expect(isPrivateAddress(address)).toBe(true),
  );
  it.each(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '8.8.8.8'])('%s is public', (address) =>
    expect(isPrivateAddress(address)).toBe(false),
  );

  it('fetches over HTTPS only, and never from a loopback or private address unless allowed, before connecting', async () => {
    await expect(fetchKeyDocument('http://vendor.example/k.json', settings)).rejects.toThrow(/HTTPS only/);
    await expect(fetchKeyDocument('https://127.0.0.1:9/k.json', settings)).rejects.toThrow(/private or loopback/);
    await expect(fetchKeyDocument('https://[::1]:9/k.json', settings)).rejects.toThrow(/private or loopback/);
    await expect(fetchKeyDocument('https://169.254.169.254/latest/meta-data', settings)).rejects.toThrow(/private or loopback/);
  });
});
