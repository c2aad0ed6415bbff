import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'qt-operator-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The command as a person runs it, on an embedded database a live server holds (this test's process stands for it). */
const operator = async (args: string[]) => {
  writeFileSync(join(dir, 'embedded-db.lock'), String(process.pid));
  const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: '' };
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'src', 'cli', 'operator.ts'), ...args], { cwd: ROOT, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
};

describe('npm run operator while the server runs', () => {
  it('answers --help without the database', async () => {
    for (const flag of ['--help', '-h']) {
      const result = await operator([flag]);
      expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining('usage: npm run operator -- [--revoke] <email>') });
      expect(result.stderr).not.toContain('has the embedded database');
    }
  });

  it('refuses a wrong usage without the database, and says the server holds it when the database is needed', async () => {
    const wrong = await operator(['--bogus', 'a@example.com']);
    expect(wrong).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown option --bogus') });
    expect(wrong.stderr).toContain('usage: npm run operator');
    const needsDatabase = await operator(['a@example.com']);
    expect(needsDatabase).toMatchObject({ code: 3, stderr: expect.stringContaining(`The server (pid ${process.pid}) has the embedded database`) });
  });
});
