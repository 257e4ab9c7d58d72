import express, { type Router } from 'express';
import type { Services } from '../container';
import { accountRoutes } from './account.routes';
import { assetsRouter } from './assets';
import { catalogRoutes } from './catalog.routes';
import { pageHeaders } from './guard';

/**
 * Pages for people (server-rendered, working without JavaScript): sign-in, API keys, wallet and jobs under
 * /account/, and the public catalog under /catalog/. An edge like REST and GraphQL: each page parses its form,
 * checks the session (and its CSRF token for a POST), calls one service and renders.
 */
export function accountPages(services: Services): Router {
  const router = express.Router();
  router.use(assetsRouter());
  router.use(['/account', '/catalog'], pageHeaders);
  router.use(accountRoutes(services));
  router.use(catalogRoutes(services));
  return router;
}
