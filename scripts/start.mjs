// `npm start`: build the dashboard when its build is missing or older than its
// sources, then start the API server, which serves it and /api on one port.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

const newest = (path) => {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
};

const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
const stale = (output, config) => {
  const sources = ['src', 'index.html', config, 'scripts/precompress.ts', 'package-lock.json'].map((p) => join(root, p)).filter(existsSync);
  return !existsSync(output) || Math.max(...sources.map(newest)) > statSync(output).mtimeMs;
};
// The dashboard, and the widgets bundle partner pages embed (served at /widgets/).
for (const [what, output, config] of [
  ['dashboard', join(root, 'dist', 'index.html'), 'vite.config.ts'],
  ['widgets', join(root, 'dist-widgets', 'qt-widgets.iife.js'), 'vite.widgets.config.ts'],
]) {
  if (!stale(output, config)) continue;
  console.log(`Building the ${what}…`);
  const build = spawnSync(process.execPath, [vite, 'build', '-c', config, '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The API server serves the built dashboard and /api on one port (PORT, default 3000).
const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'src', 'main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
