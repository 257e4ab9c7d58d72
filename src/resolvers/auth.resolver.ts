import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { clearSessionCookies, readCookie, SESSION_COOKIE, setSessionCookies } from '../http/session-cookies';
import { parseLogin } from '../parsers/auth.parser';
import { parseCreateKeyFields } from '../parsers/keys.parser';
import { parseProfileUpdate } from '../parsers/users.parser';
import { parseAutoReloadFields } from '../parsers/wallet.parser';
import { userView, type SessionView, type UserView } from '../presenters/user.presenter';
import type { IssuedKeyView, KeyView, LegacyKeyView } from '../presenters/key.presenter';
import type { WalletView } from '../money';
import type { Caller } from '../services/auth.service';
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
import { CurrentCaller, Requires, type GraphQLContext } from './context';

@Resolver()
export class AuthResolver {
  @Requires('public')
  @Mutation(() => SessionPayload, { description: 'Signs in and sets the session cookie (HttpOnly, SameSite=Lax).' })
  async login(@Arg('email') email: string, @Arg('password') password: string, @Ctx() ctx: GraphQLContext): Promise<SessionView> {
    const credentials = parseLogin({ email, password });
    const { token, ...session } = await ctx.services.auth.login(credentials.email, credentials.password, ctx.req?.ip ?? 'unknown');
    if (ctx.res) setSessionCookies(ctx.res, { token, ...session }, { secure: ctx.services.settings.cookieSecure });
    return session;
  }

  @Requires('session')
  @Mutation(() => Boolean)
  async logout(@Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.auth.logout(ctx.req && readCookie(ctx.req, SESSION_COOKIE));
    if (ctx.res) clearSessionCookies(ctx.res);
    return true;
  }

  @Requires('read')
  @Query(() => UserType)
  me(@CurrentCaller() caller: Caller): UserView {
    return userView(caller.user);
  }

  @Requires('session')
  @Mutation(() => UserType)
  async updateProfile(@Arg('input') input: ProfileInput, @CurrentCaller() caller: Caller, @Ctx() ctx: GraphQLContext): Promise<UserView> {
    return ctx.services.users.updateProfile(caller.user.id, parseProfileUpdate(input));
  }

  @Requires('read')
  @Query(() => [ApiKeyType], { description: 'Your keys, newest first, revoked and expired included.' })
  async apiKeys(@CurrentCaller() caller: Caller, @Ctx() ctx: GraphQLContext): Promise<KeyView[]> {
    return ctx.services.keys.list(caller.user.id);
  }

  @Requires('session')
  @Mutation(() => IssuedApiKeyType)
  async createApiKey(@Arg('input') input: CreateApiKeyInput, @CurrentCaller() caller: Caller, @Ctx() ctx: GraphQLContext): Promise<IssuedKeyView> {
    return ctx.services.keys.create(caller.user.id, parseCreateKeyFields(input));
  }

  @Requires('session')
  @Mutation(() => IssuedApiKeyType)
  async rotateApiKey(@Arg('id', () => Int) id: number, @CurrentCaller() caller: Caller, @Ctx() ctx: GraphQLContext): Promise<IssuedKeyView> {
    return ctx.services.keys.rotate(caller.user.id, id);
  }

  @Requires('read')
  @Mutation(() => ApiKeyType)
  async revokeApiKey(@Arg('id', () => Int) id: number, @CurrentCaller() caller: Caller, @Ctx() ctx: GraphQLContext): Promise<KeyView> {
    return ctx.services.keys.revoke(caller, id);
  }

  @Requires('session')
  @Mutation(() => LegacyKeyType)
  async generateLegacyKey(@CurrentCaller() caller: Caller, @Ctx() ctx: GraphQLContext): Promise<LegacyKeyView> {
    return ctx.services.keys.generateLegacy(caller.user.id);
  }

  @Requires('read')
  @Query(() => WalletType)
  async wallet(@CurrentCaller() caller: Caller, @Ctx() ctx: GraphQLContext): Promise<WalletView> {
    return ctx.services.ledger.walletView(caller.user.id);
  }

  @Requires('session')
  @Mutation(() => WalletType)
  async updateAutoReload(@Arg('input') input: AutoReloadInput, @CurrentCaller() caller: Caller, @Ctx() ctx: GraphQLContext): Promise<WalletView> {
    return ctx.services.ledger.updateAutoReload(caller.user.id, parseAutoReloadFields(input));
  }
}
