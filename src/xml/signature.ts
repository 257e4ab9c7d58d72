import { sign as ed25519Sign, verify as ed25519Verify, type KeyObject } from 'node:crypto';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { createOptionalCallbackFunction, SignedXml, type SignatureAlgorithm } from 'xml-crypto';
import { xmlText } from '../packages/escape';
import { parseXmlDom } from './safe-parse';

/** An enveloped W3C XML Signature: exclusive canonicalisation, SHA-256 digests, Ed25519 (RFC 9231). */
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const ED25519_SIGNATURE = 'http://www.w3.org/2021/04/xmldsig-more#eddsa-ed25519';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
/** The signed properties (issuer, time, model, EV count) live in this namespace inside a ds:Object. */
const PROPERTIES_NS = 'urn:sdcstudio:signature:1';
const SIGNATURE_ID = 'sdc-signature';
const PROPERTIES_ID = 'sdc-signature-properties';

export interface SignedProperties {
  issuer: string;
  timestamp: string;
  schemaCtId: string;
  evCount: number;
}

export type Verification =
  { valid: true; keyId: string; properties: SignedProperties; signedContent: string } | { valid: false; keyId: string | null; reason: string };

class Ed25519 implements SignatureAlgorithm {
  getSignature = createOptionalCallbackFunction((signedInfo: string | NodeJS.ArrayBufferView, privateKey: KeyObject | string | Buffer) =>
    ed25519Sign(null, typeof signedInfo === 'string' ? Buffer.from(signedInfo) : signedInfo, privateKey).toString('base64'),
  );
  verifySignature = createOptionalCallbackFunction((material: string, key: KeyObject | string | Buffer, signatureValue: string) =>
    ed25519Verify(null, Buffer.from(material), key, Buffer.from(signatureValue, 'base64')),
  );
  getAlgorithmName = () => ED25519_SIGNATURE;
}

/** Only Ed25519 may be named by a signature, so a document cannot pick a weaker algorithm for itself. */
function withEd25519(signer: SignedXml): SignedXml {
  signer.SignatureAlgorithms = { [ED25519_SIGNATURE]: Ed25519 };
  return signer;
}

/** xmldom reports problems through callbacks; any of them makes the document unusable here. */
function parseStrict(xml: string): Document {
  const fail = (message: string) => {
    throw new Error(message);
  };
  return new DOMParser({ errorHandler: { warning: () => undefined, error: fail, fatalError: fail } }).parseFromString(xml, 'text/xml');
}

function propertiesXml(p: SignedProperties): string {
  const field = (name: string, value: string) => `<sp:${name}>${xmlText(value)}</sp:${name}>`;
  return (
    `<ds:SignatureProperties><ds:SignatureProperty Target="#${SIGNATURE_ID}"><sp:properties xmlns:sp="${PROPERTIES_NS}">` +
    `${field('issuer', p.issuer)}${field('timestamp', p.timestamp)}${field('schema-ct-id', p.schemaCtId)}${field('ev-count', String(p.evCount))}` +
    `</sp:properties></ds:SignatureProperty></ds:SignatureProperties>`
  );
}

/** Signs the document element and the properties; the ds:Signature becomes the root's last child. Nodes outside
 * the root (comments, processing instructions) are dropped so every verifier digests the same node set. */
export function signXml(xml: string, key: { privateKey: KeyObject; kid: string }, properties: SignedProperties): string {
  // the project's safe parser refuses DTDs, entities and oversize input before xmldom reads the text
  parseXmlDom(xml);
  const root = parseStrict(xml).documentElement;
  if (root.getElementsByTagNameNS(DSIG_NS, 'Signature').length > 0) throw new Error('the document already carries an XML Signature');
  const signer = withEd25519(
    new SignedXml({
      privateKey: key.privateKey,
      canonicalizationAlgorithm: EXC_C14N,
      signatureAlgorithm: ED25519_SIGNATURE,
      getKeyInfoContent: ({ prefix } = {}) => `<${prefix}:KeyName>${xmlText(key.kid)}</${prefix}:KeyName>`,
      objects: [{ content: propertiesXml(properties), attributes: { Id: PROPERTIES_ID } }],
    }),
  );
  signer.addReference({ xpath: '/*', uri: '', isEmptyUri: true, transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: SHA256 });
  signer.addReference({ xpath: `//*[@Id='${PROPERTIES_ID}']`, transforms: [EXC_C14N], digestAlgorithm: SHA256 });
  signer.computeSignature(`<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(root)}`, {
    prefix: 'ds',
    attrs: { Id: SIGNATURE_ID },
    location: { reference: '/*', action: 'append' },
  });
  return signer.getSignedXml();
}

