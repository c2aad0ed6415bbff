import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The engine imports no HTTP module and no other domain: outside engine/ it
 * reads only the shared contract (src/api) and the database layer (server/src/db);
 * what it needs from other domains is given to it (store/journal.ts EngineDomains).
 * Fastify may be named only for its logger's type. Inside, imports run one way:
 * core <- store, venues <- runner <- the facade.
 */
const engineDir = path.dirname(fileURLToPath(import.meta.url));
const serverSrc = path.dirname(engineDir);
const repo = path.resolve(serverSrc, '../..');

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });

interface Import {
  file: string;
  spec: string;
  typeOnly: boolean;
}

const importsOf = (file: string): Import[] => {
  const text = readFileSync(file, 'utf8');
  const found: Import[] = [];
  for (const match of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^'";]*?from\s+['"]([^'"]+)['"]/gm)) {
    found.push({ file, spec: match[3]!, typeOnly: Boolean(match[2]) });
  }
  for (const match of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ file, spec: match[1]!, typeOnly: false });
  return found;
};

const rel = (file: string) => path.relative(repo, file).split(path.sep).join('/');
const target = (from: Import) => rel(path.resolve(path.dirname(from.file), from.spec));
/** The part of the engine a file belongs to: core, store, venues, runner, or the engine's front (facade). */
const partOf = (file: string) => {
  const inside = path.relative(engineDir, file).split(path.sep);
  return inside.length > 1 ? inside[0]! : 'front';
};
const LEVEL: Record<string, number> = { core: 0, store: 1, venues: 1, runner: 2, front: 3 };

const files = sources(engineDir);
const all = files.flatMap(importsOf);

describe('the engine’s imports', () => {
  it('finds the engine’s files', () => {
    expect(files.length).toBeGreaterThan(15);
    expect(all.length).toBeGreaterThan(50);
  });

  it('reaches outside engine/ only for the contract and the database layer', () => {
    const outside = all
      .filter((entry) => entry.spec.startsWith('.'))
      .filter((entry) => !path.resolve(path.dirname(entry.file), entry.spec).startsWith(engineDir + path.sep))
      .map((entry) => `${rel(entry.file)} -> ${target(entry)}`)
      .filter((line) => !/ -> (src\/api\/|server\/src\/db\/)/.test(line));
    expect(outside).toEqual([]);
  });

  it('names no HTTP package but for the logger’s type', () => {
    const http = all
      .filter((entry) => /^(fastify|@fastify\/)/.test(entry.spec) && !entry.typeOnly)
      .map((entry) => `${rel(entry.file)} -> ${entry.spec}`);
    expect(http).toEqual([]);
  });

  it('runs one way: core, then store and venues, then the runner, then the facade', () => {
    const upward = all
      .filter((entry) => entry.spec.startsWith('.'))
      .map((entry) => ({ entry, to: path.resolve(path.dirname(entry.file), entry.spec) }))
      .filter(({ to }) => to.startsWith(engineDir + path.sep))
      .filter(({ entry, to }) => {
        const from = partOf(entry.file);
        const into = partOf(to);
        return from !== into && LEVEL[into]! >= LEVEL[from]!;
      })
      .map(({ entry }) => `${rel(entry.file)} -> ${target(entry)}`);
    expect(upward).toEqual([]);
  });
});
