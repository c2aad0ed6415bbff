import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql, type Migration, type MigrationProvider } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import * as accounts from './migrations/001_accounts';
import * as strategies from './migrations/002_strategies';
import * as exchangeAccounts from './migrations/003_exchange_accounts';
import * as trading from './migrations/004_trading';
import * as wallet from './migrations/005_wallet';
import * as articles from './migrations/006_articles';
import * as positionAccounting from './migrations/007_position_accounting';
import * as backtest from './migrations/010_backtest';
import * as engineCluster from './migrations/011_engine_cluster';
import * as widgetGrants from './migrations/012_widget_grants';
import * as paperPrices from './migrations/014_paper_prices';
import * as throttleCounters from './migrations/015_throttle_counters';
import type { Database } from './schema';

/** Migrations in order; one SQL dialect (PostgreSQL) for PGlite and the server. */
const migrations: Record<string, Migration> = {
  '001_accounts': accounts,
  '002_strategies': strategies,
  '003_exchange_accounts': exchangeAccounts,
  '004_trading': trading,
  '005_wallet': wallet,
  '006_articles': articles,
  '007_position_accounting': positionAccounting,
  '010_backtest': backtest,
  '011_engine_cluster': engineCluster,
  '012_widget_grants': widgetGrants,
  '014_paper_prices': paperPrices,
  '015_throttle_counters': throttleCounters,
};
const provider: MigrationProvider = { getMigrations: async () => migrations };

export interface DatabaseOptions {
  /** postgres://… for a PostgreSQL server; unset for PGlite. */
  url?: string | undefined;
  /** PGlite data folder; unset for an in-memory PGlite. */
  dataDir?: string | undefined;
  /** Every table lives in this schema (tests use a fresh one each). */
  schema?: string;
  /** An already started PGlite to use (tests share one per file: starting one takes seconds). */
  pglite?: PGlite;
}

export type Db = Kysely<Database>;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export const openDatabase = async ({ url, dataDir, schema = 'public', pglite: given }: DatabaseOptions): Promise<Db> => {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name ${schema}`);
  let db: Db;
  if (url) {
    // numeric stays a string (pg's default), bigint too: money is never a float.
    const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path=${schema}` });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    if (dataDir && !given) mkdirSync(dataDir, { recursive: true });
    const pglite = given ?? new PGlite(dataDir ? join(dataDir, 'pglite') : undefined);
    await pglite.waitReady;
    if (schema !== 'public') {
      await pglite.exec(`create schema if not exists ${schema}; set search_path to ${schema};`);
    }
    db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  }
  if (url && schema !== 'public') await sql.raw(`create schema if not exists ${schema}`).execute(db);
  return db;
};

export const migrate = async (db: Db, schema = 'public'): Promise<void> => {
  const migrator = new Migrator({ db, provider, migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error | undefined)?.message ?? ''}`);
  }
};

export const dropSchema = async (db: Db, schema: string): Promise<void> => {
  if (!SCHEMA_NAME.test(schema) || schema === 'public') throw new Error(`refusing to drop schema ${schema}`);
  await sql.raw(`drop schema if exists ${schema} cascade`).execute(db);
};
