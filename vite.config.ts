/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The dashboard: a react-admin single page app mounted at "/" (hash routes).
// Vitest shares this file so tests see the same module resolution as the build.
export default defineConfig({
  base: '/',
  plugins: [react()],
  server: {
    // `npm run dev` forwards the API to the server started separately.
    proxy: { '/api': process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:3000' },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup.ts'],
    restoreMocks: true,
    testTimeout: 20000,
  },
});
