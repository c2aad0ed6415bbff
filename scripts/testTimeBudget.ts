import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { DURATIONS_FILE, readDurations } from './testOrder';

/**
 * The suite's time budget, a vitest reporter (vite.config.ts): at the end of
 * a run it prints the slowest test files and names every file over the limit
 * (TEST_FILE_LIMIT_SECONDS, 60 by default) that ALLOWED below does not name
 * with the reason it needs more. A file over the limit is split, or its cause
 * found, rather than allowed. The run fails when such a file takes more than
 * TEST_FILE_FAIL_SECONDS (twice the limit by default): a few files still sit
 * near the limit on a loaded machine (accounts, App), and a run must not fail
 * on a second of noise until they are split.
 */
export const ALLOWED: Record<string, string> = {
  'server/test/engineReplay.pglite.test.ts':
    "the one full-length replay on PGlite: three weeks of recorded minutes, 30,240 engine ticks of a transaction each; shorter paths are engineReplay.property's",
  'server/test/engineReplay.property.pglite.test.ts':
    'twelve fast-check price paths through the engine on PGlite (PostgreSQL takes six in its own file), each a server and up to 400 engine ticks of a transaction each: the money invariants over random paths',
  'server/test/engineCluster.test.ts':
    'engine processes started as real processes, killed with SIGKILL, and their leases left to expire (3 s each) before another process takes the shards: mostly waiting, on PostgreSQL only',
  'server/test/engineReplay.postgres.test.ts':
    "the one full-length replay on PostgreSQL: three weeks of recorded minutes, 30,240 engine ticks of a transaction each; shorter paths are engineReplay.property's",
};

const SHOWN = 10;

export interface FileTime {
  file: string;
  project: string;
  seconds: number;
}

/** A file's time as a run spends it: its environment, setup file, import and every test and hook. */
export const fileSeconds = (module: TestModule): number => {
  const { environmentSetupDuration, prepareDuration, collectDuration, setupDuration, duration } = module.diagnostic();
  return (environmentSetupDuration + prepareDuration + collectDuration + setupDuration + duration) / 1000;
};

/** The lines printed, the files over the limit that are not allowed, and those of them over the failing time. */
export const budgetReport = (times: FileTime[], limitSeconds: number, allowed: Record<string, string> = ALLOWED, failSeconds = 2 * limitSeconds) => {
  const slowest = [...times].sort((a, b) => b.seconds - a.seconds);
  const over = slowest.filter((time) => time.seconds > limitSeconds && !(time.file in allowed));
  const failing = over.filter((time) => time.seconds > failSeconds);
  const lines = [`Slowest test files (limit ${limitSeconds} s a file):`];
  for (const time of slowest.slice(0, SHOWN)) {
    const mark = time.seconds > limitSeconds ? (time.file in allowed ? `  over, allowed: ${allowed[time.file]}` : '  OVER THE LIMIT') : '';
    lines.push(`  ${time.seconds.toFixed(1).padStart(7)} s  ${time.project.padEnd(12)} ${time.file}${mark}`);
  }
  for (const time of over) {
    lines.push(`${time.file} took ${time.seconds.toFixed(1)} s, over the ${limitSeconds} s a test file may take: split it or find what is slow (or name it in ALLOWED of scripts/testTimeBudget.ts with the reason).`);
  }
  if (failing.length > 0) lines.push(`The run fails: ${failing.length} file(s) took over ${failSeconds} s (TEST_FILE_FAIL_SECONDS).`);
  return { lines, over, failing };
};

export default class TestTimeBudget implements Reporter {
  private root = process.cwd();

  onInit(vitest: { config: { root: string } }) {
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, _errors: unknown, reason: string) {
    if (reason === 'interrupted' || modules.length === 0) return;
    const limit = Number(process.env.TEST_FILE_LIMIT_SECONDS ?? 60);
    const times = modules.map((module) => ({ file: relative(this.root, module.moduleId), project: module.project.name, seconds: fileSeconds(module) }));
    const { lines, failing } = budgetReport(times, limit, ALLOWED, Number(process.env.TEST_FILE_FAIL_SECONDS ?? 2 * limit));
    process.stdout.write(`\n${lines.join('\n')}\n`);
    // The times the next runs order their files by (scripts/testOrder.ts), kept for the files not run this time.
    if (process.env.TEST_DURATIONS_WRITE === '1') {
      const durations = readDurations();
      for (const time of times) durations[`${time.project}:${time.file}`] = Math.round(time.seconds * 10) / 10;
      const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
      writeFileSync(DURATIONS_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
    }
    if (failing.length > 0) process.exitCode = 1;
  }
}
