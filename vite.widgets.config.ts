import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressPlugin } from './scripts/precompress.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The embeddable widgets: one ES module and one IIFE for a plain script tag,
 * everything bundled. The components are React code (the dashboard can use
 * them too); in this bundle React is preact/compat, which partner pages pay
 * about a sixth of react-dom's weight for.
 */
export default defineConfig({
  base: './',
  plugins: [
    react(),
    // Partner pages that pin a version load qt-widgets.<hash>.iife.js (listed in qt-widgets.manifest.json);
    // every file also gets brotli and gzip copies.
    precompressPlugin({ pinned: ['qt-widgets.iife.js', 'qt-widgets.js'], manifest: 'qt-widgets.manifest.json' }),
  ],
  resolve: {
    alias: [
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
      { find: /^react$/, replacement: 'preact/compat' },
    ],
  },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  publicDir: false,
  build: {
    outDir: 'dist-widgets',
    emptyOutDir: true,
    sourcemap: false,
    lib: {
      entry: here('./src/widgets/index.ts'),
      name: 'QtWidgets',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'qt-widgets.js' : 'qt-widgets.iife.js'),
    },
  },
});
