import { openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The embedded database (PGlite) belongs to one process at a time: it keeps
 * the data in memory and writes it back, so a second process on the same
 * folder would work on a copy and the two would overwrite each other. The
 * process that opens it writes its pid to `<DATA_DIR>/embedded-db.lock`; a
 * second process finds a live pid there and stops with a clear message. A
 * lock left by a process that died is taken over.
 */
export class EmbeddedDatabaseBusy extends Error {
  constructor(readonly pid: number, readonly dataDir: string) {
    super(`the embedded database in ${dataDir} is open in another process (pid ${pid})`);
    this.name = 'EmbeddedDatabaseBusy';
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export interface EmbeddedLock {
  release(): void;
}

export const lockEmbeddedDatabase = (dataDir: string, { pid = process.pid, isAlive = alive } = {}): EmbeddedLock => {
  const path = join(dataDir, 'embedded-db.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(pid));
      closeSync(fd);
      return {
        release: () => {
          try {
            if (readFileSync(path, 'utf8').trim() === String(pid)) unlinkSync(path);
          } catch {
            // Already gone.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
      if (Number.isInteger(holder) && holder > 0 && holder !== pid && isAlive(holder)) throw new EmbeddedDatabaseBusy(holder, dataDir);
      // Left behind by a process that is gone: take it over.
      unlinkSync(path);
    }
  }
  throw new Error(`the embedded database lock in ${dataDir} could not be taken`);
};
