import express, { type Router } from 'express';
import { installedPackageDir } from '../lib/project';

/** GraphiQL 3 from node_modules (no CDN: these machines have no internet). */
export function graphiqlRouter(): Router {
  const router = express.Router();
  router.use('/_graphiql/graphiql', express.static(installedPackageDir('graphiql'), { index: false }));
  router.use('/_graphiql/react', express.static(installedPackageDir('react', 'umd'), { index: false }));
  router.use('/_graphiql/react-dom', express.static(installedPackageDir('react-dom', 'umd'), { index: false }));
  router.get('/graphql', (req, res, next) => {
    if (!req.accepts('text/html') || req.query.query !== undefined || req.headers.upgrade) return next();
    res.type('html').send(GRAPHIQL_PAGE);
  });
  return router;
}

/** What GraphiQL opens with (until the browser has a document of its own): this API's three kinds of operation
 * and where the key goes. */
export const DEFAULT_DOCUMENT = `# sdc-gateway: GraphQL for SDC4 model assembly.
#
# Authentication: open the Headers pane below and send your API key as
#   {"Authorization": "Token <your key>"}
# (create a key signed in at /account/keys/). Subscriptions send the same header in connection_init.
# Without a key, public catalog reads still work; signed in at /account/, this page uses your session.
#
# Run one operation at a time with the ▶ button.

# 1. The catalog: published models (and your own drafts).
query Catalog {
  catalogModels(search: "vital") {
    ctId
    title
    projectName
    about
  }
}

# 2. What an assembly would cost, without charging (needs a key with "read").
query Estimate {
  estimate(input: { title: "Vitals", data: { label: "Vitals", components: [{ label: "Heart rate", dataType: "XdCount", units: "/min" }] } }) {
    estimateId
    mode
    totalCredits
    totalUsd
    wallet { balanceCredits canPay }
  }
}

# 3. Follow a job live: put its ctId (from assemble) in the Variables pane as {"ctId": "..."}.
subscription FollowJob($ctId: String!) {
  jobUpdated(ctId: $ctId) {
    seq
    status
    step
    error
  }
}
`;

const GRAPHIQL_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>sdc-gateway · GraphiQL</title>
  <link rel="stylesheet" href="/_graphiql/graphiql/graphiql.min.css">
  <style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
  <div id="graphiql">Loading GraphiQL…</div>
  <script src="/_graphiql/react/react.production.min.js"></script>
  <script src="/_graphiql/react-dom/react-dom.production.min.js"></script>
  <script src="/_graphiql/graphiql/graphiql.min.js"></script>
  <script>
    const csrf = (document.cookie.match(/(?:^|; )csrftoken=([^;]*)/) || [])[1];
    const endpoint = location.origin + '/graphql';
    const fetcher = GraphiQL.createFetcher({
      url: endpoint,
      subscriptionUrl: endpoint.replace(/^http/, 'ws'),
      headers: Object.assign({ 'apollo-require-preflight': 'true' }, csrf ? { 'X-CSRFToken': decodeURIComponent(csrf) } : {}),
    });
    ReactDOM.createRoot(document.getElementById('graphiql')).render(
      React.createElement(GraphiQL, { fetcher, defaultQuery: ${JSON.stringify(DEFAULT_DOCUMENT)}, defaultEditorToolbarOpen: true, shouldPersistHeaders: true }),
    );
  </script>
</body>
</html>`;
