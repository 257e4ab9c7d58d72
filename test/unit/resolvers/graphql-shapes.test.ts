import { DomainError } from '../../../src/lib/errors';
import { errorExtensions } from '../../../src/resolvers/errors';
import { renderJobResult } from '../../../src/presenters/job.presenter';
import { jobResultNode } from '../../../src/resolvers/jobs.types';

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
  const links = { dmCtId: 'dm1', modelUrl: 'http://m', catalogUrl: 'http://c', packageUrl: null };
  const restLinks = { dm_ct_id: 'dm1', model_url: 'http://m', catalog_url: 'http://c', package_url: null };

  it('is typed by the job kind, camelCase, as the job keeps it', () => {
    expect(jobResultNode({ kind: 'assemble', result: { ...links, published: true, generated: false } })).toEqual({
      ...links,
      published: true,
      generated: false,
      finalizeError: null,
    });
    const columns = [{ label: 'A', dataType: 'XdCount' }];
    const upload = jobResultNode({ kind: 'upload', result: { ...links, published: false, generated: false, columns } });
    expect(upload).toMatchObject({ dmCtId: 'dm1', columns });
    const app = jobResultNode({ kind: 'generate_app', result: { ...links, profile: 'enterprise', appName: 'Vitals', appUrl: 'http://a' } });
    expect(app).toMatchObject({ dmCtId: 'dm1', profile: 'enterprise', appName: 'Vitals', appUrl: 'http://a' });
    expect(upload?.constructor.name).toBe('UploadJobResultType');
    expect(app?.constructor.name).toBe('GenerationType');
  });

  it('an assembly that failed before finalizing keeps its links, not published; no result is null', () => {
    expect(jobResultNode({ kind: 'assemble', result: links })).toMatchObject({
      dmCtId: 'dm1',
      published: false,
      generated: false,
      finalizeError: null,
    });
    expect(jobResultNode({ kind: 'upload', result: null })).toBeNull();
  });

  it('is rendered by REST in the contract snake_case, each kind with its own fields', () => {
    expect(renderJobResult({ kind: 'assemble', result: links })).toEqual(restLinks);
    expect(renderJobResult({ kind: 'assemble', result: { ...links, published: true, generated: true, finalizeError: 'disk full' } })).toEqual({
      ...restLinks,
      published: true,
      generated: true,
      finalize_error: 'disk full',
    });
    const columns = [{ label: 'A', dataType: 'XdCount' }];
    expect(renderJobResult({ kind: 'upload', result: { ...links, published: false, generated: false, columns } })).toEqual({
      ...restLinks,
      published: false,
      generated: false,
      columns: [{ label: 'A', data_type: 'XdCount' }],
    });
    const generation = { ...links, profile: null, appName: null, appUrl: null };
    expect(renderJobResult({ kind: 'generate_package', result: generation })).toEqual(restLinks);
    expect(renderJobResult({ kind: 'generate_app', result: { ...generation, profile: 'os', appName: 'A', appUrl: 'http://a' } })).toEqual({
      ...restLinks,
      profile: 'os',
      app_name: 'A',
      app_url: 'http://a',
    });
    expect(renderJobResult({ kind: 'upload', result: null })).toBeNull();
  });
});
