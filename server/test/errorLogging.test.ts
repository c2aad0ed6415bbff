import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeError } from '../src/http/logging';
import { BACKENDS, newPglite, startServer, type TestServer } from './harness';

/**
 * Database errors in the log: the SQL state and the message explain the
 * failure; the values bound into the statement (an email, an address, a
 * password hash) and PostgreSQL's detail quoting a row never appear.
 */

const SECRET_VALUE = 'leaky-parameter-4f1c@example.com';

/** A real driver error (a unique violation, whose detail quotes the key) for a statement given SECRET_VALUE as a parameter. */
const failingQuery = async (backend: 'pglite' | 'postgres'): Promise<Error> => {
  if (backend === 'pglite') {
    const db = await newPglite();
    try {
      await db.exec('create table leak (email text primary key)');
      await db.query('insert into leak values ($1)', [SECRET_VALUE]);
      await db.query('insert into leak values ($1)', [SECRET_VALUE]);
    } catch (error) {
      return error as Error;
    } finally {
      await db.close();
    }
  } else {
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query('create temporary table leak (email text primary key)');
      await client.query('insert into leak values ($1)', [SECRET_VALUE]);
      await client.query('insert into leak values ($1)', [SECRET_VALUE]);
    } catch (error) {
      return error as Error;
    } finally {
      await client.end();
    }
  }
  throw new Error('the statement did not fail');
};

describe.each(BACKENDS)('database errors in the log (%s)', (backend) => {
  let server: TestServer;
  let error: Error;

  beforeAll(async () => {
    server = await startServer(backend);
    error = await failingQuery(backend);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('the driver error does carry the value (what the serializer must cut)', () => {
    expect(JSON.stringify({ ...error, message: error.message })).toContain(SECRET_VALUE);
  });

  it('keeps the SQL state and the message, drops the parameters', () => {
    const serialized = serializeError(error);
    expect(serialized.code).toMatch(/^[0-9A-Z]{5}$/);
    expect(serialized.message).toBe(error.message);
    expect(serialized).not.toHaveProperty('params');
    expect(serialized).not.toHaveProperty('detail');
    expect(JSON.stringify(serialized)).not.toContain(SECRET_VALUE);
  });

  it("is what the server's logger writes", () => {
    server.app.log.error({ err: error }, 'statement failed');
    const line = server.logs.find((text) => text.includes('statement failed'));
    expect(line).toBeDefined();
    expect(line).toContain(`"code":"${(error as Error & { code: string }).code}"`);
    expect(line).not.toContain(SECRET_VALUE);
  });
});
