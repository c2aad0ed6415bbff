import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../scripts/precompress';
import { startServer, type TestServer } from './harness';

/** A GET that hands back the bytes as sent (fetch would decode them). */
const get = (url: string, acceptEncoding?: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    request(url, { headers: { ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }), ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });

const decode = (response: { headers: Record<string, unknown>; body: Buffer }) => {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.body);
  if (encoding === 'gzip') return gunzipSync(response.body);
  return response.body;
};

describe('built files: precompressed copies and cache lifetimes', () => {
  let dir: string;
  let dashboardDir: string;
  let widgetsDir: string;
  let server: TestServer;
  /** A script in the shape of a dashboard chunk: repetitive text, well above the 1 KB compression floor. */
  const chunk = Array.from({ length: 400 }, (_, i) => `export const value${i} = "行情 ${i}";`).join('\n');
  const page = `<!doctype html><html><head><script type="module" src="/assets/index-Ab_d12-Z.js"></script></head><body>${'<!-- 量化 -->'.repeat(200)}</body></html>`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qt-static-'));
    dashboardDir = join(dir, 'dashboard');
    mkdirSync(join(dashboardDir, 'assets'), { recursive: true });
    writeFileSync(join(dashboardDir, 'index.html'), page);
    writeFileSync(join(dashboardDir, 'assets', 'index-Ab_d12-Z.js'), chunk);
    writeFileSync(join(dashboardDir, 'assets', 'tiny-Qw3rTy00.js'), 'export {};');
    precompress(dashboardDir);
    // The widgets as the real build makes them, with their pinned copies and compressed files.
    widgetsDir = join(dir, 'widgets');
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    await build({ configFile: join(process.cwd(), 'vite.widgets.config.ts'), mode: 'production', logLevel: 'warn', build: { outDir: widgetsDir, emptyOutDir: true } });
    // The worker's next files run in this process (vite.config.ts isolate: false).
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
    server = await startServer('pglite', { dashboardDir, widgetsDir });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends brotli when accepted, gzip when only gzip is, and the file as it is otherwise', async () => {
    const original = readFileSync(join(dashboardDir, 'assets', 'index-Ab_d12-Z.js'));
    const url = `${server.base}/assets/index-Ab_d12-Z.js`;
    const cases = [
      ['gzip, deflate, br, zstd', 'br'],
      ['br', 'br'],
      ['gzip, deflate', 'gzip'],
      ['gzip;q=1, br;q=0', 'gzip'],
      ['identity', undefined],
      ['deflate', undefined],
      [undefined, undefined],
    ] as const;
    for (const [accept, expected] of cases) {
      const response = await get(url, accept);
      expect(response.status, String(accept)).toBe(200);
      expect(response.headers['content-encoding'], String(accept)).toBe(expected);
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(String(response.headers.vary).toLowerCase()).toContain('accept-encoding');
      expect(decode(response).equals(original), String(accept)).toBe(true);
      if (expected) expect(response.body.length).toBeLessThan(original.length / 2);
      else expect(response.body.equals(original)).toBe(true);
    }
  });

  it('sends a file too small to have copies as it is, whatever the browser accepts', async () => {
    const response = await get(`${server.base}/assets/tiny-Qw3rTy00.js`, 'br, gzip');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body.toString()).toBe('export {};');
  });

  it('lets caches keep hashed dashboard files a year, and revalidate the page every time', async () => {
    for (const accept of ['br', 'gzip', undefined]) {
      const script = await get(`${server.base}/assets/index-Ab_d12-Z.js`, accept);
      expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      for (const path of ['/', '/index.html']) {
        const index = await get(`${server.base}${path}`, accept);
        expect(index.status).toBe(200);
        expect(index.headers['cache-control'], path).toBe('no-cache');
        expect(decode(index).toString()).toBe(page);
      }
    }
    const compressedIndex = await get(`${server.base}/`, 'br');
    expect(compressedIndex.headers['content-encoding']).toBe('br');
    expect(compressedIndex.headers['content-type']).toMatch(/text\/html/);
  });

  it('serves the widgets script under its stable name for five minutes with an ETag, and pinned copies for a year', async () => {
    const manifest = JSON.parse(readFileSync(join(widgetsDir, 'qt-widgets.manifest.json'), 'utf8')) as Record<string, string>;
    const pinned = manifest['qt-widgets.iife.js']!;
    expect(pinned).toMatch(/^qt-widgets\.[0-9a-f]{10}\.iife\.js$/);
    const original = readFileSync(join(widgetsDir, 'qt-widgets.iife.js'));
    expect(readFileSync(join(widgetsDir, pinned)).equals(original)).toBe(true);

    const stable = await get(`${server.base}/widgets/qt-widgets.iife.js`, 'gzip, deflate, br');
    expect(stable.headers['content-encoding']).toBe('br');
    expect(stable.headers['cache-control']).toBe('public, max-age=300');
    expect(stable.headers.etag).toBeTruthy();
    expect(decode(stable).equals(original)).toBe(true);
    // Once the five minutes are up, the browser revalidates and gets no body back when nothing changed.
    const again = await get(`${server.base}/widgets/qt-widgets.iife.js`, 'gzip, deflate, br', { 'if-none-match': String(stable.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);

    const gzip = await get(`${server.base}/widgets/qt-widgets.iife.js`, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.etag).not.toBe(stable.headers.etag);
    expect(decode(gzip).equals(original)).toBe(true);

    for (const accept of ['br', 'gzip', undefined]) {
      const copy = await get(`${server.base}/widgets/${pinned}`, accept);
      expect(copy.status).toBe(200);
      expect(copy.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(String(copy.headers.vary).toLowerCase()).toContain('accept-encoding');
      expect(decode(copy).equals(original)).toBe(true);
    }
    const es = await get(`${server.base}/widgets/${manifest['qt-widgets.js']}`, 'br');
    expect(es.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decode(es).equals(readFileSync(join(widgetsDir, 'qt-widgets.js')))).toBe(true);
  });
});
