import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../server/test/harness';
import { DEFAULT_FEE_RATE } from '../src/api/strategy';
import { ensureDemoAccount } from '../server/src/demo/account';
import { DEMO_ACCOUNT_NAME, DEMO_BOTS, seedDemoBots } from '../server/src/demo/history';
import { hashPath, startJourney, startJourneyServer, type Journey } from './harness';

/**
 * A visitor tries the shared demo account (README "Run"), in zh-CN on a
 * phone and a desktop: one tap on the login page, and the bots are there
 * with the cycles they closed and their profit, under the demo's banner.
 */
// One server for both widths: the demo account and its bots' history, made once as `npm start` does on a first
// start (the account, then its bots' history through the engine); both visitors only look at them.
let server: TestServer;
beforeAll(async () => {
  server = await startJourneyServer({ demoAccount: true });
  await ensureDemoAccount(server.db, server.config.scryptCost);
  const seeded = await seedDemoBots(server.db, {
    log: Fastify({ logger: { level: 'silent' } }).log,
    paperStartUsdt: '10000',
    feeRate: DEFAULT_FEE_RATE,
    seed: 42,
    accountName: DEMO_ACCOUNT_NAME,
  });
  expect(seeded?.cycles).toBeGreaterThan(0);
});
afterAll(() => server?.close());
let journey: Journey | undefined;
afterEach(async () => {
  await journey?.close();
  journey = undefined;
});

describe.each(['phone', 'desktop'] as const)('the demo account (%s, zh-CN)', (viewport) => {
  it('opens in one tap from the login page and shows bots with closed cycles and profit, under the banner', { timeout: 120_000 }, async () => {
    journey = await startJourney({ viewport, locale: 'zh-CN', server });
    const j = journey;
    const { page } = j;
    const shot = (name: string) => j.shot(`demo-${name}-${viewport}`);
    const width = viewport === 'phone' ? 375 : 1280;
    await page.goto(j.url('/auth/login'));
    const demo = page.getByRole('button', { name: '体验演示账户' });
    await demo.waitFor();
    await shot('login');
    await demo.click();
    await expect.poll(() => hashPath(page), { timeout: 15_000 }).toBe('/');

    const banner = page.locator('[data-demo-banner]');
    await banner.waitFor();
    expect(await banner.innerText()).toContain('你正在使用共享演示账户');
    expect(await banner.innerText()).toContain('不能修改密码、邮箱、资料或安全设置');
    // The home page shows the bots' profit, not the newcomer's empty "first robot" card.
    const realized = page.locator('[data-stat="realized"]');
    await realized.waitFor({ timeout: 15_000 });
    expect(await realized.innerText()).toMatch(/\+\d[\d,]*\.\d{2}/);
    expect(await page.locator('[data-section="home-empty"]').count()).toBe(0);
    await shot('home');

    await page.goto(j.url('/trade'));
    const cards = page.locator('[data-task]');
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(DEMO_BOTS.length);
    for (let i = 0; i < DEMO_BOTS.length; i += 1) {
      const card = cards.nth(i);
      // Closed cycles: the counter is past the first round, and the realized profit is above 0.
      await expect.poll(async () => card.locator('[data-figure="realized"]').innerText()).toMatch(/\+\d[\d,]*\.\d{2}/);
      expect(await card.locator('[data-figure="cycle"]').innerText()).toMatch(/\d/);
    }
    expect(await banner.isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await shot('bots');

    // A bot's page: its chart with the fills, its returns.
    await cards.first().locator('a, [role="button"]').first().click();
    await expect.poll(() => hashPath(page)).toMatch(/^\/trade\/detail\//);
    await page.locator('[data-chart="task"]').waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.locator('[data-chart="task"] canvas').first().waitFor();
    await shot('bot');

    // What the demo cannot do is not offered: the security page explains it instead of a password form.
    await page.goto(j.url('/profile/security'));
    await page.locator('[data-demo-locked]').first().waitFor();
    expect(await page.getByRole('button', { name: '修改密码' }).count()).toBe(0);
    await shot('security');

    // The banner in the other two languages, within the width.
    for (const [locale, text] of [
      ['en-US', 'You are in the shared demo account'],
      ['zh-TW', '你正在使用共享示範帳戶'],
    ] as const) {
      await page.evaluate((code) => localStorage.setItem('locale', code), locale);
      await page.goto(j.url('/trade'));
      await page.reload();
      await expect.poll(async () => (await banner.count()) > 0 && (await banner.innerText()).includes(text), { timeout: 15_000 }).toBe(true);
      await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(DEMO_BOTS.length);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(`bots-${locale}`);
    }
  });
});
