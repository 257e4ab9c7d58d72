import express, { type Request, type Response, type Router } from 'express';
import type { Services } from '../container';
import { DomainError } from '../lib/errors';
import { parseComponentQuery, parseModelQuery } from '../parsers/catalog.parser';
import type { Caller } from '../services/auth.service';
import { catalogPage, modelPage } from './catalog.pages';
import { optionalCaller } from './guard';
import { errorBox, layout, type Viewer } from './layout';

const COMPONENTS_SHOWN = 50;

const viewerOf = (caller: Caller | null): Viewer | null =>
  caller?.via === 'session' ? { email: caller.user.email, csrfToken: caller.session.csrfToken } : null;

/** The public catalog for people: the REST catalog's visibility (published entries; a signed-in person's own
 * drafts too) and its hourly read limit. */
export function catalogRoutes(services: Services): Router {
  const router = express.Router();

  /** Counts the read against the hourly limit, as the REST catalog does, and names who reads. */
  const reader = async (req: Request, caller: Caller | null) => {
    const userId = caller?.user.id ?? null;
    await services.readLimits.check(userId === null ? null : { userId }, req.ip ?? 'unknown');
    return { userId };
  };

  const failed = (res: Response, viewer: Viewer | null, error: unknown) => {
    if (!(error instanceof DomainError)) throw error;
    res
      .status(error.status)
      .type('html')
      .send(layout({ title: error.status === 404 ? 'Not found' : 'Catalog', section: 'catalog', viewer, body: errorBox(error.message) }));
  };

  router.get('/catalog/', async (req, res) => {
    const caller = await optionalCaller(services, req);
    const viewer = viewerOf(caller);
    const search = typeof req.query.search === 'string' ? req.query.search : '';
    try {
      const raw = { search: search.trim() || undefined };
      const modelQuery = parseModelQuery(raw);
      const componentQuery = parseComponentQuery({ ...raw, page: req.query.page, pageSize: COMPONENTS_SHOWN });
      const who = await reader(req, caller);
      const models = await services.catalog.listModels(modelQuery, who);
      const components = await services.catalog.listComponents(componentQuery, who);
      res.type('html').send(catalogPage({ viewer, search, models, components }));
    } catch (error) {
      failed(res, viewer, error);
    }
  });

  router.get('/catalog/:ctId/', async (req, res) => {
    const caller = await optionalCaller(services, req);
    const viewer = viewerOf(caller);
    try {
      const model = await services.catalog.modelDetail(req.params.ctId, await reader(req, caller));
      res.type('html').send(modelPage({ viewer, model, schemaUrl: model.published ? services.schemas.schemaUrl(model.ctId) : null }));
    } catch (error) {
      failed(res, viewer, error);
    }
  });

  return router;
}
