/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressPlugin } from './scripts/precompress.js';

// Only Vitest needs the test order (it imports vitest/node); a build does not load it.
const LongestFirst = process.env.VITEST ? (await import('./scripts/testOrder.js')).default : undefined;

// The dashboard: a react-admin single page app mounted at "/" (hash routes).
// Vitest shares this file so tests see the same module resolution as the build.
export default defineConfig({
  base: '/',
  // Brotli and gzip copies of the build, which the server negotiates (Accept-Encoding).
  plugins: [react(), precompressPlugin()],
  server: {
    // `npm run dev` forwards the API to the server started separately.
    proxy: { '/api': process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:3000' },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // The entry (React, react-admin, MUI and the guest pages) is about 600 KB before compression; the signed-in
    // pages are chunks of their own, loaded on first visit (src/dashboard/domain.ts lazyPage).
    chunkSizeWarningLimit: 700,
  },
  test: {
    restoreMocks: true,
    // Both cores of the CI machine (vitest's default leaves one idle); TEST_WORKERS to choose.
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    // The default report, then the slowest files and the per-file limit (scripts/testTimeBudget.ts).
    reporters: ['default', './scripts/testTimeBudget.ts'],
    testTimeout: 20000,
    // Every project's files longest first by their measured times, so the run does not end on one long file.
    sequence: LongestFirst ? { sequencer: LongestFirst } : {},
    projects: [
      {
        extends: true,
        test: {
          name: 'browser-code',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/testing/setup.ts'],
          // TEST_JSDOM_SHARED=1: a worker runs its files in one jsdom and one module graph (jsdom, React, MUI and
          // react-admin load once a worker, not once a file), each file leaving nothing behind (src/testing/setup.ts).
          // Isolated by default until a whole run of this project passes that way (README, "Speed and its budget").
          isolate: process.env.TEST_JSDOM_SHARED !== '1',
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts'],
          hookTimeout: 60000,
          // A worker runs its files in one module graph: the server's modules (Fastify, ccxt, PGlite's engine) load
          // once per worker, not once per file, and a worker's files share its PGlite (a schema per server). A file
          // leaves no process state behind (environment variables, timers) for the next.
          isolate: false,
          // Migrations recorded once and PGlite's migrated data folder dumped; a PostgreSQL database per worker.
          globalSetup: ['server/test/globalSetup.ts'],
          setupFiles: ['server/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'journeys',
          environment: 'node',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['server/test/globalSetup.ts', 'e2e/globalSetup.ts'],
          testTimeout: 60000,
          hookTimeout: 120000,
          // Isolated. Sharing a worker's module graph passed and made each journey file faster, but a server file
          // after six journeys in one worker took +24 %, and a whole run took as long either way (2,060 s): no gain.
          // A page under a loaded machine can take seconds to show what a poll waits for (the default is 1 s).
          expect: { poll: { timeout: 10000 } },
          // The journeys share the workers with the other layers (two files at once on two cores), each worker's
          // journeys driving one Chromium of the global setup in contexts of their own.
        },
      },
    ],
  },
});
