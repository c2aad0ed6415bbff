import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql, type CompiledQuery } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { migrate, type Db } from '../src/db/database';
import type { Database } from '../src/db/schema';

/**
 * Migrating a fresh schema costs about a second on either database (the
 * migrator's many round trips and one transaction per migration), and a
 * fresh PGlite runs initdb (seconds). Tests start hundreds of servers, so the
 * migrations run once (the test projects' global setup, or once per test
 * file without it): what they send is recorded as one SQL script that a fresh
 * schema replays in one transaction, and PGlite's data folder, once migrated,
 * is dumped for every later PGlite to start from.
 *
 * migrationClone.test.ts checks that a replayed schema equals a migrated one
 * (tables, columns, defaults, constraints, indexes, triggers, functions, the
 * migrator's own bookkeeping).
 */
export interface MigrationScript {
  /** The schema the migrations ran in, as its name appears in the statements. */
  schema: string;
  statements: string[];
}

const literal = (value: unknown): string => {
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  throw new Error(`a migration sent a parameter this recording cannot write: ${typeof value}`);
};

/** The statement with its parameters written in ($1 … $n, highest first so $1 does not eat $10). */
const inline = ({ sql: text, parameters }: CompiledQuery): string =>
  parameters.reduceRight<string>((done, value, index) => done.replaceAll(`$${index + 1}`, literal(value)), text);

/**
 * Runs the migrations into `schema` of a PGlite and records what changes the
 * database: every statement but reads, the migrator's lock and its transaction
 * brackets (the replay is one transaction).
 */
export const recordMigration = async (pglite: PGlite, schema: string): Promise<MigrationScript> => {
  await pglite.exec(`create schema if not exists ${schema}; set search_path to ${schema};`);
  const sent: CompiledQuery[] = [];
  const recorder = new Kysely<Database>({
    dialect: new PGliteDialect(pglite),
    log: (event) => {
      if (event.level === 'query') sent.push(event.query);
    },
  });
  await migrate(recorder, schema);
  const statements = sent
    .filter(({ sql: text }) => !/^\s*(select|with|begin|commit|rollback)\b/i.test(text) && !/pg_advisory/i.test(text))
    .map(inline);
  if (!statements.some((text) => /^\s*create table/i.test(text))) throw new Error('the recorded migration creates no table');
  return { schema, statements };
};

/** The script that gives `schema` (already created) what the migrations give it, in one transaction. */
export const replayScript = (script: MigrationScript, schema: string): string => {
  const body = script.statements.map((text) => text.replaceAll(`"${script.schema}"`, `"${schema}"`)).join(';\n');
  return `begin;\nset local search_path to "${schema}";\n${body};\ncommit;`;
};

/** Migrates a fresh, empty schema by replaying the recorded migration (PGlite: on its own connection, the one the handle uses). */
export const replayMigration = async (script: MigrationScript, schema: string, target: { db: Db } | { pglite: PGlite }): Promise<void> => {
  const text = replayScript(script, schema);
  // PGlite's query() takes one statement; exec() takes a script. PostgreSQL runs a script sent without parameters.
  if ('pglite' in target) await target.pglite.exec(text);
  else await sql.raw(text).execute(target.db);
};

export const templateSchema = () => `t_template_${randomBytes(4).toString('hex')}`;

/** A PGlite started from a dumped data folder (no initdb), or a fresh one without a dump. */
export const pgliteFrom = async (dumpPath: string | undefined): Promise<PGlite> => {
  const pglite = dumpPath ? new PGlite({ loadDataDir: await openAsBlob(dumpPath) }) : new PGlite();
  await pglite.waitReady;
  return pglite;
};
