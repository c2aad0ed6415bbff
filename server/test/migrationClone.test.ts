import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchema, migrate, openDatabase, type Db } from '../src/db/database';
import { BACKENDS, filePglite, migrateFresh } from './harness';

/**
 * Test servers get their tables by replaying the migrations recorded once
 * (migrated.ts) instead of running them: the replayed schema must be exactly
 * what the migrations make, object by object.
 */
// Names print schema-qualified unless their schema is on the describing connection's search path (PGlite's is the last opened one's): compared without it.
const describeSchema = async (db: Db, schema: string) => {
  const rows = async (text: string) =>
    (await sql.raw(text.replaceAll(':schema', `'${schema}'`)).execute(db)).rows.map((row) => JSON.stringify(row).replaceAll(`${schema}.`, '').replaceAll(schema, '<schema>'));
  return {
    columns: await rows(
      `select table_name, column_name, data_type, column_default, is_nullable, character_maximum_length, numeric_precision, numeric_scale
       from information_schema.columns where table_schema = :schema order by table_name, column_name`,
    ),
    constraints: await rows(
      `select c.relname, k.conname, pg_get_constraintdef(k.oid) as def from pg_constraint k join pg_class c on c.oid = k.conrelid
       join pg_namespace n on n.oid = c.relnamespace where n.nspname = :schema order by 1, 2`,
    ),
    indexes: await rows(`select tablename, indexname, indexdef from pg_indexes where schemaname = :schema order by 1, 2`),
    triggers: await rows(
      `select c.relname, t.tgname, pg_get_triggerdef(t.oid) as def from pg_trigger t join pg_class c on c.oid = t.tgrelid
       join pg_namespace n on n.oid = c.relnamespace where n.nspname = :schema and not t.tgisinternal order by 1, 2`,
    ),
    functions: await rows(
      `select p.proname, pg_get_function_arguments(p.oid) as args, p.prosrc from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = :schema order by 1, 2`,
    ),
    sequences: await rows(`select sequence_name, data_type, start_value, increment from information_schema.sequences where sequence_schema = :schema order by 1`),
    migrations: await rows(`select name from ${schema}.kysely_migration order by name`),
    locks: await rows(`select id, is_locked from ${schema}.kysely_migration_lock`),
  };
};

describe.each(BACKENDS)('a replayed migration equals the migrations run (%s)', (backend) => {
  const migrated = `t_${randomBytes(6).toString('hex')}`;
  const replayed = `t_${randomBytes(6).toString('hex')}`;
  const opened: Db[] = [];
  const open = async (schema: string) => {
    const db =
      backend === 'postgres' ? await openDatabase({ url: process.env.TEST_DATABASE_URL, schema }) : await openDatabase({ pglite: await filePglite(), schema });
    opened.push(db);
    return db;
  };
  afterAll(async () => {
    for (const [index, db] of opened.entries()) {
      await dropSchema(db, [migrated, replayed][index]!);
      if (backend === 'postgres') await db.destroy();
    }
  });

  it('has the same tables, columns, constraints, indexes, triggers, functions and migration records', async () => {
    const byMigrator = await open(migrated);
    await migrate(byMigrator, migrated);
    const byReplay = await open(replayed);
    await migrateFresh(byReplay, replayed, backend === 'pglite' ? await filePglite() : undefined);
    const expected = await describeSchema(byMigrator, migrated);
    expect(expected.columns.length).toBeGreaterThan(100);
    expect(expected.triggers.length).toBeGreaterThan(5);
    expect(await describeSchema(byReplay, replayed)).toEqual(expected);
    // Migrating it again finds nothing left to do and changes nothing.
    await migrate(byReplay, replayed);
    expect(await describeSchema(byReplay, replayed)).toEqual(expected);
  });
});
