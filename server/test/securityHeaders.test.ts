import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../scripts/precompress';
import { registerUser, startServer, type TestServer } from './harness';

/**
 * The browser hardening headers (README "Security headers") on the dashboard's
 * page, its files and the API: a strict CSP, no framing, nosniff, no referrer,
 * HSTS only when a trusted proxy says the browser came over TLS; and the
 * widgets script stays loadable from partner pages (CORP and CORS).
 */

const PARTNER = 'https://partner.example';

/** A GET as sent (fetch adds and handles headers of its own, revalidation among them). */
const rawGet = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; headers: Headers }>((resolve, reject) => {
    request(url, { headers }, (response) => {
      response.resume();
      response.on('end', () => {
        const all = new Headers();
        for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') all.set(name, value);
        resolve({ status: response.statusCode!, headers: all });
      });
    })
      .on('error', reject)
      .end();
  });

/** The directives of a CSP header, by name. */
const directives = (header: string | null) =>
  Object.fromEntries(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );

const expectHardened = (headers: Headers) => {
  const csp = directives(headers.get('content-security-policy'));
  expect(csp['default-src']).toEqual(["'self'"]);
  expect(csp['script-src']).toEqual(["'self'"]);
  expect(csp['script-src-attr']).toEqual(["'none'"]);
  expect(csp['object-src']).toEqual(["'none'"]);
  expect(csp['base-uri']).toEqual(["'none'"]);
  expect(csp['frame-ancestors']).toEqual(["'none'"]);
  expect(csp['connect-src']).toEqual(["'self'"]);
  expect(csp['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
  expect(csp['upgrade-insecure-requests']).toBeUndefined();
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(headers.get('x-powered-by')).toBeNull();
};

describe('security headers', () => {
  let dir: string;
  let dashboardDir: string;
  let widgetsDir: string;
  let server: TestServer;
  let proxied: TestServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qt-headers-'));
    dashboardDir = join(dir, 'dashboard');
    mkdirSync(join(dashboardDir, 'assets'), { recursive: true });
    writeFileSync(join(dashboardDir, 'index.html'), `<!doctype html><html><head><script type="module" src="/assets/index-Ab_d12-Z.js"></script></head><body>${'<!-- 量化 -->'.repeat(200)}</body></html>`);
    writeFileSync(join(dashboardDir, 'assets', 'index-Ab_d12-Z.js'), Array.from({ length: 200 }, (_, i) => `export const v${i} = ${i};`).join('\n'));
    precompress(dashboardDir);
    widgetsDir = join(dir, 'widgets');
    mkdirSync(widgetsDir);
    writeFileSync(join(widgetsDir, 'qt-widgets.iife.js'), 'window.qt = 1;');
    writeFileSync(join(widgetsDir, 'qt-widgets.0123456789.iife.js'), 'window.qt = 1;');
    server = await startServer('pglite', { dashboardDir, widgetsDir, corsOrigins: [PARTNER] });
    proxied = await startServer('pglite', { dashboardDir, trustProxy: true });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await proxied?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hardens the dashboard page, plain and precompressed, keeping its cache rule', async () => {
    for (const encoding of ['identity', 'br', 'gzip']) {
      const answer = await fetch(`${server.base}/`, { headers: { 'accept-encoding': encoding } });
      expect(answer.status).toBe(200);
      expectHardened(answer.headers);
      expect(answer.headers.get('cache-control')).toBe('no-cache');
      expect(answer.headers.get('strict-transport-security')).toBeNull();
    }
    // A revalidation (304) carries the same policy.
    const first = await rawGet(`${server.base}/`, { 'accept-encoding': 'br' });
    const again = await rawGet(`${server.base}/`, { 'accept-encoding': 'br', 'if-none-match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
    expectHardened(again.headers);
    // A script keeps nosniff and its resource policy; the page-only headers stay off it (bytes on every file).
    for (const encoding of ['identity', 'br']) {
      const script = await fetch(`${server.base}/assets/index-Ab_d12-Z.js`, { headers: { 'accept-encoding': encoding } });
      expect(script.status).toBe(200);
      expect(script.headers.get('x-content-type-options')).toBe('nosniff');
      expect(script.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      for (const header of ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy', 'referrer-policy']) expect(script.headers.get(header)).toBeNull();
    }
  });

  it('hardens API answers: success, refusal, 401 and unknown route', async () => {
    const user = await registerUser(server, { email: 'headers@example.com' });
    const ok = await fetch(`${server.base}/api/wallet/config`, { headers: { authorization: `Bearer ${user.accessToken}` } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { code: number }).code).toBe(0);
    expectHardened(ok.headers);
    for (const path of ['/api/wallet/config', '/api/no/such/route']) {
      const refused = await fetch(`${server.base}${path}`);
      expect([401, 404]).toContain(refused.status);
      expectHardened(refused.headers);
    }
  });

  it('keeps the widgets script embeddable by partner pages (CORP cross-origin, CORS for listed origins)', async () => {
    for (const name of ['qt-widgets.iife.js', 'qt-widgets.0123456789.iife.js']) {
      const answer = await fetch(`${server.base}/widgets/${name}`, { headers: { origin: PARTNER } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('access-control-allow-origin')).toBe(PARTNER);
    }
    expect((await fetch(`${server.base}/widgets/qt-widgets.iife.js`)).headers.get('cache-control')).toBe('public, max-age=300');
    // The widgets' API calls from a partner origin: CORS answers as before, with the hardening headers.
    const preflight = await fetch(`${server.base}/api/wallet/balances`, {
      method: 'OPTIONS',
      headers: { origin: PARTNER, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(PARTNER);
    const call = await fetch(`${server.base}/api/wallet/balances`, { headers: { origin: PARTNER } });
    expect(call.headers.get('access-control-allow-origin')).toBe(PARTNER);
  });

  it('sends HSTS only behind a trusted proxy that says https', async () => {
    const https = await fetch(`${proxied.base}/`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expectHardened(https.headers);
    const api = await fetch(`${proxied.base}/api/no/such/route`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(api.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect((await fetch(`${proxied.base}/`, { headers: { 'x-forwarded-proto': 'http' } })).headers.get('strict-transport-security')).toBeNull();
    expect((await fetch(`${proxied.base}/`)).headers.get('strict-transport-security')).toBeNull();
    // Without TRUST_PROXY anyone could send the header: it is not believed.
    expect((await fetch(`${server.base}/`, { headers: { 'x-forwarded-proto': 'https' } })).headers.get('strict-transport-security')).toBeNull();
  });
});
