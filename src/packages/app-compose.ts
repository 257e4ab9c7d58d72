import { turtleString } from './escape';
import type { YamlValue } from './yaml-text';

/** The docker compose project of a generated application: this service in the application role (ROLE=app),
 * Postgres, and a triplestore: Oxigraph (open source) for the `os` profile, GraphDB for `enterprise`. */

export const APP_PROFILES = ['os', 'enterprise'] as const;
export type AppProfile = (typeof APP_PROFILES)[number];

export const GRAPHDB_REPOSITORY = 'sdc4';
const IMAGES = {
  app: '${SDC_GATEWAY_IMAGE:-sdc-gateway:0.1.0}',
  postgres: 'postgres:16',
  oxigraph: 'ghcr.io/oxigraph/oxigraph:0.5.11',
  graphdb: '${GRAPHDB_IMAGE:-ontotext/graphdb:10.8.14}',
  curl: 'curlimages/curl:8.11.1',
};

function triplestoreEnvironment(profile: AppProfile): Record<string, string> {
  if (profile === 'os') {
    return {
      TRIPLESTORE_PROTOCOL: 'graph-store',
      TRIPLESTORE_URL: 'http://triplestore:7878/store',
      TRIPLESTORE_QUERY_URL: 'http://triplestore:7878/query',
    };
  }
  return {
    TRIPLESTORE_PROTOCOL: 'graphdb',
    TRIPLESTORE_URL: 'http://graphdb:7200',
    TRIPLESTORE_REPOSITORY: GRAPHDB_REPOSITORY,
    TRIPLESTORE_USER: '${GRAPHDB_USER:-}',
    TRIPLESTORE_PASSWORD: '${GRAPHDB_PASSWORD:-}',
  };
}

function appService(appName: string, profile: AppProfile): Record<string, YamlValue> {
  const triplestoreReady: Record<string, YamlValue> =
    profile === 'os' ? { triplestore: { condition: 'service_started' } } : { 'graphdb-init': { condition: 'service_completed_successfully' } };
  return {
    image: IMAGES.app,
    restart: 'unless-stopped',
    environment: {
      ROLE: 'app',
      APP_NAME: appName,
      APP_CONFIG: '/config/app.json',
      PORT: '4000',
      DATABASE_URL: 'postgres://sdc:${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env}@postgres:5432/sdc_app',
      STORAGE_DIR: '/data/storage',
      SDC4_SCHEMA_MIRROR: '${SDC4_SCHEMA_MIRROR:-}',
      ...triplestoreEnvironment(profile),
    },
    ports: ['${APP_PORT:-4000}:4000'],
    healthcheck: { test: ['CMD', 'node', 'docker/healthcheck.js'], interval: '10s', timeout: '5s', start_period: '30s', retries: 3 },
    volumes: ['./app.json:/config/app.json:ro', 'storage:/data/storage', './dmlib:/data/storage/dmlib'],
    depends_on: { postgres: { condition: 'service_healthy' }, ...triplestoreReady },
  };
}

const POSTGRES: Record<string, YamlValue> = {
  image: IMAGES.postgres,
  restart: 'unless-stopped',
  environment: {
    POSTGRES_USER: 'sdc',
    POSTGRES_PASSWORD: '${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env}',
    POSTGRES_DB: 'sdc_app',
  },
  volumes: ['pgdata:/var/lib/postgresql/data'],
  healthcheck: { test: ['CMD-SHELL', 'pg_isready -U sdc -d sdc_app'], interval: '5s', retries: 20 },
};

const OXIGRAPH: Record<string, YamlValue> = {
  image: IMAGES.oxigraph,
  restart: 'unless-stopped',
  command: ['serve', '--location', '/data', '--bind', '0.0.0.0:7878'],
  volumes: ['triplestore:/data'],
  ports: ['127.0.0.1:${TRIPLESTORE_PORT:-7878}:7878'],
};

const GRAPHDB: Record<string, YamlValue> = {
  image: IMAGES.graphdb,
  restart: 'unless-stopped',
  environment: { GDB_JAVA_OPTS: '-Xms${GRAPHDB_HEAP:-2g} -Xmx${GRAPHDB_HEAP:-2g} -Dgraphdb.home=/opt/graphdb/home' },
  volumes: ['graphdb:/opt/graphdb/home'],
  ports: ['127.0.0.1:${GRAPHDB_PORT:-7200}:7200'],
};

