import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { printSchema } from 'graphql';
import { Client } from 'pg';
import { buildGatewaySchema } from '../../src/resolvers/schema';
import { TEMPLATE_DATABASE } from '../support/database';

const ROOT = path.resolve(__dirname, '../..');

describe('committed schemas', () => {
  it('schema.graphql equals the schema type-graphql emits (run `npm run schema` after changing resolvers)', async () => {
    const emitted = `${printSchema(await buildGatewaySchema())}\n`;
    expect(readFileSync(path.join(ROOT, 'schema.graphql'), 'utf8')).toBe(emitted);
  });

  it('the migrated database (tables, indexes, constraints, functions, triggers) equals src/db/schema.snapshot.txt (UPDATE_SNAPSHOT=1 rewrites it)', async () => {
    const url = new URL(process.env.TEST_ADMIN_DATABASE_URL!);
    url.pathname = `/${TEMPLATE_DATABASE}`;
    const client = new Client({ connectionString: url.toString() });
    await client.connect();
    try {
      const { rows } = await client.query(`
        SELECT table_name || '.' || column_name || ' ' || data_type || CASE WHEN is_nullable = 'NO' THEN ' not null' ELSE '' END AS line
          FROM information_schema.columns WHERE table_schema = 'public'
        UNION ALL
        SELECT 'index ' || indexname || ': ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
        UNION ALL
        SELECT 'constraint ' || conrelid::regclass || '.' || conname || ': ' || pg_get_constraintdef(oid)
          FROM pg_constraint WHERE connamespace = 'public'::regnamespace
        UNION ALL
        SELECT 'function ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || '): ' || rtrim(pg_get_functiondef(p.oid), E'\n')
          FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
           AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
        UNION ALL
        SELECT 'trigger ' || t.tgrelid::regclass || '.' || t.tgname || ': ' || pg_get_triggerdef(t.oid)
          FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace
        ORDER BY 1`);
      const snapshot = `${rows.map((r) => r.line).join('\n')}\n`;
      const file = path.join(ROOT, 'src/db/schema.snapshot.txt');
      if (process.env.UPDATE_SNAPSHOT === '1') writeFileSync(file, snapshot);
      expect(readFileSync(file, 'utf8')).toBe(snapshot);
    } finally {
      await client.end();
    }
  });
});
