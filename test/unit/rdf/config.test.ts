import { loadSettings } from '../../../src/config';
import { createTriplestoreClient } from '../../../src/rdf/config';
import { GraphDbClient } from '../../../src/rdf/graphdb-client';
import { GraphStoreClient } from '../../../src/rdf/graph-store-client';

describe('createTriplestoreClient', () => {
  it('returns null when TRIPLESTORE_URL is not set', () => {
    expect(createTriplestoreClient(loadSettings({}).triplestore)).toBeNull();
  });

  it('builds a Graph Store Protocol client by default', () => {
    const client = createTriplestoreClient(
      loadSettings({ TRIPLESTORE_URL: 'http://virtuoso:8890/sparql-graph-crud-auth', TRIPLESTORE_QUERY_URL: 'http://virtuoso:8890/sparql' })
        .triplestore,
    );
    expect(client).toBeInstanceOf(GraphStoreClient);
    expect(client?.kind).toBe('graph-store');
  });

  it('builds a GraphDB client, which needs the repository', () => {
    const env = { TRIPLESTORE_URL: 'http://graphdb:7200', TRIPLESTORE_PROTOCOL: 'graphdb' };
    expect(() => createTriplestoreClient(loadSettings(env).triplestore)).toThrow('TRIPLESTORE_REPOSITORY must name the repository');
    const client = createTriplestoreClient(loadSettings({ ...env, TRIPLESTORE_REPOSITORY: 'sdc4' }).triplestore);
    expect(client).toBeInstanceOf(GraphDbClient);
    expect(client?.kind).toBe('graphdb');
  });
});
