import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order the suite's files start in (vite.config.ts `sequence.sequencer`).
 * Vitest's own order runs the projects one after another and, on a fresh clone
 * (no results cache), the larger files first: a long file of the last project
 * (a full-length replay, the engine cluster) could start last and leave the
 * other worker idle for a minute. Here every file of every project is ordered
 * longest first by its time in `scripts/testDurations.json` (measured, file
 * by file; refresh it with `TEST_DURATIONS_WRITE=1 npm test`), so the run ends
 * on short files. A file not listed counts as UNKNOWN_SECONDS.
 */
export const DURATIONS_FILE = new URL('./testDurations.json', import.meta.url);
export const UNKNOWN_SECONDS = 5;

export interface Planned {
  key: string;
  seconds: number;
}

/** Longest first (ties by name, so every run has the same order). */
export const planOrder = (files: Planned[]): string[] =>
  [...files].sort((a, b) => b.seconds - a.seconds || (a.key < b.key ? -1 : 1)).map((file) => file.key);

export const readDurations = (): Record<string, number> => {
  try {
    return JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
};

export const fileKey = (project: string, root: string, moduleId: string) => `${project}:${relative(root, moduleId)}`;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = readDurations();
    const root = this.ctx.config.root;
    const byKey = new Map(files.map((spec) => [fileKey(spec.project.name, root, spec.moduleId), spec]));
    const planned = [...byKey.keys()].map((key) => ({ key, seconds: durations[key] ?? UNKNOWN_SECONDS }));
    return planOrder(planned).map((key) => byKey.get(key)!);
  }
}
