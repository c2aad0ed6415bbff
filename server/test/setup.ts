import pg from 'pg';
import { inject } from 'vitest';

/**
 * Before each test file: with TEST_DATABASE_URL, points it at this worker's
 * own database of the run (created on the worker's first file), so files on
 * other workers, running at the same time, share no LISTEN/NOTIFY channel and
 * no advisory lock with it (globalSetup.ts). Each server still gets a fresh
 * schema there (harness.ts).
 */
const prefix = inject('postgresWorkerPrefix');
const url = process.env.TEST_DATABASE_URL;
if (url && prefix) {
  const database = `${prefix}${process.env.VITEST_POOL_ID ?? process.pid}`;
  const own = new URL(url);
  own.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) await client.query(`create database "${database}"`);
  } finally {
    await client.end();
  }
  process.env.TEST_DATABASE_URL = own.toString();
}
