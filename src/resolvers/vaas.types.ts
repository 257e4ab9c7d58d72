import { Field, Int, ObjectType } from 'type-graphql';
import type { SignatureView } from '../presenters/signing.presenter';
import type { VaasSignView, VaasVerificationView, VaasView } from '../presenters/vaas.presenter';
import type { EvCorrection, ExceptionalValue } from '../xml/ev';

@ObjectType('VaasSchema', { description: 'The data model the instance root names.' })
export class VaasSchemaType {
  @Field() ctId!: string;
  @Field() title!: string;
}

@ObjectType('VaasError', { description: 'One problem, at a 1-based line (0 when the processor gave none).' })
export class VaasErrorType {
  @Field(() => Int) line!: number;
  @Field() message!: string;
}

@ObjectType('VaasCorrection', { description: 'A placeholder value recover mode tagged with an SDC4 ExceptionalValue.' })
export class VaasCorrectionType implements EvCorrection {
  @Field(() => Int) line!: number;
  @Field(() => String, { description: 'EV_NULL, EV_UNKNOWN, …' }) ev!: ExceptionalValue;
  @Field({ description: 'e.g. sdc4:NI' }) element!: string;
  @Field() original!: string;
}

@ObjectType('VaasSignature', { description: 'The signed properties of an enveloped Ed25519 XML Signature.' })
class VaasSignatureType implements SignatureView {
  @Field() algorithm!: string;
  @Field() issuer!: string;
  @Field() timestamp!: string;
  @Field() schemaCtId!: string;
  @Field(() => Int) evCount!: number;
  @Field() keyId!: string;
}

@ObjectType('VaasVerification')
class VaasVerificationType implements VaasVerificationView {
  @Field() publicKeyUrl!: string;
  @Field() verifyCommand!: string;
}

@ObjectType('VaasSign', { description: 'Only a valid instance is signed.' })
class VaasSignType implements VaasSignView {
  @Field() signed!: boolean;
  @Field(() => String, { nullable: true }) signedXml!: string | null;
  @Field(() => VaasSignatureType, { nullable: true }) signature!: SignatureView | null;
  @Field(() => VaasVerificationType, { nullable: true }) verification!: VaasVerificationView | null;
}

@ObjectType('VaasResult', { description: 'A validation (and, for signInstance, a signature) of one SDC4 instance.' })
export class VaasResultType implements VaasView {
  @Field() valid!: boolean;
  @Field(() => String, { description: 'strict or recover' }) mode!: VaasView['mode'];
  @Field(() => VaasSchemaType) schema!: VaasSchemaType;
  @Field(() => Int, { description: 'libxml2 schema errors not on an EV-tagged value.' }) structuralErrors!: number;
  @Field(() => Int, { description: 'XSD 1.1 assertion failures and errors on EV-tagged values.' }) semanticErrors!: number;
  @Field() recovered!: boolean;
  @Field(() => String, { nullable: true }) recoveredXml!: string | null;
  @Field(() => [VaasErrorType]) errors!: VaasErrorType[];
  @Field(() => [VaasCorrectionType]) corrections!: VaasCorrectionType[];
  @Field(() => VaasSignType, { nullable: true, description: 'signInstance only.' }) sign!: VaasSignView | null;
  @Field(() => String, { nullable: true, description: 'With package: true; GET it with the same credentials until it expires.' })
  packageUrl!: string | null;
  @Field(() => String, { nullable: true, description: 'ISO 8601.' }) packageExpiresAt!: string | null;
  @Field(() => Int) chargedCredits!: number;
  @Field(() => Int) balanceRemainingCredits!: number;
}
