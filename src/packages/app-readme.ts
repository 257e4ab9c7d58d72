import { appSlug, GRAPHDB_REPOSITORY, type AppProfile } from './app-compose';
import type { DataModelDocument } from '../domain/model-tree';
import { markdownInline } from './escape';

/** README.md of an application package: what it runs and the steps to get it running. */

const TRIPLESTORE: Record<AppProfile, string[]> = {
  os: [
    '- `triplestore`: Oxigraph, an open-source SPARQL 1.1 store. The application writes each validated',
    '  instance to it through the SPARQL Graph Store protocol (`http://triplestore:7878/store`).',
    '  Its query endpoint is published on `127.0.0.1:${TRIPLESTORE_PORT:-7878}/query`.',
  ],
  enterprise: [
    '- `graphdb`: Ontotext GraphDB, with its heap set by `GRAPHDB_HEAP`. The `graphdb-init` step creates the',
    `  repository \`${GRAPHDB_REPOSITORY}\` from \`graphdb/repository-config.ttl\` (RDFS-Plus ruleset, context index) once`,
    '  GraphDB answers, and the application writes to it through the RDF4J REST API.',
    '  The workbench is published on `http://127.0.0.1:${GRAPHDB_PORT:-7200}`.',
    '  With GraphDB security enabled, set `GRAPHDB_USER` and `GRAPHDB_PASSWORD` in `.env`.',
    '  For a licensed edition, mount the licence file at `/opt/graphdb/home/conf/graphdb.license`.',
  ],
};

export function generateAppReadme(args: { appName: string; profile: AppProfile; models: Array<{ model: DataModelDocument }> }): string {
  const folder = appSlug(args.appName);
  return [
    `# ${markdownInline(args.appName)}`,
    '',
    `An SDC4 application (profile \`${args.profile}\`): the SDC gateway in the application role, serving`,
    'validation of XML instances, uploads of packages, schemas and RDF, and triplestore synchronisation for:',
    '',
    ...args.models.map(({ model }) => `- ${markdownInline(model.title)} (\`dm-${model.ctId}\`)`),
    '',
    '## What runs',
    '',
    '- `app`: the gateway image with `ROLE=app`, listening on port `${APP_PORT:-4000}`. At start it reads `app.json`',
    '  (`APP_CONFIG`) and warns about any listed model file missing from `dmlib/`; it serves that schema library',
    '  (XSD, HTML documentation and RDF of each model).',
    '- `postgres`: PostgreSQL 16 for API keys, stored files and validation results.',
    ...TRIPLESTORE[args.profile],
    '',
    '## Run it',
    '',
    '1. Install Docker with the compose plugin.',
    '2. Make the gateway image available as `sdc-gateway:0.1.0` (or set `SDC_GATEWAY_IMAGE` in `.env`). From a',
    '   checkout of the gateway: `docker build -f docker/Dockerfile -t sdc-gateway:0.1.0 .`',
    '3. In this folder:',
    '',
    '```sh',
    `cd ${folder}`,
    'cp .env.example .env        # then set POSTGRES_PASSWORD',
    'docker compose up -d',
    'docker compose ps           # wait until every service is running',
    '```',
    '',
    '4. Create the staff account that signs in to the administrative interface (`/admin/`):',
    '',
    '```sh',
    "docker compose exec app node dist/src/cli.js user create --email you@example.org --password 'at-least-8-chars' --staff",
    '```',
    '',
    '5. Create an API key in the administrative interface at `/admin/api/apikey/` (or on the command line:',
    "   `docker compose exec app node dist/src/cli.js app-key create --org 'Your org' --email you@example.org`),",
    '   then validate an instance, for example the `dm-<ct_id>.xml` of a model package:',
    '',
    '```sh',
    `curl -H "X-API-Key: $API_KEY" -F file=@dm-${args.models[0]?.model.ctId ?? '<ct_id>'}.xml http://localhost:4000/api/v1/validate/xml/`,
    '```',
    '',
    "The schema files in `dmlib/` are mounted into the application's storage, so every model listed above can be",
    'validated from the first start. If the container cannot write there, run `chmod -R a+rwX dmlib`.',
    '',
    'The SDC4 reference schema (`sdc4.xsd`) needs no step: the first validation fetches it from',
    '`https://semanticdatacharter.com/ns/sdc4/sdc4.xsd` and keeps it in Postgres, so the application works offline',
    'from then on. A host without internet sets `SDC4_SCHEMA_MIRROR` in `.env` to a mirror of `/ns/sdc4/`.',
    '',
    'Stop with `docker compose down`; add `-v` to delete the data volumes as well.',
    '',
  ].join('\n');
}
