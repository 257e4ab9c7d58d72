import { Field, GraphQLISODateTime, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType('User')
export class UserType {
  @Field(() => Int) id!: number;
  @Field() email!: string;
  @Field() name!: string;
  @Field() isStaff!: boolean;
}

@ObjectType('SessionPayload')
export class SessionPayload {
  @Field(() => UserType) user!: UserType;
  @Field() csrfToken!: string;
  @Field(() => GraphQLISODateTime) expiresAt!: Date;
}

@ObjectType('ApiKey')
export class ApiKeyType {
  @Field(() => Int) id!: number;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field() prefix!: string;
  @Field(() => [String]) scopes!: string[];
  @Field(() => Int, { nullable: true }) spendLimitCredits!: number | null;
  @Field(() => Int) spentCredits!: number;
  @Field(() => GraphQLISODateTime, { nullable: true }) expiresAt!: Date | null;
  @Field() expired!: boolean;
  @Field() revoked!: boolean;
  @Field() status!: string;
  @Field(() => GraphQLISODateTime) created!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) lastUsed!: Date | null;
}

@ObjectType('IssuedApiKey')
export class IssuedApiKeyType extends ApiKeyType {
  @Field({ description: 'The key itself: shown once, never stored.' }) key!: string;
}

@ObjectType('LegacyKey')
export class LegacyKeyType {
  @Field() token!: string;
  @Field() prefix!: string;
}

@InputType()
export class CreateApiKeyInput {
  @Field() name!: string;
  @Field(() => [String], { nullable: true }) scopes?: string[];
  @Field(() => Int, { nullable: true }) spendLimitCredits?: number;
  @Field(() => Int, { nullable: true }) expiresInDays?: number;
}

@ObjectType('AutoReload')
export class AutoReloadType {
  @Field() enabled!: boolean;
  @Field(() => Int) thresholdCredits!: number;
  @Field(() => Int) amountCredits!: number;
}

@ObjectType('Wallet')
export class WalletType {
  @Field({ description: 'Dollars as a decimal string (1,000 credits per dollar).' }) balance!: string;
  @Field(() => Int) balanceCredits!: number;
  @Field(() => AutoReloadType) autoReload!: AutoReloadType;
  @Field(() => GraphQLISODateTime) updatedAt!: Date;
}

@InputType()
export class AutoReloadInput {
  @Field({ nullable: true }) enabled?: boolean;
  @Field(() => Int, { nullable: true }) thresholdCredits?: number;
  @Field(() => Int, { nullable: true }) amountCredits?: number;
}

@InputType()
export class ProfileInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) email?: string;
}
