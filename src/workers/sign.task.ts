// Signing's CPU work, in a task module of its own: xml-crypto and xmldom (some 4 MB of RSS a thread) load in the
// threads that sign, not in every pool thread with the validation module (issue 28).
import { createPrivateKey } from 'node:crypto';
import { DomainError } from '../lib/errors';
import { signXml, type SignedProperties } from '../xml/signature';
import { settle, type Outcome } from './outcome';
import { applyThreadSettings } from './thread-setup';

applyThreadSettings();

export interface VaasSignTask {
  xml: string;
  kid: string;
  privateKeyPem: string;
  properties: SignedProperties;
}

/** The enveloped Ed25519 XML Signature of a validated instance (src/xml/signature.ts). */
export function vaasSign(task: VaasSignTask): Promise<Outcome<string>> {
  return settle(() => {
    try {
      return signXml(task.xml, { privateKey: createPrivateKey(task.privateKeyPem), kid: task.kid }, task.properties);
    } catch (error) {
      throw new DomainError(400, 'invalid_request', `The instance cannot be signed: ${(error as Error).message}.`, {}, { cause: error });
    }
  });
}
