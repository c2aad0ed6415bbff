import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';

/** Builds the dashboard once for every journey, exactly as `npm run build` does, into a temporary folder. */
export default async function setup({ provide }: { provide: (key: 'dashboardDir', value: string) => void }) {
  const outDir = mkdtempSync(join(tmpdir(), 'qt-dashboard-'));
  // Vitest sets NODE_ENV=test; the journeys drive the production build a user gets.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root: process.cwd(), mode: 'production', logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  provide('dashboardDir', outDir);
  return () => rmSync(outDir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    dashboardDir: string;
  }
}
