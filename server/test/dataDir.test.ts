import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';

/** The data folder (embedded database, outbox, secrets) is readable by its owner only. */
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const modes = (root: string): string[] =>
  readdirSync(root, { withFileTypes: true }).flatMap((entry) => {
    const path = join(root, entry.name);
    const mode = (statSync(path).mode & 0o777).toString(8);
    return entry.isDirectory() ? [`${mode} dir`, ...modes(path)] : entry.isFile() ? [`${mode} file`] : [];
  });

it('makes the data folder 700 and its files 600 at start, also what an earlier version left readable', () => {
  dir = mkdtempSync(join(tmpdir(), 'qt-data-'));
  mkdirSync(join(dir, 'outbox'), { mode: 0o755 });
  writeFileSync(join(dir, 'outbox', 'old.eml'), 'mail', { mode: 0o644 });
  const script = `
    const { openConfigured } = await import('./server/src/startup.ts');
    const opened = await openConfigured({ busy: () => 'busy', busyExitCode: 3 });
    await opened.close();`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: process.cwd(),
    env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  expect(child.status, child.stderr).toBe(0);
  expect((statSync(dir).mode & 0o777).toString(8)).toBe('700');
  const found = modes(dir);
  // The embedded database's own files are there, and every one of them is private.
  expect(found.filter((m) => m.endsWith('file')).length).toBeGreaterThan(10);
  expect([...new Set(found)].sort()).toEqual(['600 file', '700 dir']);
}, 120_000);
