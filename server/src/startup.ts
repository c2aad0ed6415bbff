import { chmodSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig, type PaperReplay, type ServerConfig } from './config';
import { migrate, openDatabase, type Db } from './db/database';
import { EmbeddedDatabaseBusy, lockEmbeddedDatabase, type EmbeddedLock } from './db/embeddedLock';
import { CandleFormatError, candleInterval, parseCandlesCsv } from './engine/core/candles';
import { PAPER_MARKETS } from './engine/venues/paper/market';

/** PAPER_REPLAY, PAPER_REPLAY_SYMBOL, PAPER_REPLAY_SPEED: the file read and checked now, so a bad line stops the start. */
export const readPaperReplay = (env: NodeJS.ProcessEnv = process.env, root: string = process.cwd()): PaperReplay | undefined => {
  const file = env.PAPER_REPLAY;
  if (!file) return undefined;
  const symbol = env.PAPER_REPLAY_SYMBOL || 'BTC/USDT';
  if (!PAPER_MARKETS.some((market) => market.symbol === symbol)) {
    throw new ConfigError(`PAPER_REPLAY_SYMBOL must be a pair of the paper market (${PAPER_MARKETS.map((m) => m.symbol).join(', ')}), got "${symbol}"`);
  }
  const rawSpeed = env.PAPER_REPLAY_SPEED || '1';
  const speed = rawSpeed === 'max' ? 'max' : Number(rawSpeed);
  if (speed !== 'max' && !(Number.isFinite(speed) && speed > 0 && speed <= 1000)) {
    throw new ConfigError(`PAPER_REPLAY_SPEED must be a number of candles per second above 0 (at most 1000), or max; got "${rawSpeed}"`);
  }
  let text: string;
  try {
    text = readFileSync(resolve(root, file), 'utf8');
  } catch (error) {
    throw new ConfigError(`PAPER_REPLAY: "${file}" cannot be read: ${(error as Error).message}`);
  }
  try {
    const candles = parseCandlesCsv(text);
    return { file, symbol, speed, candles, interval: candleInterval(candles) };
  } catch (error) {
    if (error instanceof CandleFormatError) throw new ConfigError(`PAPER_REPLAY: ${file}, ${error.message}`);
    throw error;
  }
};

/**
 * The data folder is this user's only: the folder and every folder below it
 * 700, every file 600 (the embedded database, the mail outbox, generated
 * secrets), including what an earlier version left readable; and what the
 * process writes from now on is born that way (umask 077).
 */
export const restrictDataDir = (dataDir: string) => {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const walk = (dir: string) => {
    chmodSync(dir, 0o700);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) chmodSync(path, 0o600);
    }
  };
  walk(dataDir);
};

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
    config.paperReplay = readPaperReplay();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
  restrictDataDir(config.dataDir);
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
