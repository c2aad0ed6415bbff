import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? testFiles(join(dir, entry.name)) : entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : [],
  );

/**
 * A worker runs its server files in one module graph (vite.config.ts, the
 * server project's `isolate: false`), so a module mock would reach only the
 * modules not loaded yet by an earlier file: it works alone and fails after
 * another file. Server tests inject what they need instead (buildApp's
 * options, the runner's options).
 */
describe('the server test files share their worker', () => {
  it('mock no module', () => {
    const files = testFiles(join(ROOT, 'server'));
    expect(files.length).toBeGreaterThan(50);
    const mocking = files.filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file));
    expect(mocking).toEqual([]);
  });
});