/** Creates the application's repository once GraphDB answers; does nothing when it exists already. */
const GRAPHDB_INIT: Record<string, YamlValue> = {
  image: IMAGES.curl,
  volumes: ['./graphdb/repository-config.ttl:/config/repository-config.ttl:ro'],
  entrypoint: ['/bin/sh', '-c'],
  command: [
    [
      'until curl -sf -o /dev/null http://graphdb:7200/rest/repositories; do sleep 3; done;',
      `curl -sf -o /dev/null http://graphdb:7200/rest/repositories/${GRAPHDB_REPOSITORY} ||`,
      'curl -sf -X POST -F config=@/config/repository-config.ttl http://graphdb:7200/rest/repositories',
    ].join(' '),
  ],
  depends_on: { graphdb: { condition: 'service_started' } },
};

export function composeSpec(appName: string, profile: AppProfile): Record<string, YamlValue> {
  const slug = appSlug(appName);
  const services: Record<string, YamlValue> =
    profile === 'os'
      ? { app: appService(appName, profile), postgres: POSTGRES, triplestore: OXIGRAPH }
      : { app: appService(appName, profile), postgres: POSTGRES, graphdb: GRAPHDB, 'graphdb-init': GRAPHDB_INIT };
  const volumes: Record<string, YamlValue> =
    profile === 'os' ? { pgdata: {}, storage: {}, triplestore: {} } : { pgdata: {}, storage: {}, graphdb: {} };
  return { name: slug, services, volumes };
}

/** A compose project and folder name: lowercase letters, digits, `-` and `_`, starting with a letter or digit. */
export function appSlug(appName: string): string {
  const slug = appName
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 60);
  return slug || 'sdc-app';
}

export function envExample(profile: AppProfile): string {
  const common = [
    '# Copy to .env and set the values before `docker compose up`.',
    'POSTGRES_PASSWORD=change-me',
    'APP_PORT=4000',
    '# SDC_GATEWAY_IMAGE=sdc-gateway:0.1.0',
    '# sdc4.xsd is fetched once from semanticdatacharter.com and kept in Postgres; without internet, a mirror of /ns/sdc4/:',
    '# SDC4_SCHEMA_MIRROR=http://mirror.internal/ns/sdc4/',
  ];
  const triplestore =
    profile === 'os'
      ? ['TRIPLESTORE_PORT=7878']
      : [
          'GRAPHDB_PORT=7200',
          'GRAPHDB_HEAP=2g',
          '# GRAPHDB_IMAGE=ontotext/graphdb:10.8.14',
          '# Set both when GraphDB security is enabled:',
          'GRAPHDB_USER=',
          'GRAPHDB_PASSWORD=',
        ];
  return [...common, ...triplestore, ''].join('\n');
}

/** The GraphDB repository the application writes to: RDFS-Plus reasoning, context index for named graphs. */
export function graphdbRepositoryConfig(appName: string): string {
  return [
    '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
    '@prefix rep: <http://www.openrdf.org/config/repository#> .',
    '@prefix sr: <http://www.openrdf.org/config/repository/sail#> .',
    '@prefix sail: <http://www.openrdf.org/config/sail#> .',
    '@prefix graphdb: <http://www.ontotext.com/config/graphdb#> .',
    '',
    '[] a rep:Repository ;',
    `    rep:repositoryID "${GRAPHDB_REPOSITORY}" ;`,
    `    rdfs:label ${turtleString(`${appName} (SDC4 application data)`)} ;`,
    '    rep:repositoryImpl [',
    '        rep:repositoryType "graphdb:SailRepository" ;',
    '        sr:sailImpl [',
    '            sail:sailType "graphdb:Sail" ;',
    '            graphdb:ruleset "rdfsplus-optimized" ;',
    '            graphdb:disable-sameAs "true" ;',
    '            graphdb:enable-context-index "true" ;',
    '            graphdb:check-for-inconsistencies "false" ;',
    '            graphdb:base-URL "https://semanticdatacharter.com/ns/sdc4/"',
    '        ]',
    '    ] .',
    '',
  ].join('\n');
}
