/**
 * Widgets: the gzip size of the IIFE bundle, and in Chromium the time from
 * the script being loaded (its resource timing's responseEnd) to all three
 * widgets of the example page showing the user's data. Median of 5 loads.
 *
 *   npm run bench:widgets
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { migrate, openDatabase } from '../server/src/db/database';
import { ensureDemoAccount } from '../server/src/demo/account';
import { loginDemo } from './demoLogin';
import { chromiumPath } from '../e2e/browser';

const dir = mkdtempSync(join(tmpdir(), 'qt-bench-widgets-'));
const widgetsDir = join(dir, 'widgets');
process.env.NODE_ENV = 'production';
await build({ configFile: join(process.cwd(), 'vite.widgets.config.ts'), mode: 'production', logLevel: 'warn', build: { outDir: widgetsDir, emptyOutDir: true } });
const gzipBytes = gzipSync(readFileSync(join(widgetsDir, 'qt-widgets.iife.js'))).length;

const config = { ...loadConfig({ DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn', SCRYPT_COST: '16384', ENGINE_TICK_MS: '0', DASHBOARD_DIR: join(dir, 'none') }), widgetsDir };
const db = await openDatabase({});
await migrate(db);
await ensureDemoAccount(db, config.scryptCost);
const app = await buildApp(config, { db });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const login = await loginDemo(base);

const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const page = await browser.newPage();
await page.goto(`${base}/examples/partner.html`);
await page.evaluate(([a, r]) => {
  localStorage.setItem('accessToken', a!);
  localStorage.setItem('refreshToken', r!);
}, [login.data.accessToken, login.data.refreshToken]);

/**
 * Runs in the page (as text: the bundler's helpers do not exist there): resolves
 * with the milliseconds from the script's arrival to all three widgets showing data.
 */
const READY_TIME = `new Promise((resolve) => {
  const ready = () => {
    const example = document.querySelector('[data-example="zh-CN-light"]');
    const root = (name) => example && example.querySelector(name) && example.querySelector(name).shadowRoot;
    const card = root('qt-profit-card');
    const tasks = root('qt-task-list');
    const wallet = root('qt-wallet-balance');
    return Boolean(card && card.querySelector('[data-stat="total"]') && tasks && tasks.textContent.includes('暂无运行中的任务') && wallet && wallet.textContent.includes('激活卡') && wallet.textContent.includes('1,000'));
  };
  const check = () => {
    if (!ready()) return requestAnimationFrame(check);
    const script = performance.getEntriesByType('resource').find((entry) => entry.name.includes('qt-widgets.iife.js'));
    resolve(performance.now() - script.responseEnd);
  };
  check();
})`;

const runs: number[] = [];
for (let i = 0; i < 5; i++) {
  await page.reload();
  runs.push(Number(await page.evaluate(READY_TIME)));
}
runs.sort((a, b) => a - b);
console.log(JSON.stringify({ iifeGzipBytes: gzipBytes, scriptLoadedToDataMs: { median: Math.round(runs[2]!), runs: runs.map(Math.round) } }, null, 2));
/** The widgets' size budget: a partner page pays for every byte. */
const BUDGET_BYTES = 30 * 1024;
if (gzipBytes === 0 || runs.length !== 5) {
  console.error('nothing was measured');
  process.exitCode = 1;
} else if (gzipBytes > BUDGET_BYTES) {
  console.error(`the widgets bundle is ${gzipBytes} bytes gzip, over its budget of ${BUDGET_BYTES}`);
  process.exitCode = 1;
}
await browser.close();
await app.close();
await db.destroy();
rmSync(dir, { recursive: true, force: true });
