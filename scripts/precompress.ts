import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text files worth compressing; source maps are fetched by developer tools only. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.webmanifest']);
/** Below this, a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });

/**
 * Writes `<file>.br` (brotli, highest quality) and `<file>.gz` (gzip level 9)
 * next to every compressible file of a build, so the server sends them as they
 * are instead of compressing on every request.
 */
export const precompress = (dir: string) => {
  for (const path of files(dir)) {
    if (!COMPRESSIBLE.has(extname(path))) continue;
    const body = readFileSync(path);
    if (body.length < MIN_BYTES) continue;
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    );
    writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
  }
};

/** The first 10 hex digits of a file's SHA-256: names a pinned copy of a stable file. */
export const contentHash = (body: Buffer) => createHash('sha256').update(body).digest('hex').slice(0, 10);

/**
 * Vite plugin: after the bundle is written, copies each `pinned` file (stable
 * names partner pages load) to `<name>.<hash><ext>` and lists the copies in
 * `manifest`, then precompresses the whole output directory.
 */
export const precompressPlugin = (options: { pinned?: string[]; manifest?: string } = {}): Plugin => {
  let outDir = '';
  return {
    name: 'quant-trader:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const pinned: Record<string, string> = {};
        for (const name of options.pinned ?? []) {
          const body = readFileSync(join(outDir, name));
          // qt-widgets.iife.js -> qt-widgets.<hash>.iife.js
          const stem = basename(name).split('.')[0]!;
          const copy = `${stem}.${contentHash(body)}${basename(name).slice(stem.length)}`;
          writeFileSync(join(outDir, copy), body);
          pinned[name] = copy;
        }
        if (options.manifest) writeFileSync(join(outDir, options.manifest), `${JSON.stringify(pinned, null, 2)}\n`);
        precompress(outDir);
      },
    },
  };
};
