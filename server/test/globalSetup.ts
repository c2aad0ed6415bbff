import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pgliteFrom, recordMigration, templateSchema, type MigrationScript } from './migrated';

/**
 * Once per test run, before any test file (server tests and journeys):
 * - runs the migrations once in a PGlite, records them as a script every
 *   fresh schema replays (migrated.ts), and dumps that PGlite's data folder so
 *   each test file's PGlite starts from it instead of running initdb;
 * - with TEST_DATABASE_URL, names this run's PostgreSQL databases: each test
 *   worker gets its own (setup.ts), so that files running at once never hear
 *   each other's change notices (LISTEN/NOTIFY channels, like advisory locks,
 *   belong to a database, not to a schema). Those of runs whose process is
 *   gone are dropped here, this run's at its end.
 */
export default async function setup({ provide }: { provide: <K extends keyof TestDatabases>(key: K, value: TestDatabases[K]) => void }) {
  const folder = mkdtempSync(join(tmpdir(), 'qt-migrated-'));
  const pglite = await pgliteFrom(undefined);
  const migration = await recordMigration(pglite, templateSchema());
  const dump = join(folder, 'pglite.tar');
  writeFileSync(dump, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await pglite.close();
  provide('migration', migration);
  provide('pgliteDump', dump);

  const url = process.env.TEST_DATABASE_URL;
  const prefix = url ? `${new URL(url).pathname.slice(1)}_r${process.pid}_w` : '';
  if (url) {
    provide('postgresWorkerPrefix', prefix);
    await dropDatabases(url, (name) => {
      const owner = /_r(\d+)_w\d+$/.exec(name)?.[1];
      return owner !== undefined && name.startsWith(new URL(url).pathname.slice(1)) && !alive(Number(owner));
    });
  }
  return async () => {
    rmSync(folder, { recursive: true, force: true });
    if (url) await dropDatabases(url, (name) => name.startsWith(prefix));
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const dropDatabases = async (url: string, which: (name: string) => boolean) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(`select datname from pg_database where datname ~ '_r[0-9]+_w[0-9]+$'`);
    for (const { datname } of rows.filter(({ datname }) => which(datname))) {
      await client.query(`drop database if exists "${datname}" with (force)`);
    }
  } finally {
    await client.end();
  }
};

export interface TestDatabases {
  migration: MigrationScript;
  pgliteDump: string;
  postgresWorkerPrefix: string;
}

declare module 'vitest' {
  export interface ProvidedContext extends TestDatabases {}
}
