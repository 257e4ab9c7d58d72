import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export const TEMPLATE_DATABASE = 'sdc_gateway_template';

function adminUrl(): string {
  const url = process.env.TEST_ADMIN_DATABASE_URL;
  if (!url) throw new Error('TEST_ADMIN_DATABASE_URL is not set: run the tests through jest (globalSetup)');
  return url;
}

/** A fresh database cloned from the migrated template; returns its URL and a function that drops it. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `sdc_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: adminUrl() });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Makes every insert into `table` whose `column` equals `value` fail with `message`: a build or mint step that
 * breaks inside the real transaction, for failure and refund tests. */
export async function failInserts(
  db: { query: (sql: string) => Promise<unknown> },
  table: string,
  column: string,
  value: string,
  message: string,
): Promise<void> {
  const name = `fail_${table}_insert`;
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  await db.query(`
    CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.${column} = ${literal(value)} THEN RAISE EXCEPTION ${literal(message)}; END IF; RETURN NEW; END $$;
    DROP TRIGGER IF EXISTS ${name} ON ${table};
    CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}();`);
}
