import 'reflect-metadata';
import { getMetadataStorage } from 'type-graphql';
import { buildGatewaySchema } from '../../src/resolvers/schema';
import { ROUTES } from '../../src/rest-compat/routes';

const REQUIREMENTS = ['public', 'read', 'build', 'spend', 'session', 'staff', 'app_key'];

describe('every operation declares what it needs', () => {
  it('each REST route of either interface names one requirement', () => {
    expect(ROUTES.length).toBeGreaterThan(0);
    for (const r of ROUTES) {
      expect({ route: `${r.method.toUpperCase()} ${r.path}`, ok: REQUIREMENTS.includes(r.requirement) }).toEqual({
        route: `${r.method.toUpperCase()} ${r.path}`,
        ok: true,
      });
    }
  });

  it('each GraphQL query, mutation and subscription field is @Requires-decorated', async () => {
    const schema = await buildGatewaySchema();
    const authorized = new Set(getMetadataStorage().authorizedFields.map((f) => f.fieldName));
    const rootFields = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]
      .filter((t) => t !== null && t !== undefined)
      .flatMap((t) => Object.keys(t.getFields()));
    expect(rootFields.length).toBeGreaterThan(0);
    expect(rootFields.filter((name) => !authorized.has(name))).toEqual([]);
  });
});
