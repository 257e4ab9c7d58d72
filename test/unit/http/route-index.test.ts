import { RouteIndex } from '../../../src/http/route-index';
import { ROUTES } from '../../../src/rest-compat/routes';

describe('RouteIndex', () => {
  const index = new RouteIndex<string>();
  index.add('get', '/api/v1/jobs/:ctId/', 'job');
  index.add('get', '/api/v1/jobs/', 'jobs');
  index.add('post', '/api/v1/jobs/:ctId/cancel/', 'cancel');
  index.add('get', '/api/v1/keys/legacy/', 'legacy');
  index.add('get', '/api/v1/keys/:id/', 'key');

  it('finds a route by its exact path, with decoded parameters, ignoring the query string', () => {
    expect(index.find('GET', '/api/v1/jobs/abc%20d/?x=1')).toEqual({ handler: 'job', pattern: '/api/v1/jobs/:ctId/', params: { ctId: 'abc d' } });
    expect(index.find('GET', '/api/v1/jobs/')).toEqual({ handler: 'jobs', pattern: '/api/v1/jobs/', params: {} });
    expect(index.find('POST', '/api/v1/jobs/j1/cancel/')?.handler).toBe('cancel');
  });

  it('answers HEAD with the GET route, and misses other methods', () => {
    expect(index.find('HEAD', '/api/v1/jobs/')?.handler).toBe('jobs');
    expect(index.find('DELETE', '/api/v1/jobs/')).toBeNull();
  });

  it('prefers a literal segment to a parameter', () => {
    expect(index.find('GET', '/api/v1/keys/legacy/')?.handler).toBe('legacy');
    expect(index.find('GET', '/api/v1/keys/7/')?.params).toEqual({ id: '7' });
  });

  it('misses every other spelling, which the full router then answers', () => {
    for (const url of [
      '/api/v1/jobs',
      '/API/v1/jobs/',
      '/api/v1/jobs//',
      '//api/v1/jobs/',
      '/api/v1/jobs/%E0%A4%A/',
      'api/v1/jobs/',
      '/api/v1/jobs/x/y/',
    ])
      expect(index.find('GET', url)).toBeNull();
  });

  it('refuses a pattern declared twice and clashing parameter names', () => {
    expect(() => index.add('get', '/api/v1/jobs/', 'again')).toThrow('declared twice');
    expect(() => index.add('get', '/api/v1/jobs/:other/x/', 'clash')).toThrow('clashes');
  });

  it('takes the whole route table, and a literal never shadows a parameter route declared before it', () => {
    const table = new RouteIndex<number>();
    ROUTES.forEach((route, i) => table.add(route.method, route.path, i));
    ROUTES.forEach((route, i) => {
      // The path with each parameter replaced by a value no literal segment has: it must come back to this route.
      const url = route.path.replace(/:[A-Za-z]+/g, 'zz-value');
      expect(table.find(route.method.toUpperCase(), url)?.handler).toBe(i);
    });
    // Where a literal segment sits beside a parameter, Express answers the one declared first: the literal must be.
    ROUTES.forEach((route, i) => {
      const literalTwin = ROUTES.findIndex(
        (other) =>
          other.method === route.method &&
          other.path.split('/').length === route.path.split('/').length &&
          other.path
            .split('/')
            .every((segment, k) => segment === route.path.split('/')[k] || (route.path.split('/')[k].startsWith(':') && !segment.startsWith(':'))) &&
          other.path !== route.path,
      );
      if (literalTwin !== -1) expect(literalTwin).toBeLessThan(i);
    });
  });
});
