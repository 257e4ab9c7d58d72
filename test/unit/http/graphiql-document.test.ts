import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, Kind, parse, validate } from 'graphql';
import { DEFAULT_DOCUMENT } from '../../../src/http/graphiql';

describe('GraphiQL default document', () => {
  const schema = buildSchema(readFileSync(path.resolve(__dirname, '../../../schema.graphql'), 'utf8'));

  it('is valid against the committed schema: a catalog query, an estimate and a jobUpdated subscription', () => {
    const document = parse(DEFAULT_DOCUMENT);
    expect(validate(schema, document).map((e) => e.message)).toEqual([]);
    const operations = document.definitions.map((d) => (d.kind === Kind.OPERATION_DEFINITION ? `${d.operation} ${d.name?.value}` : d.kind));
    expect(operations).toEqual(['query Catalog', 'query Estimate', 'subscription FollowJob']);
  });

  it('says how to send a key in the headers pane', () => {
    expect(DEFAULT_DOCUMENT).toContain('{"Authorization": "Token <your key>"}');
    expect(DEFAULT_DOCUMENT).toContain('/account/keys/');
  });
});
