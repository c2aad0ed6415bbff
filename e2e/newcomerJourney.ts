import Big from 'big.js';
import { afterEach, describe, expect, it } from 'vitest';
import { registerUser } from '../server/test/harness';
import type { VIEWPORTS } from './browser';
import { hashPath, startJourney, type Journey } from './harness';

/**
 * A newcomer's first hour in real Chromium, with no activation anywhere: a
 * user who just registered binds the paper account the home page offers,
 * creates tasks for two coins with a system template, sees fills, opens the
 * candlestick chart with its fills and lines, and finds the tasks on the home
 * page. zh-CN, at phone and desktop widths (a file each,
 * newcomer.<viewport>.test.ts, each well within a test file's time). The
 * machine has no internet, so the paper account's Binance prices fall back to
 * the simulator, and the pages must say so.
 */
export const newcomersFirstHour = (viewport: keyof typeof VIEWPORTS) =>
  describe(`a newcomer's first hour (${viewport})`, () => {
    let journey: Journey | undefined;
    afterEach(async () => {
      await journey?.close();
      journey = undefined;
    });

    it('binds a paper account from the home page, trades two coins without activation, and reads the candlestick chart', async () => {
      journey = await startJourney({ viewport, locale: 'zh-CN' });
      const j = journey;
      const { page } = j;
      const shot = (name: string) => j.shot(`newcomer-${name}-${viewport}`);
      // Just registered: not activated, no fuel, no template, no account.
      const session = await registerUser(j.server, { email: `newcomer-${viewport}@example.com` });
      expect(session.user.activated).toBe(false);
      await page.goto(j.url('/auth/login'));
      await page.evaluate(
        ([access, refresh]) => {
          localStorage.setItem('accessToken', access!);
          localStorage.setItem('refreshToken', refresh!);
        },
        [session.accessToken, session.refreshToken],
      );

      // Home offers the paper account; the add page has it chosen, Binance prices by default.
      await page.goto(j.url('/'));
      await page.getByRole('link', { name: '绑定模拟盘账户' }).click();
      await expect.poll(() => hashPath(page)).toBe('/exchange/add');
      await page.getByText('行情来源').first().waitFor();
      await shot('exchange-add');
      await page.getByRole('button', { name: '保存' }).click();
      // Saving waits a moment for the exchange's first prices (it cannot be reached here).
      await expect.poll(() => hashPath(page), { timeout: 15_000 }).toBe('/exchange');
      // Unreachable from here: the account says it trades on simulated prices.
      await page.getByText(/模拟行情/).first().waitFor();
      await shot('exchange-list');

      // The wizard with a system template, two coins.
      await page.goto(j.url('/trade/add'));
      await page.getByRole('combobox', { name: '交易所 API' }).click();
      await page.getByRole('option').first().click();
      await page.getByRole('link', { name: '选择交易对' }).click();
      await page.getByRole('checkbox', { name: 'BTC/USDT' }).check();
      await page.getByRole('checkbox', { name: 'ETH/USDT' }).check();
      await shot('pair-select');
      await page.getByRole('button', { name: '完成' }).click();
      await page.getByRole('combobox', { name: '策略模板' }).click();
      await page.getByRole('option', { name: '稳健型' }).click();
      await page.getByText(/2 个交易对共/).waitFor();
      // A first order below the exchange's minimum is refused with its remedy beside it: take it.
      const firstOrder = page.getByRole('textbox', { name: /^首单金额/ });
      await firstOrder.fill('1');
      await page.getByRole('button', { name: '创建任务' }).click();
      const remedy = page.getByRole('button', { name: /^首单改为 .+ USDT$/ });
      await remedy.waitFor();
      await shot('wizard-remedy');
      const suggested = /^首单改为 (.+) USDT$/.exec((await remedy.innerText()).trim())![1]!;
      await remedy.click();
      // The button shows the amount in the number format (6.30), the field takes its value (6.3).
      expect(new Big(await firstOrder.inputValue()).eq(suggested.replace(/,/g, ''))).toBe(true);
      await page.getByRole('button', { name: '创建任务' }).click();
      await page.getByText('创建交易成功').waitFor();
      // No activation was asked for anywhere.
      expect(await page.getByText('用户未激活').count()).toBe(0);
      await expect.poll(() => hashPath(page)).toBe('/trade');

      // Fills within seconds (the engine's ticks, driven here).
      for (let i = 0; i < 5; i++) await j.server.app.engine.tick();
      const token = session.accessToken;
      const tasks = (await j.server.call('GET', '/api/trade/list', undefined, { token })).body.data.list as { id: string; symbol: string }[];
      expect(tasks.map((t) => t.symbol).sort()).toEqual(['BTC/USDT', 'ETH/USDT']);
      const orders = (await j.server.call('GET', '/api/trade/order-history', undefined, { token })).body.data.list as { status: string }[];
      expect(orders.filter((o) => o.status === 'closed').length).toBeGreaterThanOrEqual(2);
      for (let i = 0; i < 90; i++) await j.server.app.engine.tick();
      await j.server.app.engine.flush();

      // The candlestick chart: timeframes, a drawn canvas, the prices it trades on.
      const btc = tasks.find((t) => t.symbol === 'BTC/USDT')!;
      await page.goto(j.url(`/trade/detail/${btc.id}`));
      await page.getByRole('heading', { level: 1, name: '任务详情' }).waitFor();
      await page.getByText('模拟行情').first().waitFor();
      await page.getByRole('button', { name: '1分' }).click();
      await expect.poll(() => page.locator('canvas').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      const chart = await page.locator('canvas').first().boundingBox();
      expect(chart!.width).toBeGreaterThan(200);
      // No logo over the first markers: TradingView is credited by a link under the chart.
      expect(await page.locator('[data-chart="task"] #tv-attr-logo').count()).toBe(0);
      expect(await page.getByRole('link', { name: '图表由 TradingView 提供' }).getAttribute('href')).toBe('https://www.tradingview.com/');
      // The chart draws on animation frames: two of them, and it is on the canvas for the screenshot.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await shot('chart');

      // Home shows the tasks.
      await page.goto(j.url('/'));
      await page.getByText('BTC/USDT').first().waitFor();
      await page.getByText('ETH/USDT').first().waitFor();
      await shot('home');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport === 'phone' ? 375 : 1280);
    });
  });
