import { loadSettings } from '../../src/config';
import { statePopulationXml } from '../unit/xml/fixtures';
import { moneyAudit, moneyState, vaasMoneySuite } from './money-helpers';

/** A VaaS request stopped by its CPU budget did work: it is charged its validation, so flooding the pool with
 * instances that run past the budget is never free (it used to release its hold). */

const cpu = loadSettings({}).cpu;
const suite = vaasMoneySuite({ cpu: { ...cpu, taskBudgetMs: 1 } });

afterEach(async () => expect(await moneyAudit(suite.app().services.db)).toEqual([]));

describe('VaaS past its CPU budget', () => {
  jest.setTimeout(120_000);

  it('answers 422 processing_budget_exceeded and charges the validation, over REST and GraphQL', async () => {
    const { userId, client, key } = await suite.customer(100);
    const rest = await fetch(`${suite.app().url}/api/v1/vaas/validate/sign/?mode=strict`, {
      method: 'POST',
      headers: { authorization: `Token ${key}`, 'content-type': 'application/xml' },
      body: statePopulationXml(),
    });
    expect(rest.status).toBe(422);
    expect(((await rest.json()) as { error_type: string }).error_type).toBe('processing_budget_exceeded');
    let state = await moneyState(suite.app().services.db, userId);
    // The validation's 1 credit captured, the signature's 5 released.
    expect([state.balance, state.held, state.captures, state.releases]).toEqual([99, 0, 1, 0]);

    const gql = await client.graphql('mutation ($xml: String!) { validateInstance(xml: $xml) { valid } }', { xml: statePopulationXml() });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'processing_budget_exceeded' });
    state = await moneyState(suite.app().services.db, userId);
    // A validation alone is charged on admission and the charge is kept: no hold, nothing refunded.
    const [refunds] = await suite
      .app()
      .services.db.query("SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1 AND kind = 'refund'", [userId]);
    expect([state.balance, state.held, state.captures, refunds.n]).toEqual([98, 0, 1, 0]);
  });
});
