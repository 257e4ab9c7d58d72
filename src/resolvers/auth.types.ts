import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, GraphQLISODateTime, InputType, Int, ObjectType } from 'type-graphql';
import type { KeyStatus, Scope } from '../entities/api-key.entity';
import type { CreateKeyFields } from '../parsers/keys.parser';
import type { AutoReloadFields } from '../parsers/wallet.parser';
import type { IssuedKeyView, KeyView } from '../presenters/key.presenter';
import type { SessionView, UserView } from '../presenters/user.presenter';
import type { AutoReloadView, WalletView } from '../money';
import { KeyStatusEnum, ScopeEnum } from './enums';

@ObjectType('User')
export class UserType implements UserView {
  @Field(() => Int) id!: number;
  @Field() email!: string;
  @Field() name!: string;
  @Field() isStaff!: boolean;
}

@ObjectType('SessionPayload')
export class SessionPayload implements SessionView {
  @Field(() => UserType) user!: UserType;
  @Field() csrfToken!: string;
  @Field(() => GraphQLISODateTime) expiresAt!: Date;
}

@ObjectType('ApiKey')
export class ApiKeyType implements KeyView {
  @Field(() => Int) id!: number;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field() prefix!: string;
  @Field(() => [ScopeEnum]) scopes!: Scope[];
  @Field(() => GraphQLSafeInt, { nullable: true }) spendLimitCredits!: number | null;
  @Field(() => GraphQLSafeInt) spentCredits!: number;
  @Field(() => GraphQLISODateTime, { nullable: true }) expiresAt!: Date | null;
  @Field() expired!: boolean;
  @Field() revoked!: boolean;
  @Field(() => KeyStatusEnum) status!: KeyStatus;
  @Field(() => GraphQLISODateTime) created!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) lastUsed!: Date | null;
}

@ObjectType('IssuedApiKey')
export class IssuedApiKeyType extends ApiKeyType implements IssuedKeyView {
  @Field({ description: 'The key itself: shown once, never stored.' }) key!: string;
}

@ObjectType('LegacyKey')
export class LegacyKeyType {
  @Field() token!: string;
  @Field() prefix!: string;
}

@InputType()
export class CreateApiKeyInput implements CreateKeyFields {
  @Field() name!: string;
  @Field(() => [ScopeEnum], { nullable: true }) scopes?: string[];
  @Field(() => GraphQLSafeInt, { nullable: true }) spendLimitCredits?: number;
  @Field(() => Int, { nullable: true }) expiresInDays?: number;
}

@ObjectType('AutoReload')
export class AutoReloadType implements AutoReloadView {
  @Field() enabled!: boolean;
  @Field(() => GraphQLSafeInt) thresholdCredits!: number;
  @Field(() => GraphQLSafeInt) amountCredits!: number;
}

@ObjectType('Wallet')
export class WalletType implements WalletView {
  @Field({ description: 'Dollars as a decimal string (1,000 credits per dollar).' }) balance!: string;
  @Field(() => GraphQLSafeInt) balanceCredits!: number;
  @Field(() => GraphQLSafeInt, { description: 'Reserved by open holds of admitted jobs; the available balance is balanceCredits - heldCredits.' })
  heldCredits!: number;
  @Field(() => AutoReloadType) autoReload!: AutoReloadType;
  @Field(() => GraphQLISODateTime) updatedAt!: Date;
}

@InputType()
export class AutoReloadInput implements AutoReloadFields {
  @Field({ nullable: true }) enabled?: boolean;
  @Field(() => GraphQLSafeInt, { nullable: true }) thresholdCredits?: number;
  @Field(() => GraphQLSafeInt, { nullable: true }) amountCredits?: number;
}

@InputType()
export class ProfileInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) email?: string;
}
