import path from 'node:path';
import express, { type Router } from 'express';
import { installedPackageDir, projectVersion } from '../lib/project';
import type { AnyRoute } from '../rest-compat/route-table';
import { API_DOCS_PATH, buildOpenApiDocument, OPENAPI_PATH, type OpenApiOptions } from './document';

const SWAGGER_UI_DIR = installedPackageDir('swagger-ui-dist');
/** The Swagger UI files DOCS_PAGE uses, all it serves of swagger-ui-dist. */
const DOCS_ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js'];

/** `/api/openapi.json` and its rendered page at `/api/docs/` (Swagger UI from node_modules: works offline). */
export function openApiRouter(routes: AnyRoute[], options: Omit<OpenApiOptions, 'version'>): Router {
  const document = JSON.stringify(buildOpenApiDocument(routes, { ...options, version: projectVersion() }));
  const router = express.Router();
  router.get(OPENAPI_PATH, (_req, res) => {
    res.type('application/json').send(document);
  });
  // Only the files the docs page loads: not the package's own initializer (the Petstore demo), maps or bundles.
  for (const file of DOCS_ASSETS) {
    router.get(`/api/docs/assets/${file}`, (_req, res) => res.sendFile(path.join(SWAGGER_UI_DIR, file)));
  }
  router.get(['/api/docs', API_DOCS_PATH], (req, res) => {
    if (req.path === '/api/docs') return res.redirect(301, API_DOCS_PATH);
    res.type('html').send(DOCS_PAGE);
  });
  return router;
}

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>sdc-gateway · REST API</title>
  <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui">Loading the API description…</div>
  <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '${OPENAPI_PATH}', dom_id: '#swagger-ui', deepLinking: true });
  </script>
</body>
</html>`;
