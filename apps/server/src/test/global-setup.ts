import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * PostgreSQL test schemas are dropped once, after the whole run, not by each test: Kysely's
 * migrator lists every schema's tables, and a schema dropped by another worker mid-listing
 * makes that fail. Each run names its schemas with its own id, so parallel runs stay apart.
 */
export default function setup() {
  const runId = randomBytes(4).toString('hex');
  process.env.REFRACT_TEST_RUN = runId;
  return async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ nspname: string }>(
        `SELECT nspname FROM pg_namespace WHERE nspname LIKE $1`,
        [`test\\_${runId}\\_%`],
      );
      for (const { nspname } of rows) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
    } finally {
      await client.end();
    }
  };
}
