import { rows } from '../../../src/db/sql';
import type { User } from '../../../src/entities/user.entity';
import { parseCreateKey } from '../../../src/parsers/keys.parser';
import type { TestApp } from '../app';
import { libraryComponent } from '../catalog-factories';
import { issueKey, makeUser, PASSWORD, signedIn } from '../factories';
import type { HttpClient } from '../http';
import { CALLERS, type Credentials, type LiveCaller, type Who } from './callers';
import { SPEND_LIMIT_CREDITS } from './oracle';

const CREDITS = 10_000_000;

/** Everything the cells point at: three users, their credentials, and resources owned by the owner. */
export interface World {
  app: TestApp;
  users: Record<Exclude<Who, null>, User>;
  callers: LiveCaller[];
  libraryComponentCtId: string;
  /** The owner's draft model (invisible to everyone else, staff included). */
  draftDm: string;
  /** The owner's published model, its os application already generated. */
  publishedDm: string;
  jobs: Record<Exclude<Who, null>, { id: number; ctId: string }>;
  /** The owner's key that every refused or foreign cell aims at: it must still be active at the end. */
  victimKeyId: number;
  appOrganization: string;
  /** An application key every refused admin cell aims at: it must still be active at the end. */
  victimAppKeyId: number;
  /** A user no caller is: the body of every sign-in cell. */
  loginUser: { email: string; password: string };
  assemblyBody: (publish: boolean) => Record<string, unknown>;
  freshOwnerKey: () => Promise<number>;
  freshAppKey: () => Promise<number>;
}

let sequence = 0;
export const nextName = (prefix: string) => `${prefix}-${++sequence}`;

function sessionOf(client: HttpClient): Credentials {
  return { sessionToken: client.cookie('sessionid'), csrfToken: client.cookie('csrftoken') };
}

export async function buildWorld(app: TestApp): Promise<World> {
  const { services } = app;
  const owner = await signedIn(app.url, services, { credits: CREDITS });
  const other = await signedIn(app.url, services, { credits: CREDITS });
  const staff = await signedIn(app.url, services, { staff: true, credits: CREDITS });
  const loginUser = await makeUser(services);

  const keyOf = async (body: Record<string, unknown>) => issueKey(owner.client, body);
  const readKey = await keyOf({ scopes: ['read'] });
  const buildKey = await keyOf({ scopes: ['build'] });
  const spendKey = await keyOf({ scopes: ['spend'] });
  const allKey = await keyOf({});
  const limitKey = await keyOf({ spend_limit_credits: SPEND_LIMIT_CREDITS });
  const reachLimit = { userId: owner.user.id, amount: SPEND_LIMIT_CREDITS, reason: 'matrix: reach the key limit', apiKeyId: limitKey.id };
  await services.db.transaction((m) => services.ledger.charge(reachLimit, m));
  const revokedKey = await keyOf({});
  const revoked = await owner.client.post(`/api/v1/auth/api-tokens/${revokedKey.id}/revoke/`);
  if (revoked.status !== 200) throw new Error(`revoke failed: ${revoked.status} ${revoked.text}`);
  const expiredKey = await keyOf({ expires_in_days: 1 });
  await rows(services.db, 'UPDATE api_keys SET expires_at = $2 WHERE id = $1', [expiredKey.id, new Date(app.clock.now().getTime() - 60_000)]);
  const victim = await keyOf({ name: 'victim' });

  const appOrganization = 'Matrix Org';
  const appKey = await services.app.keys.create({ organization: appOrganization, contactEmail: 'matrix@example.org' });
  const deactivated = await services.app.keys.create({ organization: appOrganization, contactEmail: 'matrix@example.org' });
  await services.app.keys.deactivate(deactivated.key.id);
  const victimAppKey = await services.app.keys.create({ organization: appOrganization, contactEmail: 'matrix@example.org' });

  const users = { owner: owner.user, other: other.user, staff: staff.user };
  const renew = (user: User) => async (): Promise<Credentials> => {
    const session = await services.auth.login(user.email, PASSWORD, '127.0.0.1');
    return { sessionToken: session.token, csrfToken: session.csrfToken };
  };
  const token = (key: string) => ({ authorization: `Token ${key}` });
  const live: Record<string, Omit<LiveCaller, 'spec'>> = {
    'no credentials': { credentials: {} },
    'malformed token': { credentials: { authorization: 'Token not a key' } },
    'revoked key': { credentials: token(revokedKey.key) },
    'expired key': { credentials: token(expiredKey.key) },
    'read key': { credentials: token(readKey.key) },
    'build key': { credentials: token(buildKey.key) },
    'spend key': { credentials: token(spendKey.key) },
    'all-scope key': { credentials: token(allKey.key) },
    'key at its spend limit': { credentials: token(limitKey.key) },
    'session without CSRF token': { credentials: { sessionToken: sessionOf(owner.client).sessionToken } },
    session: { credentials: sessionOf(owner.client), renew: renew(owner.user) },
    "another user's session": { credentials: sessionOf(other.client), renew: renew(other.user) },
    'staff session': { credentials: sessionOf(staff.client), renew: renew(staff.user) },
    'application key (X-API-Key)': { credentials: { apiKey: appKey.plaintext } },
    'application key as Authorization: Token': { credentials: token(appKey.plaintext) },
    'deactivated application key': { credentials: { apiKey: deactivated.plaintext } },
    'studio key in X-API-Key': { credentials: { apiKey: allKey.key } },
  };
  const callers = CALLERS.map((spec) => {
    const found = live[spec.name];
    if (!found) throw new Error(`no credentials for caller ${spec.name}`);
    return { spec, ...found };
  });

  const component = await libraryComponent(services, { label: 'Matrix reusable' });
  const assemblyBody = (publish: boolean) => ({
    title: `Matrix model ${publish ? 'published' : 'draft'}`,
    data: { label: 'Matrix root', components: [{ ct_id: component.ctId }] },
    publish,
    generate: false,
  });
  const assemble = async (publish: boolean) => {
    const res = await owner.client.post('/api/v1/dmgen/assemble/', assemblyBody(publish));
    if (res.status !== 200) throw new Error(`assemble failed: ${res.status} ${res.text}`);
    return res.body.ct_id as string;
  };
  const draftDm = await assemble(false);
  const publishedDm = await assemble(true);
  await services.packages.generateApp(publishedDm, 'os');

  const jobOf = async (user: User) => {
    const job = await services.db.transaction((manager) =>
      services.jobs.enqueue(manager, { kind: 'upload', userId: user.id, apiKeyId: null, request: { filename: 'matrix.csv' } }),
    );
    return { id: job.id, ctId: job.ctId };
  };

  return {
    app,
    users,
    callers,
    libraryComponentCtId: component.ctId,
    draftDm,
    publishedDm,
    jobs: { owner: await jobOf(owner.user), other: await jobOf(other.user), staff: await jobOf(staff.user) },
    victimKeyId: victim.id,
    appOrganization,
    victimAppKeyId: victimAppKey.key.id,
    loginUser: { email: loginUser.email, password: PASSWORD },
    assemblyBody,
    freshOwnerKey: async () => (await services.keys.create(owner.user.id, parseCreateKey({ name: nextName('fresh') }))).id,
    freshAppKey: async () => (await services.app.keys.create({ organization: appOrganization, contactEmail: 'matrix@example.org' })).key.id,
  };
}
