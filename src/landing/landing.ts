import express, { type Router } from 'express';
import type { Settings } from '../config';
import { Links } from '../lib/links';
import { API_DOCS_PATH, OPENAPI_PATH } from '../openapi/document';
import { METRICS_PATH } from '../metrics/metrics';

interface LandingLink {
  rel: string;
  title: string;
  href: string;
}

/** What `GET /` links to in this role (ROLE=app has no GraphQL; /metrics only when METRICS is not off). */
function landingLinks(settings: Settings): LandingLink[] {
  const links: Array<LandingLink | false> = [
    settings.role !== 'app' && { rel: 'graphql', title: 'GraphQL (GraphiQL in a browser)', href: '/graphql' },
    settings.role !== 'app' && { rel: 'account', title: 'Your account: sign in, API keys, wallet, jobs', href: '/account/' },
    settings.role !== 'app' && { rel: 'catalog', title: 'Catalog of published models and components', href: '/catalog/' },
    { rel: 'api-docs', title: 'REST API reference', href: API_DOCS_PATH },
    { rel: 'openapi', title: 'OpenAPI 3.1 document', href: OPENAPI_PATH },
    { rel: 'admin', title: 'Admin pages (application API keys; staff sign-in)', href: '/admin/' },
    { rel: 'health', title: 'Liveness', href: '/healthz' },
    { rel: 'ready', title: 'Readiness (database, migrations, storage)', href: '/readyz' },
    settings.metrics !== 'off' && { rel: 'metrics', title: 'Prometheus metrics', href: METRICS_PATH },
  ];
  return links.filter((link): link is LandingLink => link !== false);
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `GET /`: a small HTML page for a browser (Accept: text/html), the same links as JSON otherwise. */
export function landingRouter(settings: Settings): Router {
  const router = express.Router();
  const links = landingLinks(settings);
  const name = settings.role === 'app' ? 'SDC4 generated application' : 'sdc-gateway';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(name)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;padding:24px;max-width:720px;color:#1d2329}a{color:#264b5d}li{margin:6px 0}code{overflow-wrap:anywhere}</style>
</head><body><h1>${escapeHtml(name)}</h1>
<ul>${links.map((l) => `<li><a rel="${l.rel}" href="${escapeHtml(l.href)}">${escapeHtml(l.title)}</a> <code>${escapeHtml(l.href)}</code></li>`).join('')}</ul>
</body></html>`;
  router.get('/', (req, res) => {
    res.vary('Accept');
    if (req.accepts(['application/json', 'text/html']) === 'text/html' && req.headers.accept?.includes('text/html'))
      return void res.type('html').send(html);
    const urls = new Links(settings);
    res.json({ name, links: Object.fromEntries(links.map((l) => [l.rel, { title: l.title, href: urls.absolute(l.href) }])) });
  });
  return router;
}
