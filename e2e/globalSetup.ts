import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';
import { launchChromiumServer } from './browser';

/**
 * What every journey shares, made once for the run: the dashboard and the
 * widgets bundle built exactly as `npm run build` builds them, each into a
 * temporary folder, and a Chromium per worker (journeys connect to their
 * worker's and open a context of their own: the unit of isolation).
 */
export default async function setup(project: TestProject) {
  const dashboardDir = mkdtempSync(join(tmpdir(), 'qt-dashboard-'));
  const widgetsDir = mkdtempSync(join(tmpdir(), 'qt-widgets-'));
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  // Chromium starts while the bundles build.
  const browsers = Promise.all(Array.from({ length: workers }, () => launchChromiumServer()));
  // Vitest sets NODE_ENV=test; the journeys drive the production build a user (or a partner page) gets.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root: process.cwd(), mode: 'production', logLevel: 'warn', build: { outDir: dashboardDir, emptyOutDir: true, sourcemap: false } });
    await build({
      configFile: join(process.cwd(), 'vite.widgets.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir: widgetsDir, emptyOutDir: true },
    });
  } catch (error) {
    await Promise.all((await browsers).map((server) => server.close()));
    throw error;
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const servers = await browsers;
  project.provide('dashboardDir', dashboardDir);
  project.provide('widgetsDir', widgetsDir);
  project.provide(
    'chromiumEndpoints',
    servers.map((server) => server.wsEndpoint()),
  );
  return async () => {
    await Promise.all(servers.map((server) => server.close()));
    rmSync(dashboardDir, { recursive: true, force: true });
    rmSync(widgetsDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dashboardDir: string;
    widgetsDir: string;
    chromiumEndpoints: string[];
  }
}
