import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedDatabaseBusy, lockEmbeddedDatabase } from '../src/db/embeddedLock';

/** One process at a time on the embedded database: the server and the operator command take this lock. */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'qt-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lockFile = () => join(dir, 'embedded-db.lock');

describe('embedded database lock', () => {
  it('is taken with our pid and released', () => {
    const lock = lockEmbeddedDatabase(dir, { pid: 4242 });
    expect(readFileSync(lockFile(), 'utf8')).toBe('4242');
    lock.release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it('refuses while a live process holds it, naming that process', () => {
    lockEmbeddedDatabase(dir, { pid: 4242 });
    expect(() => lockEmbeddedDatabase(dir, { pid: 5151, isAlive: (pid) => pid === 4242 })).toThrow(EmbeddedDatabaseBusy);
    try {
      lockEmbeddedDatabase(dir, { pid: 5151, isAlive: () => true });
    } catch (error) {
      expect((error as EmbeddedDatabaseBusy).pid).toBe(4242);
    }
    expect(readFileSync(lockFile(), 'utf8')).toBe('4242');
  });

  it('takes over a lock left by a process that is gone (a real pid that has exited)', () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(lockFile(), String(gone));
    const lock = lockEmbeddedDatabase(dir);
    expect(readFileSync(lockFile(), 'utf8')).toBe(String(process.pid));
    lock.release();
  });

  it('does not remove a lock another process took after ours', () => {
    const lock = lockEmbeddedDatabase(dir, { pid: 4242 });
    writeFileSync(lockFile(), '5151');
    lock.release();
    expect(readFileSync(lockFile(), 'utf8')).toBe('5151');
  });
});
