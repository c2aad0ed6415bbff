import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, type TestServer } from '../server/test/harness';
import { join } from 'node:path';
import { ARTIFACTS, startJourney, startJourneyServer, type Journey } from './harness';
import { textFindings } from './pageChecks';

/**
 * The backtest in real Chromium against the real server and its worker
 * thread: from the strategy editor, a template is backtested on the bundled
 * sample, its figures are read and checked against the run the server
 * stored, the chart is drawn, and three take profits are compared; then the
 * same panel opens from the trade wizard's template summary with the draft's
 * first order. zh-CN at phone and desktop widths.
 */
// One server for both widths: each backtests as a user of its own.
let server: TestServer;
beforeAll(async () => {
  server = await startJourneyServer();
});
afterAll(() => server?.close());
let journey: Journey | undefined;
afterEach(async () => {
  await journey?.close();
  journey = undefined;
});

const figure = (j: Journey, name: string) => j.page.locator(`[data-figure="${name}"] > div`).nth(1);

describe.each(['phone', 'desktop'] as const)('backtest in the browser (%s)', (viewport) => {
  it('backtests a template from the strategy editor, reads the figures and compares take profits', async () => {
    journey = await startJourney({ viewport, locale: 'zh-CN', server });
    const j = journey;
    const { page } = j;
    const session = await registerUser(j.server, { email: `backtester-${viewport}@example.com` });
    await page.goto(j.url('/auth/login'));
    await page.evaluate(([access, refresh]) => {
      localStorage.setItem('accessToken', access!);
      localStorage.setItem('refreshToken', refresh!);
    }, [session.accessToken, session.refreshToken]);
    const shot = (name: string) => j.shot(`backtest-${name}-${viewport}`);
    /** The panel alone, to look at it closely. */
    const panelShot = (name: string) => page.locator('[data-section="backtest"]').screenshot({ path: join(ARTIFACTS, `backtest-${name}-panel-${viewport}.png`) });
    const chartRequests: string[] = [];
    page.on('request', (request) => {
      if (/BacktestChart/.test(request.url())) chartRequests.push(request.url());
    });

    // The editor with the generator's default ladder; the chart's code is not loaded yet.
    await page.goto(j.url('/strategy/add'));
    await page.getByRole('heading', { level: 1, name: '新建策略' }).waitFor();
    await page.getByRole('button', { name: '回测', exact: true }).click();
    await page.getByLabel('K 线来源').waitFor();
    expect(chartRequests).toEqual([]);
    await page.locator('[data-section="backtest-panel"]').getByRole('textbox', { name: '首单金额（USDT）' }).fill('20');
    await shot('form');
    // The sample's dates show in full, year first, in the page-language date fields.
    expect(await page.getByRole('group', { name: '开始（UTC）' }).textContent()).toContain('2023/03/01');
    expect((await textFindings(page)).clipped).toEqual([]);
    await page.getByRole('button', { name: '开始回测' }).click();
    await page.locator('[data-section="backtest-results"]').waitFor({ timeout: 30_000 });

    // The figures on the page are the run the server stored.
    const run = await j.server.db.selectFrom('backtest_runs').select(['status', 'result']).where('user_id', '=', session.user.id).executeTakeFirstOrThrow();
    expect(run.status).toBe('done');
    const report = run.result as { figures: { cycles: number; buys: number; sells: number; timeInPositionPercent: string }; candles: number };
    expect(report.candles).toBe(30_240);
    expect(report.figures.cycles).toBeGreaterThan(5);
    expect(await figure(j, 'cycles').textContent()).toBe(String(report.figures.cycles));
    expect(await figure(j, 'trades').textContent()).toBe(`${report.figures.buys} / ${report.figures.sells}`);
    expect(await figure(j, 'timeInPosition').textContent()).toBe(`${report.figures.timeInPositionPercent}%`);
    await page.getByText(/BTC\/USDT，2023\/03\/01.* 至 2023\/03\/22.*共 30,240 根 K 线/).waitFor();
    // The chart library came with the result, and drew on its canvases.
    await page.locator('[data-chart="backtest"] canvas').first().waitFor();
    expect(chartRequests.length).toBeGreaterThan(0);
    // One row per cycle; a row chooses the ladder the chart draws.
    await page.locator('[data-cycle="1"]').click();
    await page.getByText('第 1 轮的补仓阶梯').waitFor();
    // In plain words: per year, and the same money simply held; each cycle's profit first, the table as wide as the page.
    await page.locator('[data-section="backtest-summary"]').getByText(/折合一年约.*一直拿着，收益是/).waitFor();
    expect(await page.getByRole('table', { name: '每轮明细' }).getByRole('columnheader').first().textContent()).toBe('收益');
    const cyclesTable = await page.getByRole('table', { name: '每轮明细' }).evaluate((table) => ({ table: table.scrollWidth, box: table.parentElement!.clientWidth }));
    expect(cyclesTable.table).toBeLessThanOrEqual(cyclesTable.box);
    await shot('results');
    await panelShot('results');

    // Three take profits side by side, ranked by return.
    await page.getByRole('textbox', { name: '止盈（%）' }).fill('1, 2, 3');
    await page.getByText('3 个变体').waitFor();
    await page.getByRole('button', { name: '运行对比' }).click();
    await page.getByRole('table', { name: '参数对比' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('[data-variant]').count()).toBe(4);
    await page.getByRole('cell', { name: '止盈 3', exact: true }).waitFor();
    await page.getByRole('cell', { name: '当前模板' }).waitFor();
    await shot('variants');
    await panelShot('variants');
    // A variant in full.
    await page.locator('[data-variant]').filter({ hasText: '止盈 2' }).getByRole('button', { name: '查看' }).click();
    await page.getByText('正在查看变体 止盈 2').waitFor();
    await page.locator('[data-section="backtest-results"]').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport === 'phone' ? 375 : 1280);

    // The wizard's template summary offers the same panel, filled from the draft.
    await page.evaluate(() =>
      sessionStorage.setItem('wizard-trade', JSON.stringify({ selectedPairs: ['BTC/USDT'], selectedTemplate: '00000000-0000-4000-8000-000000000002', firstOrderAmount: '15' })),
    );
    // A fresh load, so the wizard reads the draft.
    await page.goto('about:blank');
    await page.goto(j.url('/trade/add'));
    await page.getByRole('heading', { level: 1, name: '添加交易对' }).waitFor();
    await page.getByRole('button', { name: '回测', exact: true }).click();
    expect(await page.locator('[data-section="backtest-panel"]').getByRole('textbox', { name: '首单金额（USDT）' }).inputValue()).toBe('15');
    await page.getByRole('button', { name: '开始回测' }).click();
    await page.locator('[data-chart="backtest"] canvas').first().waitFor({ timeout: 30_000 });
    await panelShot('wizard');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport === 'phone' ? 375 : 1280);
  });
});
