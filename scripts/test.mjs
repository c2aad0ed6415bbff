// `npm test`: the TypeScript check and Vitest at the same time. The check is
// one process on one core, and Vitest's global setup (the migrations, the
// dashboard build for the journeys) leaves a core idle at the start, so the
// two share the machine instead of the check running first on its own.
// Arguments go to Vitest; the check's output comes after Vitest's summary,
// and the run fails when either fails.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = (path) => join(root, 'node_modules', ...path.split('/'));

const run = (script, args, capture) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [bin(script), ...args], { cwd: root, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (capture) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });

const started = Date.now();
const typecheck = run('typescript/bin/tsc', ['--noEmit', '-p', 'tsconfig.json'], true).then((result) => ({ ...result, seconds: (Date.now() - started) / 1000 }));
const tests = await run('vitest/vitest.mjs', ['run', ...process.argv.slice(2)], false);
const check = await typecheck;

process.stdout.write(`\nTypeScript check (${check.seconds.toFixed(0)} s): ${check.code === 0 ? 'no errors' : 'FAILED'}\n${check.output}`);
process.exit(tests.code !== 0 ? tests.code : check.code);
