/**
 * Dashboard assets: the JavaScript a browser downloads for the login page and
 * for the home page of a signed-in user, counted on the wire (Chromium's
 * encoded bytes: compressed bodies and their response headers) and
 * uncompressed, with the number of requests; then the login page again in the
 * same browser (every hashed file from its cache). The real server serves a
 * production build of the dashboard, as `npm start` does.
 *
 *   npm run bench:assets
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { build } from 'vite';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { migrate, openDatabase } from '../server/src/db/database';
import { ensureDemoAccount } from '../server/src/demo/account';
import { loginDemo } from './demoLogin';
import { launchChromium } from '../e2e/browser';

const dir = mkdtempSync(join(tmpdir(), 'qt-bench-assets-'));
const dashboardDir = join(dir, 'dashboard');
process.env.NODE_ENV = 'production';
await build({ root: process.cwd(), mode: 'production', logLevel: 'warn', build: { outDir: dashboardDir, emptyOutDir: true } });

const config = loadConfig({ DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn', SCRYPT_COST: '16384', ENGINE_TICK_MS: '0', DASHBOARD_DIR: dashboardDir });
const db = await openDatabase({});
await migrate(db);
await ensureDemoAccount(db, config.scryptCost);
const app = await buildApp(config, { db });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

interface Tally {
  requests: number;
  wireBytes: number;
  bytes: number;
  encodings: Record<string, number>;
  /** Each script fetched: its path and bytes on the wire. */
  files: { path: string; wireBytes: number; encoding: string }[];
}

/** Counts the scripts a page fetches over the network (not from the browser's cache), from Chromium's own network log. */
const watchScripts = async (page: Page) => {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const scripts = new Map<string, { path: string; bytes: number; encoding: string; fromCache: boolean }>();
  const tally: Tally = { requests: 0, wireBytes: 0, bytes: 0, encodings: {}, files: [] };
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    if (type !== 'Script') return;
    const encoding = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'content-encoding')?.[1] ?? 'identity';
    scripts.set(requestId, { path: new URL(response.url).pathname, bytes: 0, encoding: String(encoding), fromCache: Boolean(response.fromDiskCache || response.fromPrefetchCache || response.fromServiceWorker) });
  });
  cdp.on('Network.dataReceived', ({ requestId, dataLength }) => {
    const script = scripts.get(requestId);
    if (script) script.bytes += dataLength;
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const script = scripts.get(requestId);
    if (!script || script.fromCache) return;
    tally.requests += 1;
    tally.wireBytes += encodedDataLength;
    tally.bytes += script.bytes;
    tally.encodings[script.encoding] = (tally.encodings[script.encoding] ?? 0) + 1;
    tally.files.push({ path: script.path, wireBytes: encodedDataLength, encoding: script.encoding });
  });
  return tally;
};

const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;
const report = (tally: Tally) => ({ requests: tally.requests, wireKB: kb(tally.wireBytes), uncompressedKB: kb(tally.bytes), encodings: tally.encodings });

/** A fresh browser profile (empty cache) on a page, until the network is quiet and `ready` shows. */
const visit = async (context: BrowserContext, url: string, ready: string) => {
  const page = await context.newPage();
  const tally = await watchScripts(page);
  await page.goto(url);
  await page
    .locator(ready)
    .first()
    .waitFor({ timeout: 30_000 })
    .catch(async (error: unknown) => {
      throw new Error(`${url}: ${ready} did not show; the page says: ${(await page.locator('main').innerText().catch(() => '')).slice(0, 300)}`, { cause: error });
    });
  await page.waitForLoadState('networkidle');
  return { page, tally };
};

const login = await loginDemo(base);

const browser = await launchChromium();
let loginPage: Tally;
let loginAgain: Tally;
let homePage: Tally;
try {
  // The login page, first visit.
  const guest = await browser.newContext({ locale: 'zh-CN' });
  const first = await visit(guest, `${base}/#/auth/login`, 'input[name="password"]');
  loginPage = first.tally;
  await first.page.close();
  // The login page again in the same browser: the hashed files come from its cache.
  const again = await visit(guest, `${base}/#/auth/login`, 'input[name="password"]');
  loginAgain = again.tally;
  await guest.close();

  // The home page of a signed-in user (the demo account), first visit.
  const member = await browser.newContext({ locale: 'zh-CN' });
  await member.addInitScript(
    ([access, refresh]) => {
      localStorage.setItem('accessToken', access!);
      localStorage.setItem('refreshToken', refresh!);
    },
    [login.data.accessToken as string, login.data.refreshToken as string],
  );
  // The demo account has no task yet: the home page shows its first steps.
  const home = await visit(member, `${base}/#/`, '[data-stat], [data-section="home-empty"]');
  homePage = home.tally;
  // The area's texts arrive with the page's code: no text key may show instead of its text.
  const shown = await home.page.locator('main').innerText();
  if (/\bhome\.[a-zA-Z]+/.test(shown)) throw new Error(`the home page shows text keys: ${shown.slice(0, 300)}`);
  await member.close();
} finally {
  await browser.close();
  await app.close();
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
}

// BENCH_FILES=1: every script of the login page, largest first (what to split when the budget is hit).
if (process.env.BENCH_FILES) {
  for (const file of [...loginPage.files].sort((a, b) => b.wireBytes - a.wireBytes)) console.log(`${kb(file.wireBytes).toFixed(1).padStart(7)} KB  ${file.encoding.padEnd(8)} ${file.path}`);
}
console.log(JSON.stringify({ loginPage: report(loginPage), loginPageRepeatVisit: report(loginAgain), homePage: report(homePage) }, null, 2));
/** What the login page may cost on the wire: the first screen a new user waits for. */
const BUDGET_BYTES = 300 * 1024;
if (loginPage.requests === 0 || homePage.requests === 0) {
  console.error('no script requests were counted');
  process.exitCode = 1;
} else if (loginPage.wireBytes > BUDGET_BYTES) {
  console.error(`the login page downloads ${kb(loginPage.wireBytes)} KB of JavaScript, over its budget of ${BUDGET_BYTES / 1024} KB`);
  process.exitCode = 1;
}
