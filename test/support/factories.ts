import { randomBytes } from 'node:crypto';
import type { Services } from '../../src/container';
import { HttpClient } from './http';

export const PASSWORD = 'correct horse battery';

export async function makeUser(services: Services, opts: { staff?: boolean; credits?: number; email?: string } = {}) {
  const email = opts.email ?? `user-${randomBytes(4).toString('hex')}@example.org`;
  const user = await services.users.create({ email, password: PASSWORD, isStaff: opts.staff });
  if (opts.credits) await services.ledger.credit(user.id, opts.credits, 'test credit');
  return user;
}

/** A signed-in browser-like client for a new user. */
export async function signedIn(baseUrl: string, services: Services, opts: { staff?: boolean; credits?: number } = {}) {
  const user = await makeUser(services, opts);
  const client = new HttpClient(baseUrl);
  const res = await client.post('/api/v1/auth/login/', { email: user.email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  return { user, client };
}

export async function issueKey(client: HttpClient, body: Record<string, unknown> = {}) {
  const res = await client.post('/api/v1/auth/api-tokens/', { name: `key-${randomBytes(3).toString('hex')}`, ...body });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${res.text}`);
  return res.body as { id: number; key: string; [k: string]: unknown };
}

/** The column types an upload job must infer from ../shared/fixtures/sdc4/sources/StatePopulation.csv (issue text). */
export const STATE_POPULATION_COLUMNS = [
  { label: 'State', data_type: 'XdString' },
  { label: 'Total Population', data_type: 'XdCount' },
  { label: 'Adult Population', data_type: 'XdCount' },
  { label: 'Adult Population Percentage', data_type: 'XdQuantity' },
];
