import { ConfigError, loadConfig, type ServerConfig } from './config';
import { migrate, openDatabase, type Db } from './db/database';
import { EmbeddedDatabaseBusy, lockEmbeddedDatabase, type EmbeddedLock } from './db/embeddedLock';

export interface Opened {
  config: ServerConfig;
  db: Db;
  /** Closes the database and gives the embedded one back to other processes. */
  close(): Promise<void>;
}

/**
 * What the server and the commands start with: the configuration read from
 * the environment, and the configured database opened and migrated (the
 * embedded one locked to this process). A configuration error, or an embedded
 * database another process has open, ends the process with a clear message.
 */
export const openConfigured = async ({ busy, busyExitCode }: { busy: (pid: number, dataDir: string) => string; busyExitCode: number }): Promise<Opened> => {
  let config: ServerConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
  let lock: EmbeddedLock | null = null;
  if (!config.databaseUrl) {
    try {
      lock = lockEmbeddedDatabase(config.dataDir);
    } catch (error) {
      if (!(error instanceof EmbeddedDatabaseBusy)) throw error;
      console.error(busy(error.pid, config.dataDir));
      process.exit(busyExitCode);
    }
    process.on('exit', () => lock?.release());
  }
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  await migrate(db);
  return {
    config,
    db,
    close: async () => {
      await db.destroy();
      lock?.release();
    },
  };
};
