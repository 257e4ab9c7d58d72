/** The HTTP methods of the route table. */
export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** What a request's method and path resolved to: the route's handler, its pattern and its decoded parameters. */
export interface IndexHit<H> {
  handler: H;
  pattern: string;
  params: Record<string, string>;
}

interface Node<H> {
  /** Children by their literal segment. */
  literal: Map<string, Node<H>>;
  /** The child that takes any one non-empty segment, and the parameter it names. */
  param: { name: string; node: Node<H> } | null;
  /** Handlers of a pattern ending here, by upper-case method. */
  handlers: Map<string, { handler: H; pattern: string }>;
}

const node = <H>(): Node<H> => ({ literal: new Map(), param: null, handlers: new Map() });

/**
 * Exact-match index of route patterns (`/api/v1/keys/:id/`: literal segments and `:name` parameters, each one whole
 * segment), looked up by walking the path's segments once: the cost no longer grows with the number of routes, as
 * Express's walk of one layer a route does. It answers only the exact spelling (case, trailing slash) and a
 * well-formed percent-encoding; anything else misses, and the caller falls back to the full Express router, which
 * answers the variants as before.
 */
export class RouteIndex<H> {
  private readonly root = node<H>();

  add(method: string, pattern: string, handler: H): void {
    let at = this.root;
    for (const segment of pattern.split('/').slice(1)) {
      if (segment.startsWith(':')) {
        const name = segment.slice(1);
        if (at.param && at.param.name !== name) throw new Error(`route ${pattern}: parameter :${name} clashes with :${at.param.name}`);
        at.param ??= { name, node: node<H>() };
        at = at.param.node;
      } else {
        let next = at.literal.get(segment);
        if (!next) at.literal.set(segment, (next = node<H>()));
        at = next;
      }
    }
    const verb = method.toUpperCase();
    if (at.handlers.has(verb)) throw new Error(`route ${verb} ${pattern} is declared twice`);
    at.handlers.set(verb, { handler, pattern });
  }

  /** The route of `url` (its query string ignored) for `method`, HEAD answered by GET's; null on a miss. */
  find(method: string, url: string): IndexHit<H> | null {
    const query = url.indexOf('?');
    const segments = (query === -1 ? url : url.slice(0, query)).split('/');
    if (segments[0] !== '') return null;
    let at = this.root;
    let params: Record<string, string> | null = null;
    for (let i = 1; i < segments.length; i++) {
      const segment = segments[i];
      const literal = at.literal.get(segment);
      if (literal) {
        at = literal;
        continue;
      }
      if (!at.param || segment === '') return null;
      let value: string;
      try {
        value = decodeURIComponent(segment);
      } catch {
        return null;
      }
      (params ??= {})[at.param.name] = value;
      at = at.param.node;
    }
    const hit = at.handlers.get(method) ?? (method === 'HEAD' ? at.handlers.get('GET') : undefined);
    return hit ? { handler: hit.handler, pattern: hit.pattern, params: params ?? {} } : null;
  }
}