const EXPECTED_SHAPE = JSON.stringify({
  c14n: EXC_C14N,
  method: ED25519_SIGNATURE,
  references: [
    { uri: '', transforms: [ENVELOPED, EXC_C14N], digest: SHA256 },
    { uri: `#${PROPERTIES_ID}`, transforms: [EXC_C14N], digest: SHA256 },
  ],
});

const dsChildren = (parent: Element, localName: string): Element[] =>
  Array.from(parent.childNodes).filter(
    (n): n is Element => n.nodeType === 1 && (n as Element).namespaceURI === DSIG_NS && (n as Element).localName === localName,
  );

const algorithmOf = (parent: Element, localName: string) => dsChildren(parent, localName)[0]?.getAttribute('Algorithm') ?? null;

/** The signature and its kid when it has the one shape this service makes (one enveloped signature, last in the
 * root, fixed algorithms and references), else why not: anything else is refused before any cryptography. */
function readSignatureShape(doc: Document): { problem: string } | { signature: Element; kid: string } {
  const signatures = Array.from(doc.getElementsByTagNameNS(DSIG_NS, 'Signature'));
  if (signatures.length !== 1) return { problem: `expected one ds:Signature, found ${signatures.length}` };
  const signature = signatures[0];
  const root = doc.documentElement;
  const lastElement = Array.from(root.childNodes)
    .filter((n) => n.nodeType === 1)
    .pop();
  if (signature.parentNode !== root || lastElement !== signature)
    return { problem: 'the ds:Signature is not the last child of the document element' };
  const signedInfo = dsChildren(signature, 'SignedInfo');
  if (signedInfo.length !== 1) return { problem: 'the ds:Signature has no single ds:SignedInfo' };
  const shape = JSON.stringify({
    c14n: algorithmOf(signedInfo[0], 'CanonicalizationMethod'),
    method: algorithmOf(signedInfo[0], 'SignatureMethod'),
    references: dsChildren(signedInfo[0], 'Reference').map((ref) => ({
      uri: ref.getAttribute('URI'),
      transforms: dsChildren(ref, 'Transforms').flatMap((t) => dsChildren(t, 'Transform').map((tr) => tr.getAttribute('Algorithm'))),
      digest: algorithmOf(ref, 'DigestMethod'),
    })),
  });
  if (shape !== EXPECTED_SHAPE) return { problem: 'unexpected algorithms or references in ds:SignedInfo' };
  const keyName = dsChildren(signature, 'KeyInfo')
    .flatMap((info) => dsChildren(info, 'KeyName'))[0]
    ?.textContent?.trim();
  if (!keyName) return { problem: 'the ds:Signature names no key (ds:KeyInfo/ds:KeyName)' };
  return { signature, kid: keyName };
}

function readProperties(signedObject: string): SignedProperties {
  const doc = parseStrict(signedObject);
  const field = (name: string) => doc.getElementsByTagNameNS(PROPERTIES_NS, name)[0]?.textContent ?? '';
  return { issuer: field('issuer'), timestamp: field('timestamp'), schemaCtId: field('schema-ct-id'), evCount: Number(field('ev-count')) };
}

/** Checks a signed instance against public keys by kid. Only what the signature covers is returned: the
 * canonical document (without the signature) and the signed properties. */
export function verifyXml(signedXml: string, publicKeys: ReadonlyMap<string, KeyObject>): Verification {
  let doc: Document;
  try {
    // the project's safe parser refuses DTDs, entities and oversize input before xmldom reads the text
    parseXmlDom(signedXml);
    doc = parseStrict(signedXml);
  } catch (error) {
    return { valid: false, keyId: null, reason: `not a well-formed XML document: ${(error as Error).message}` };
  }
  const shape = readSignatureShape(doc);
  if ('problem' in shape) return { valid: false, keyId: null, reason: shape.problem };
  const publicKey = publicKeys.get(shape.kid);
  if (!publicKey) return { valid: false, keyId: shape.kid, reason: `unknown signing key ${shape.kid}` };
  const checker = withEd25519(new SignedXml({ publicCert: publicKey, getCertFromKeyInfo: () => null }));
  checker.loadSignature(shape.signature);
  try {
    if (!checker.checkSignature(signedXml)) {
      const failed = checker.getReferences().find((ref) => ref.validationError)?.validationError;
      return { valid: false, keyId: shape.kid, reason: failed ? 'the signed content was changed (digest mismatch)' : 'a reference did not verify' };
    }
  } catch (error) {
    const message = (error as Error).message;
    return { valid: false, keyId: shape.kid, reason: message.startsWith('invalid signature') ? 'the signature value does not match' : message };
  }
  const [signedContent, signedObject] = checker.getSignedReferences();
  return { valid: true, keyId: shape.kid, properties: readProperties(signedObject), signedContent: signedContent };
}
