import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Big from 'big.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BacktestJob, BacktestReport, BacktestRequest } from '../../api/backtest';
import { formatMoney, formatPercent } from '../../api/format';
import { reportOn, risingSwingCandles } from '../../testing/backtestReports';
import { ok, type Handler } from '../../testing/fakeServer';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';

/**
 * What a retail user reads in a backtest's result: the return per year, the
 * largest fall, and the same money simply held, said plainly; no jargon.
 * Reports come from the server's own backtest code on two days of minutes
 * that end 6 % above where they began.
 */
const candles = risingSwingCandles;
const reportFor = (body: BacktestRequest): BacktestReport => reportOn(candles, body);
const job = (result: BacktestReport): BacktestJob => ({ id: 'c0000000-0000-4000-8000-000000000001', status: 'done', progress: { done: 1, total: 1 }, createdAt: '2026-11-24T00:00:00.000Z', result, error: null });
const routes: Record<string, Handler> = {
  ...identityRoute,
  'POST /api/strategy/backtest': (request) => ok(job(reportFor(request.body as unknown as BacktestRequest))),
  'GET /api/exchange/catalog': () => ok({ list: [{ id: 'paper', name: 'Paper', kind: 'paper', credentials: [], checksPermissions: false, startBalances: {} }], total: 1 }),
};
const figure = (name: string) => document.querySelector(`[data-figure="${name}"] > div:last-child`)?.textContent;

vi.mock('./BacktestChart', () => ({ default: () => <div data-chart="backtest" /> }));
beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

describe('a backtest result in plain words', () => {
  it('says the return per year and what the same money simply held would have made, without jargon', { timeout: 60_000 }, async () => {
    const app = await renderApp('/strategy/add', routes);
    await findHeading('新建策略');
    await userEvent.click(await screen.findByRole('button', { name: '回测' }));
    await userEvent.click(await screen.findByRole('button', { name: '开始回测' }, { timeout: 20_000 }));
    await screen.findByText(/共 2,880 根 K 线/, undefined, { timeout: 20_000 });
    const report = reportFor(app.server.requests.find((r) => r.path === '/api/strategy/backtest')!.body as unknown as BacktestRequest);
    const f = report.figures;
    expect(new Big(f.maxFundsInUse).gt(0)).toBe(true);

    // The coin's own change over the range: first open to last close.
    const change = new Big(candles.at(-1)!.close).div(candles[0]!.open).minus(1).times(100);
    expect(f.holdReturnPercent).toBe(change.round(2).toFixed());
    expect(figure('hold')).toBe(`${formatMoney(f.holdProfit, 'zh-CN', { signed: true })} USDT (${formatPercent(f.holdReturnPercent, 'zh-CN', { signed: true })})`);
    expect(screen.getByText('一直持有 BTC')).toBeInTheDocument();
    // Two days of return (realized + floating over the most funds in use), spread over 365.
    const profit = new Big(f.realizedProfit).plus(f.openPosition?.floatingProfit ?? '0');
    expect(figure('annualized')).toBe(formatPercent(profit.times(100).div(f.maxFundsInUse).times(365).div(2).round(2).toFixed(), 'zh-CN', { signed: true }));
    expect(figure('maxDrawdown')).toContain(formatMoney(f.maxDrawdown, 'zh-CN'));

    const summary = document.querySelector('[data-section="backtest-summary"]')!;
    expect(summary.textContent).toContain(`策略最多动用了 ${formatMoney(f.maxFundsInUse, 'zh-CN')} USDT，收益 ${formatMoney(profit.toFixed(), 'zh-CN', { signed: true })} USDT（${formatPercent(f.returnPercent, 'zh-CN', { signed: true })}），折合一年约 ${formatPercent(f.annualizedReturnPercent, 'zh-CN', { signed: true })}`);
    expect(summary.textContent).toContain(`直接买入 BTC 并一直拿着，收益是 ${formatMoney(f.holdProfit, 'zh-CN', { signed: true })} USDT（${formatPercent(f.holdReturnPercent, 'zh-CN', { signed: true })}）`);
    const diff = profit.round(2).minus(new Big(f.holdProfit!).round(2));
    expect(summary.querySelector('[data-verdict]')!.textContent).toBe(
      diff.lt(0) ? `这段行情里，一直持有 BTC 比策略多赚 ${formatMoney(diff.abs().toFixed(), 'zh-CN')} USDT。` : `这段行情里，策略比一直持有 BTC 多赚 ${formatMoney(diff.toFixed(), 'zh-CN')} USDT。`,
    );

    // No jargon anywhere in the panel: the plain words instead.
    const panel = document.querySelector('[data-section="backtest-panel"]')!;
    for (const jargon of ['资金收益率', '成交模型', '计价币']) expect(panel.textContent).not.toContain(jargon);
    expect(within(panel as HTMLElement).getByRole('textbox', { name: '首单金额（USDT）' })).toBeInTheDocument();
    expect(within(panel as HTMLElement).getByRole('combobox', { name: '按什么价格成交' })).toHaveTextContent('每根 K 线的收盘价');

    // Each cycle's profit comes first.
    const table = screen.getByRole('table', { name: '每轮明细' });
    expect(within(table).getAllByRole('columnheader')[0]).toHaveTextContent('收益');
    const firstRow = within(table).getAllByRole('row')[1]!;
    expect(within(firstRow).getAllByRole('cell')[0]).toHaveTextContent(formatMoney(report.cycles[0]!.profit, 'zh-CN', { signed: true }));
  });
});
