import { DomainError } from '../../../src/lib/errors';
import { errorExtensions } from '../../../src/resolvers/errors';
import { jobResultOf } from '../../../src/resolvers/job-results';

describe('GraphQL error extensions', () => {
  it('keep the REST error_type as code and the HTTP status; camelCase the other fields at any depth', () => {
    const error = new DomainError(402, 'insufficient_funds', 'Not enough credits.', {
      balance_credits: 120,
      estimated_cost_credits: 700,
      details: { root_tag: 'root', 'data.components[0]': ['bad'], 'X-API-Key': ['missing'] },
      problems: [{ ct_id: 'a', successor_ct_id: null }],
    });
    expect(errorExtensions(error)).toEqual({
      code: 'insufficient_funds',
      status: 402,
      balanceCredits: 120,
      estimatedCostCredits: 700,
      details: { rootTag: 'root', 'data.components[0]': ['bad'], 'X-API-Key': ['missing'] },
      problems: [{ ctId: 'a', successorCtId: null }],
    });
  });

  it('name a field called status `state`, so extensions.status stays the HTTP status', () => {
    const error = new DomainError(409, 'key_not_active', 'Only an active key can be rotated.', { status: 'revoked' });
    expect(errorExtensions(error)).toEqual({ code: 'key_not_active', status: 409, state: 'revoked' });
  });
});

describe('Job.result', () => {
  const links = { dm_ct_id: 'dm1', model_url: 'http://m', catalog_url: 'http://c', package_url: null };

  it('is typed by the job kind, camelCase', () => {
    expect(jobResultOf({ kind: 'assemble', result: { ...links, published: true, generated: false, finalize_error: null } })).toEqual({
      dmCtId: 'dm1',
      modelUrl: 'http://m',
      catalogUrl: 'http://c',
      packageUrl: null,
      published: true,
      generated: false,
      finalizeError: null,
    });
    const upload = jobResultOf({
      kind: 'upload',
      result: { ...links, published: false, generated: false, columns: [{ label: 'A', data_type: 'XdCount' }] },
    });
    expect(upload).toMatchObject({ dmCtId: 'dm1', columns: [{ label: 'A', dataType: 'XdCount' }] });
    const app = jobResultOf({ kind: 'generate_app', result: { ...links, profile: 'enterprise', app_name: 'Vitals', app_url: 'http://a' } });
    expect(app).toMatchObject({ dmCtId: 'dm1', profile: 'enterprise', appName: 'Vitals', appUrl: 'http://a' });
    expect(upload?.constructor.name).toBe('UploadJobResultType');
    expect(app?.constructor.name).toBe('GenerationType');
  });

  it('an assembly that failed before finalizing keeps its links, not published; no result is null', () => {
    expect(jobResultOf({ kind: 'assemble', result: links })).toMatchObject({
      dmCtId: 'dm1',
      published: false,
      generated: false,
      finalizeError: null,
    });
    expect(jobResultOf({ kind: 'upload', result: null })).toBeNull();
  });
});
