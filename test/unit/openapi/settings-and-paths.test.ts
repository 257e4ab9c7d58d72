import { loadSettings } from '../../../src/config';
import { openApiPath } from '../../../src/openapi/document';
import { ROUTES } from '../../../src/rest-compat/routes';

describe('METRICS setting', () => {
  it('defaults to on, with no token', () => {
    expect(loadSettings({})).toMatchObject({ metrics: 'on', metricsToken: null });
  });

  it('token needs METRICS_TOKEN, and refuses to start without it', () => {
    expect(loadSettings({ METRICS: 'token', METRICS_TOKEN: 's3cret' })).toMatchObject({ metrics: 'token', metricsToken: 's3cret' });
    expect(() => loadSettings({ METRICS: 'token' })).toThrow('METRICS=token needs METRICS_TOKEN');
    expect(() => loadSettings({ METRICS: 'yes' })).toThrow('METRICS must be one of off, on, token');
  });
});

describe('OpenAPI paths from Express patterns', () => {
  it('turns :params into {params}', () => {
    expect(openApiPath('/api/v1/catalog/dm/:ctId/skeleton/')).toEqual({ path: '/api/v1/catalog/dm/{ctId}/skeleton/', parameters: ['ctId'] });
    expect(openApiPath('/dmlib/:file')).toEqual({ path: '/dmlib/{file}', parameters: ['file'] });
  });

  it('every route in the table declares a doc with a summary and a success or redirect status', () => {
    const missing = ROUTES.filter((r) => !r.doc?.summary || !Object.keys(r.doc.responses).some((s) => /^[23]\d\d$/.test(s)));
    expect(missing.map((r) => `${r.method.toUpperCase()} ${r.path}`)).toEqual([]);
  });
});
