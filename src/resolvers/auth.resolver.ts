import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { ApiKey } from '../entities/api-key.entity';
import type { User } from '../entities/user.entity';
import type { Wallet } from '../entities/wallet.entity';
import { keyStatus } from '../services/keys.service';
import { creditsToUsd } from '../services/ledger.service';
import { clearSessionCookies, CSRF_COOKIE, SESSION_COOKIE } from '../rest-compat/auth.routes';
import {
  ApiKeyType,
  AutoReloadInput,
  CreateApiKeyInput,
  IssuedApiKeyType,
  LegacyKeyType,
  ProfileInput,
  SessionPayload,
  UserType,
  WalletType,
} from './auth.types';
import { Requires, type GraphQLContext } from './context';

const toUser = (u: User): UserType => ({ id: u.id, email: u.email, name: u.name, isStaff: u.isStaff });

function toKey(k: ApiKey, now: Date): ApiKeyType {
  const status = keyStatus(k, now);
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes,
    spendLimitCredits: k.spendLimitCredits,
    spentCredits: k.spentCredits,
    expiresAt: k.expiresAt,
    expired: status === 'expired',
    revoked: status === 'revoked',
    status,
    created: k.createdAt,
    lastUsed: k.lastUsedAt,
  };
}

const toWallet = (w: Wallet): WalletType => ({
  balance: creditsToUsd(w.balanceCredits),
  balanceCredits: w.balanceCredits,
  autoReload: { enabled: w.autoReloadEnabled, thresholdCredits: w.autoReloadThresholdCredits, amountCredits: w.autoReloadAmountCredits },
  updatedAt: w.updatedAt,
});

@Resolver()
export class AuthResolver {
  @Requires('public')
  @Mutation(() => SessionPayload, { description: 'Signs in and sets the session cookie (HttpOnly, SameSite=Lax).' })
  async login(@Arg('email') email: string, @Arg('password') password: string, @Ctx() ctx: GraphQLContext): Promise<SessionPayload> {
    const session = await ctx.services.auth.login(email, password, ctx.req?.ip ?? 'unknown');
    const secure = ctx.services.settings.cookieSecure;
    ctx.res?.cookie(SESSION_COOKIE, session.token, { httpOnly: true, sameSite: 'lax', secure, expires: session.expiresAt, path: '/' });
    ctx.res?.cookie(CSRF_COOKIE, session.csrfToken, { httpOnly: false, sameSite: 'lax', secure, expires: session.expiresAt, path: '/' });
    return { user: toUser(session.user), csrfToken: session.csrfToken, expiresAt: session.expiresAt };
  }

  @Requires('session')
  @Mutation(() => Boolean)
  async logout(@Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.auth.logout(ctx.req?.cookies?.[SESSION_COOKIE]);
    if (ctx.res) clearSessionCookies(ctx.res);
    return true;
  }

  @Requires('read')
  @Query(() => UserType)
  me(@Ctx() ctx: GraphQLContext): UserType {
    return toUser(ctx.caller!.user);
  }

  @Requires('session')
  @Mutation(() => UserType)
  async updateProfile(@Arg('input') input: ProfileInput, @Ctx() ctx: GraphQLContext): Promise<UserType> {
    return toUser(await ctx.services.users.updateProfile(ctx.caller!.user.id, input));
  }

  @Requires('read')
  @Query(() => [ApiKeyType], { description: 'Your keys, newest first, revoked and expired included.' })
  async apiKeys(@Ctx() ctx: GraphQLContext): Promise<ApiKeyType[]> {
    const now = ctx.services.clock.now();
    return (await ctx.services.keys.list(ctx.caller!.user.id)).map((k) => toKey(k, now));
  }

  @Requires('session')
  @Mutation(() => IssuedApiKeyType)
  async createApiKey(@Arg('input') input: CreateApiKeyInput, @Ctx() ctx: GraphQLContext): Promise<IssuedApiKeyType> {
    const { key, plaintext } = await ctx.services.keys.create(ctx.caller!.user.id, {
      name: input.name,
      scopes: input.scopes,
      spend_limit_credits: input.spendLimitCredits,
      expires_in_days: input.expiresInDays,
    });
    return { ...toKey(key, ctx.services.clock.now()), key: plaintext };
  }

  @Requires('session')
  @Mutation(() => IssuedApiKeyType)
  async rotateApiKey(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<IssuedApiKeyType> {
    const { key, plaintext } = await ctx.services.keys.rotate(ctx.caller!.user.id, id);
    return { ...toKey(key, ctx.services.clock.now()), key: plaintext };
  }

  @Requires('read')
  @Mutation(() => ApiKeyType)
  async revokeApiKey(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<ApiKeyType> {
    return toKey(await ctx.services.keys.revoke(ctx.caller!, id), ctx.services.clock.now());
  }

  @Requires('session')
  @Mutation(() => LegacyKeyType)
  async generateLegacyKey(@Ctx() ctx: GraphQLContext): Promise<LegacyKeyType> {
    const { key, plaintext } = await ctx.services.keys.generateLegacy(ctx.caller!.user.id);
    return { token: plaintext, prefix: key.prefix };
  }

  @Requires('read')
  @Query(() => WalletType)
  async wallet(@Ctx() ctx: GraphQLContext): Promise<WalletType> {
    return toWallet(await ctx.services.ledger.wallet(ctx.caller!.user.id));
  }

  @Requires('session')
  @Mutation(() => WalletType)
  async updateAutoReload(@Arg('input') input: AutoReloadInput, @Ctx() ctx: GraphQLContext): Promise<WalletType> {
    const wallet = await ctx.services.ledger.updateAutoReload(ctx.caller!.user.id, {
      enabled: input.enabled,
      threshold_credits: input.thresholdCredits,
      amount_credits: input.amountCredits,
    });
    return toWallet(wallet);
  }
}
