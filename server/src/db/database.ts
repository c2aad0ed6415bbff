import { createHash } from 'node:crypto';
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
import * as depositAddresses from './migrations/016_deposit_addresses';
import * as changeNotices from './migrations/017_change_notices';
import * as throttleCounters from './migrations/018_throttle_counters';
import * as taskEventNotices from './migrations/019_task_event_notices';
import * as walletNotices from './migrations/020_wallet_notices';
import * as widgetGrantOrigins from './migrations/021_widget_grant_origins';
import * as notifications from './migrations/022_notifications';
import * as notificationChannels from './migrations/023_notification_channels';
import * as notificationDigests from './migrations/024_notification_digests';
import * as paperPriceNotices from './migrations/025_paper_price_notices';
import * as abuseLimits from './migrations/026_abuse_limits';
import * as secondFactors from './migrations/027_second_factors';
import * as withdrawalAddresses from './migrations/028_withdrawal_addresses';
import * as passkeys from './migrations/029_passkeys';
import * as strategyExits from './migrations/030_strategy_exits';
import * as emailChangeCodes from './migrations/031_email_change_codes';
import * as strategyConditions from './migrations/032_strategy_conditions';
import * as taskWebhooks from './migrations/033_task_webhooks';
import * as taskWaiting from './migrations/034_task_waiting';
import type { Database } from './schema';
import { subscribe, type ChangeHandlers, type ChangeSubscription, type FeedSource } from './changeFeed';

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
  '016_deposit_addresses': depositAddresses,
  '017_change_notices': changeNotices,
  '018_throttle_counters': throttleCounters,
  '019_task_event_notices': taskEventNotices,
  '020_wallet_notices': walletNotices,
  '021_widget_grant_origins': widgetGrantOrigins,
  '022_notifications': notifications,
  '023_notification_channels': notificationChannels,
  '024_notification_digests': notificationDigests,
  '025_paper_price_notices': paperPriceNotices,
  '026_abuse_limits': abuseLimits,
  '027_second_factors': secondFactors,
  '028_withdrawal_addresses': withdrawalAddresses,
  '029_passkeys': passkeys,
  '030_strategy_exits': strategyExits,
  '031_email_change_codes': emailChangeCodes,
  '032_strategy_conditions': strategyConditions,
  '033_task_webhooks': taskWebhooks,
  '034_task_waiting': taskWaiting,
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

/** Where each handle's change notices come from, for listenChanges below. */
const sources = new WeakMap<Db, FeedSource>();

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Executions of one text on a connection before it is prepared there, and the most prepared per connection. */
const PREPARE_AFTER = 5;
const MAX_PREPARED = 200;
/** Reads whose text names its columns (a `*` would change shape under a migration and break the kept plan). */
const PREPARABLE = /^\s*(select|with)\b/i;
const STAR = /(select|,)\s*(("?\w+"?)\.)?\*/i;

/**
 * PostgreSQL plans a statement each time it is sent unnamed; a read sent
 * often (the task list: 0.4 ms planning for 0.16 ms executing) is prepared on
 * its connection after PREPARE_AFTER runs, as JDBC's prepareThreshold does,
 * so its plan is kept there. Only reads that name their columns, at most
 * MAX_PREPARED per connection.
 */
const preparedAfterRepeats = (client: pg.PoolClient) => {
  const seen = new Map<string, number>();
  let prepared = 0;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (text: unknown, values?: unknown, callback?: unknown) => {
    if (typeof text !== 'string' || !Array.isArray(values) || callback !== undefined || !PREPARABLE.test(text) || STAR.test(text)) {
      return callback === undefined ? query(text, values) : query(text, values, callback);
    }
    const runs = (seen.get(text) ?? 0) + 1;
    if (runs <= PREPARE_AFTER) {
      if (seen.size < 10 * MAX_PREPARED) seen.set(text, runs);
      return query(text, values);
    }
    if (runs === PREPARE_AFTER + 1) {
      if (prepared >= MAX_PREPARED) return query(text, values);
      prepared += 1;
      seen.set(text, runs);
    }
    return query({ name: `q${createHash('sha1').update(text).digest('hex')}`, text, values });
  };
};

export const openDatabase = async ({ url, dataDir, schema = 'public', pglite: given }: DatabaseOptions): Promise<Db> => {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name ${schema}`);
  let db: Db;
  if (url) {
    // numeric stays a string (pg's default), bigint too: money is never a float.
    const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path=${schema}` });
    pool.on('connect', preparedAfterRepeats);
    // An idle connection the server ended (a restart, a failover, an operator) is dropped by the pool, and
    // the next query opens another; without a listener its error would end the process. A query under way
    // on it fails and is reported where it ran (the engine: as a database outage).
    pool.on('error', () => undefined);
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    sources.set(db, { url });
  } else {
    if (dataDir && !given) mkdirSync(dataDir, { recursive: true });
    const pglite = given ?? new PGlite(dataDir ? join(dataDir, 'pglite') : undefined);
    await pglite.waitReady;
    if (schema !== 'public') {
      await pglite.exec(`create schema if not exists ${schema}; set search_path to ${schema};`);
    }
    db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
    sources.set(db, { pglite });
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

/**
 * Subscribes to a channel of the database's change notices (db/changeFeed.ts):
 * on PGlite delivered within the committing query, on PostgreSQL over one
 * listening connection per handle. A handle not opened here hears nothing.
 */
export const listenChanges = (db: Db, channel: string, handlers: ChangeHandlers): ChangeSubscription => subscribe(db, sources.get(db), channel, handlers);
