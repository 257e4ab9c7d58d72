import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { compileSchema, type CompiledSchema } from '../../../src/xml/schema';
import { signXml, verifyXml, type SignedProperties } from '../../../src/xml/signature';
import { offlineResolver, statePopulationXml, statePopulationXsd } from '../xml/fixtures';

const PROPERTIES: SignedProperties = {
  issuer: 'SDCStudio <test> & co',
  timestamp: '2026-01-02T03:04:05.000Z',
  schemaCtId: 'its7j6bvrb9n2fxdcxmoemod',
  evCount: 0,
};

function keyPair(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { kid, privateKey, publicKey };
}

const current = keyPair('kid-current');
const other = keyPair('kid-other');
const published = new Map<string, KeyObject>([[current.kid, current.publicKey]]);
const signed = signXml(statePopulationXml(), current, PROPERTIES);

/** Replaces exactly one occurrence, so a test cannot pass because its edit missed. */
function edit(xml: string, from: string, to: string): string {
  expect(xml.split(from)).toHaveLength(2);
  return xml.replace(from, to);
}

describe('signed SDC4 instances', () => {
  let schema: CompiledSchema;
  beforeAll(async () => {
    schema = await compileSchema(statePopulationXsd(), offlineResolver());
  });

  it('verify with the signing key and return the signed properties and content', () => {
    const result = verifyXml(signed, published);

    expect(result).toEqual({
      valid: true,
      keyId: current.kid,
      properties: PROPERTIES,
      signedContent: expect.stringContaining('<xdcount-value>23</xdcount-value>'),
    });
    expect(signed).toContain('<ds:SignatureMethod Algorithm="http://www.w3.org/2021/04/xmldsig-more#eddsa-ed25519"/>');
    expect(signed).toMatch(
      /<ds:Signature Id="sdc-signature" xmlns:ds="http:\/\/www.w3.org\/2000\/09\/xmldsig#">.*<\/ds:Signature><\/sdc4:dm-its7j6bvrb9n2fxdcxmoemod>$/s,
    );
  });

  it('carry the signature where the model schema allows no foreign element; without it the instance still validates', () => {
    const result = verifyXml(signed, published);
    if (!result.valid) throw new Error(result.reason);

    expect(schema.validate(statePopulationXml())).toEqual([]);
    expect(schema.validate(result.signedContent)).toEqual([]);
    expect(
      schema
        .validate(signed)
        .map((e) => e.message)
        .join(' '),
    ).toContain('Signature');
  });

  it.each([
    ['a value', '<xdcount-value>23</xdcount-value>', '<xdcount-value>24</xdcount-value>'],
    ['an attribute', 'dmlib/dm-its7j6bvrb9n2fxdcxmoemod.xsd"', 'dmlib/dm-its7j6bvrb9n2fxdcxmoemod.xsD"'],
    ['a signed property', '<sp:ev-count>0</sp:ev-count>', '<sp:ev-count>1</sp:ev-count>'],
  ])('fail when one character of %s changes', (_what, from, to) => {
    expect(verifyXml(edit(signed, from, to), published)).toEqual({
      valid: false,
      keyId: current.kid,
      reason: 'the signed content was changed (digest mismatch)',
    });
  });

  it('fail when one character of the signature value changes', () => {
    const value = /<ds:SignatureValue>([^<]+)<\/ds:SignatureValue>/.exec(signed)![1];
    const flipped = `${value.slice(0, 10)}${value[10] === 'A' ? 'B' : 'A'}${value.slice(11)}`;

    expect(verifyXml(edit(signed, value, flipped), published)).toEqual({
      valid: false,
      keyId: current.kid,
      reason: 'the signature value does not match',
    });
  });

  it('fail against another key of the same kid, and name a key nobody published', () => {
    expect(verifyXml(signed, new Map([[current.kid, other.publicKey]]))).toMatchObject({
      valid: false,
      reason: 'the signature value does not match',
    });
    expect(verifyXml(signXml(statePopulationXml(), other, PROPERTIES), published)).toEqual({
      valid: false,
      keyId: other.kid,
      reason: 'unknown signing key kid-other',
    });
  });

  it('refuse a second signature, a moved one, an unsigned document and a DTD before any cryptography', () => {
    const signature = /<ds:Signature .*<\/ds:Signature>/s.exec(signed)![0];
    const moved = edit(signed.replace(signature, ''), '<dm-label>', `${signature}<dm-label>`);

    expect(verifyXml(signed.replace(signature, signature + signature), published)).toMatchObject({
      valid: false,
      reason: 'expected one ds:Signature, found 2',
    });
    expect(verifyXml(moved, published)).toMatchObject({ valid: false, reason: 'the ds:Signature is not the last child of the document element' });
    expect(verifyXml(statePopulationXml(), published)).toMatchObject({ valid: false, reason: 'expected one ds:Signature, found 0' });
    expect(verifyXml(`<!DOCTYPE x [<!ENTITY e "e">]>${signed.replace(/^<\?xml[^>]*>/, '')}`, published)).toMatchObject({ valid: false, keyId: null });
  });

  it('refuse to sign twice', () => {
    expect(() => signXml(signed, current, PROPERTIES)).toThrow('already carries an XML Signature');
  });
});
