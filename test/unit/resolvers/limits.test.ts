import { buildSchema, getIntrospectionQuery, parse, specifiedRules, validate } from 'graphql';
import { onlySubscriptions, queryLimitsRule, requestProblem, writtenSelections } from '../../../src/resolvers/limits';
import { expectWithinBaseline, msOfSync } from '../../support/baseline';

const limits = { maxDepth: 12, maxCost: 1000, maxRootFields: 50 };
const schema = buildSchema('type User { email: String, friends: [User] } type Query { me: User, n(x: In): Int } input In { a: Int, b: [In] }');
const aliases = (n: number, field = 'me { email }') => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;
const ruleErrors = (query: string) => validate(schema, parse(query), [...specifiedRules, queryLimitsRule(limits)]).map((e) => e.message);

describe('GRAPHQL_MAX_ROOT_FIELDS and GRAPHQL_MAX_COST', () => {
  it('the rule counts root fields with aliases and root fragments expanded, and names the setting', () => {
    expect(ruleErrors(aliases(50))).toEqual([]);
    expect(ruleErrors(aliases(51))).toEqual(['Query too complex: more than 50 root fields (aliases counted; GRAPHQL_MAX_ROOT_FIELDS).']);
    const fragment = `{ ...Q } fragment Q on Query { ${Array.from({ length: 51 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    expect(ruleErrors(fragment)).toEqual(['Query too complex: more than 50 root fields (aliases counted; GRAPHQL_MAX_ROOT_FIELDS).']);
    expect(ruleErrors(`{ me { ${Array.from({ length: 1000 }, (_, i) => `e${i}: email`).join(' ')} } }`)[0]).toMatch(/GRAPHQL_MAX_COST/);
  });

  it('counts written selections without parsing: aliases once, spreads and inline fragments, not arguments', () => {
    expect(writtenSelections(aliases(3), limits)).toEqual({ total: 6, root: 3, planning: 0 });
    expect(
      writtenSelections(
        'query Q($v: In = { a: 1, b: [{ a: 2 }] }) { n(x: { a: 1, b: [{ a: 2 }] }) me @include(if: true) { ...F ... on User { email } } }',
        limits,
      ),
    ).toEqual({
      total: 5,
      root: 2,
      planning: 0,
    });
    // Strings, block strings and comments are skipped; fragment definitions have no root fields.
    expect(writtenSelections('# { a b c }\n{ n(x: { a: 1 }) } fragment F on User { email friends { email } }', limits)).toEqual({
      total: 3,
      root: 0,
      planning: 0,
    });
    expect(writtenSelections('{ on friends }', limits)).toEqual({ total: 2, root: 2, planning: 0 });
  });

  it('refuses a document over a limit before parsing it, and never one within them', () => {
    expect(requestProblem({ query: aliases(2400) }, limits)?.message).toMatch(/GRAPHQL_MAX_ROOT_FIELDS/);
    expect(requestProblem({ query: `{ me { ${'email '.repeat(1001)} } }` }, limits)?.message).toMatch(/GRAPHQL_MAX_COST/);
    // It stops at the 51st root field: refusing 2,400 aliases costs about what accepting 50 does (a full scan would
    // cost some 48 times as much).
    const accepting = msOfSync(() => {
      for (let i = 0; i < 8; i++) requestProblem({ query: aliases(50) }, limits);
    });
    const refusing = msOfSync(() => {
      for (let i = 0; i < 8; i++) requestProblem({ query: aliases(2400) }, limits);
    });
    expectWithinBaseline(refusing, accepting, 20);
    expect(requestProblem({ query: aliases(50) }, limits)).toBeNull();
    expect(requestProblem({ query: getIntrospectionQuery() }, limits)).toBeNull();
    // Two operations of 600 selections each: each within the cost.
    const ops = `query A { me { ${'email '.repeat(599)} } } query B { me { ${'email '.repeat(599)} } }`;
    expect(requestProblem({ query: ops }, limits)).toBeNull();
  });

  it('refuses a second planning field of one operation before parsing, aliases counted, never one alone', () => {
    const twice = 'query ($i: AssemblyInput!) { a: estimate(input: $i) { totalCredits } b: estimate(input: $i) { totalCredits } }';
    expect(writtenSelections(twice, limits).planning).toBe(2);
    expect(requestProblem({ query: twice }, limits)?.message).toMatch(/at most one of estimate, assemble per operation/);
    // One each in two operations, a field of that name below the root, or an alias named after one: not refused.
    expect(requestProblem({ query: 'query A { estimate { t } } query B { assemble { t } }' }, limits)).toBeNull();
    expect(requestProblem({ query: '{ me { estimate assemble } estimate: me { email } }' }, limits)).toBeNull();
  });
});

describe('onlySubscriptions', () => {
  it('is true when every operation of the text is a subscription, fragments aside', () => {
    expect(onlySubscriptions('subscription { myJobs { ctId } }')).toBe(true);
    expect(onlySubscriptions('# a comment\n subscription Mine($a: Int) @x { myJobs { ...F } } fragment F on Job { ctId }')).toBe(true);
    expect(onlySubscriptions('subscription A { myJobs { ctId } } subscription B { myJobs { seq } }')).toBe(true);
    // Not parsed, so an unclosed one is still one.
    expect(onlySubscriptions('subscription { myJobs { ctId ')).toBe(true);
  });

  it('is false for a query, a mutation, a bare selection set or a mixed document', () => {
    expect(onlySubscriptions('{ me { email } }')).toBe(false);
    expect(onlySubscriptions('query { me { email } }')).toBe(false);
    expect(onlySubscriptions('mutation { signOut }')).toBe(false);
    expect(onlySubscriptions('subscription S { myJobs { ctId } } query Q { me { email } }')).toBe(false);
    expect(onlySubscriptions('"subscription" { me { email } }')).toBe(false);
    expect(onlySubscriptions('fragment F on Job { ctId }')).toBe(false);
    expect(onlySubscriptions('')).toBe(false);
  });
});
