import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/**
 * The rules of the layout, held against the code's own imports
 * (server/test/importRules.test.ts): which folder may import which, and no
 * circle of files. The graph is built from every import, export-from and
 * dynamic import() of a source file, type-only ones included (they tie the
 * files as much as the others); test files are left out.
 */

/** A file (its path from the repository root, with forward slashes) -> the files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

export interface Rule {
  name: string;
  /** One line per broken import or circle, naming the files; empty when the rule holds. */
  check: (graph: ImportGraph) => string[];
}

const SOURCE = /\.(ts|tsx)$/;
const TEST = /\.test\.(ts|tsx)$/;
const EXTENSIONS = ['.ts', '.tsx', '.d.ts', '/index.ts', '/index.tsx'];

const sourceFiles = (directory: string): string[] =>
  readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return SOURCE.test(name) && !TEST.test(name) ? [path] : [];
  });

/** The file a relative specifier names, or undefined for a package or a file of another kind (json, css). */
const resolve = (root: string, from: string, specifier: string): string | undefined => {
  if (!specifier.startsWith('.')) return undefined;
  const base = join(root, dirname(from), specifier.replace(/\.(js|jsx|mjs)$/, ''));
  for (const candidate of [base, ...EXTENSIONS.map((extension) => base + extension)]) {
    if (SOURCE.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return relative(root, candidate).split(sep).join(posix.sep);
  }
  return undefined;
};

/** The relative imports of one file's text: import, export-from, import(), import type, require(). */
export const importSpecifiers = (text: string): string[] =>
  ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);

/** The import graph of the source files under the given folders (paths from the repository root). */
export const buildGraph = (root: string, folders: readonly string[]): Map<string, string[]> => {
  const graph = new Map<string, string[]>();
  for (const folder of folders) {
    for (const path of sourceFiles(join(root, folder))) {
      const file = relative(root, path).split(sep).join(posix.sep);
      const targets = importSpecifiers(readFileSync(path, 'utf8')).flatMap((specifier) => resolve(root, file, specifier) ?? []);
      graph.set(file, [...new Set(targets)]);
    }
  }
  return graph;
};

/** Files under a folder (a path from the repository root). */
export const under =
  (folder: string) =>
  (file: string): boolean =>
    file.startsWith(folder.endsWith('/') ? folder : `${folder}/`);

/**
 * The dashboard area a file belongs to (`src/dashboard/<area>/...`), or
 * undefined: kit/ (what areas share) and layout/ (the frame) are no areas,
 * nor are the files beside the folders (App.tsx, the composition root).
 */
export const dashboardArea = (file: string): string | undefined => {
  const match = /^src\/dashboard\/([^/]+)\//.exec(file);
  const area = match?.[1];
  return area === undefined || area === 'kit' || area === 'layout' ? undefined : area;
};

/** No file of one group imports a file of another group (a file of no group may import any). */
export const noImportsBetween = (name: string, groupOf: (file: string) => string | undefined): Rule => ({
  name,
  check: (graph) =>
    [...graph].flatMap(([file, targets]) => {
      const group = groupOf(file);
      if (group === undefined) return [];
      return targets.filter((target) => groupOf(target) !== undefined && groupOf(target) !== group).map((target) => `${file} -> ${target}`);
    }),
});

/** No file that `from` picks imports a file that `to` picks. */
export const noImports = (name: string, from: (file: string) => boolean, to: (file: string) => boolean): Rule => ({
  name,
  check: (graph) => [...graph].flatMap(([file, targets]) => (from(file) ? targets.filter(to).map((target) => `${file} -> ${target}`) : [])),
});

/** The circles among the files `within` picks: each strongly connected set of two or more files (or a file importing itself). */
export const circles = (graph: ImportGraph, within: (file: string) => boolean): string[][] => {
  // Tarjan's algorithm, iterative so a long chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const next = (file: string) => (graph.get(file) ?? []).filter(within);
  let counter = 0;
  for (const start of [...graph.keys()].filter(within)) {
    if (index.has(start)) continue;
    const work: { file: string; edge: number }[] = [{ file: start, edge: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = next(frame.file);
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const members: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        members.push(member);
      } while (member !== frame.file);
      if (members.length > 1 || next(frame.file).includes(frame.file)) found.push(members.sort());
    }
  }
  return found;
};

/** No circle of files among those `within` picks. */
export const noCircles = (name: string, within: (file: string) => boolean): Rule => ({
  name,
  check: (graph) => circles(graph, within).map((members) => `circle of ${members.length}: ${members.join(', ')}`),
});

/** The folders the graph is built from. */
export const FOLDERS = ['src', 'server/src'] as const;

/**
 * The rules, one line each. The dashboard's areas stand side by side on the
 * kit: an area shows another's part only through what App.tsx hands over
 * (src/dashboard/kit/embeds.tsx), and the layout asks the areas for its menu
 * entries and route watchers (Domain, src/dashboard/domain.ts). The engine
 * imports no HTTP module nor other domain of the server: what it needs of
 * them is given to it (server/src/engineDomains.ts); only the database's
 * types and handle are its own to import (engine/imports.test.ts holds the
 * order of its four parts).
 */
export const RULES: readonly Rule[] = [
  noImportsBetween('a dashboard area imports another area', dashboardArea),
  noImports('the layout imports an area', under('src/dashboard/layout'), (file) => dashboardArea(file) !== undefined),
  noCircles('a circle of files in src/', under('src')),
  noImports('the engine imports an HTTP module or another domain', under('server/src/engine'), (file) => file.startsWith('server/src/') && !under('server/src/engine')(file) && !under('server/src/db')(file)),
  noCircles('a circle of files in server/src/', under('server/src')),
];

/** Every broken rule, with its lines; empty when the code keeps them all. */
export const checkRules = (graph: ImportGraph, rules: readonly Rule[] = RULES): { rule: string; lines: string[] }[] =>
  rules.map((rule) => ({ rule: rule.name, lines: rule.check(graph) })).filter((broken) => broken.lines.length > 0);
