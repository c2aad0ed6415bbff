import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BacktestJob, BacktestReport, BacktestRequest } from '../../api/backtest';
import { formatPercent } from '../../api/format';
import type { StrategyTemplate } from '../../api/strategy';
import { reportOn, risingSwingCandles } from '../../testing/backtestReports';
import { ok, type Handler } from '../../testing/fakeServer';
import { findHeading, identityRoute, pageUser, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { strategyTemplate } from '../../testing/tasks';

/**
 * The same template with and without its conditions (issue 29), figures from
 * the server's own backtest code on two days of swinging minutes.
 */
const candles = risingSwingCandles;
const reportFor = (body: BacktestRequest): BacktestReport => reportOn(candles, body);
const job = (result: BacktestReport): BacktestJob => ({ id: 'c0000000-0000-4000-8000-000000000029', status: 'done', progress: { done: 1, total: 1 }, createdAt: '2026-11-24T00:00:00.000Z', result, error: null });

const gated: StrategyTemplate = strategyTemplate('b0000000-0000-4000-8000-000000000031', 'RSI 起步', {
  system: false,
  conditions: { start: { mode: 'all', conditions: [{ kind: 'rsi', period: 14, timeframe: '15m', op: 'below', value: '40' }] } },
});
const routes: Record<string, Handler> = {
  ...identityRoute,
  [`GET /api/strategy/detail/${gated.id}`]: () => ok(gated),
  'POST /api/strategy/backtest': (request) => ok(job(reportFor(request.body as unknown as BacktestRequest))),
  'GET /api/exchange/catalog': () => ok({ list: [{ id: 'paper', name: 'Paper', kind: 'paper', credentials: [], checksPermissions: false, startBalances: {} }], total: 1 }),
};

vi.mock('./BacktestChart', () => ({ default: () => <div data-chart="backtest" /> }));
beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

describe('the backtest with and without conditions', () => {
  it('runs the template and a condition-free variant together and says both: annualized return, drawdown, cycles', { timeout: 60_000 }, async () => {
    const app = await renderApp(`/strategy/edit/${gated.id}`, routes);
    await findHeading('编辑策略');
    await pageUser.click(await screen.findByRole('button', { name: '回测' }));
    const compare = await waitFor(() => {
      const button = document.querySelector('[data-section="backtest-conditions"] button');
      if (!button) throw new Error('no comparison yet');
      return button as HTMLButtonElement;
    }, { timeout: 20_000 });
    expect(compare).toHaveTextContent('对比');
    await pageUser.click(compare);
    const section = await waitFor(() => {
      const element = document.querySelector<HTMLElement>('[data-section="backtest-conditions"]');
      if (element?.querySelectorAll('[data-comparison-line]').length !== 2) throw new Error('no comparison yet');
      return element;
    }, { timeout: 20_000 });
    const sent = app.server.requests.find((r) => r.path === '/api/strategy/backtest')!.body as unknown as BacktestRequest;
    expect(sent.settings?.conditions).toEqual(gated.conditions);
    expect(sent.variants).toEqual([{ label: '无条件', conditions: null }]);

    const variants = reportFor(sent).variants!;
    const [withConditions, without] = [variants.find((v) => v.index === 0)!.figures, variants.find((v) => v.index === 1)!.figures];
    // The condition holds the start back: fewer cycles than without it.
    expect(withConditions.cycles).toBeLessThan(without.cycles);
    const line = (label: string, f: typeof without) =>
      `${label}：年化 ${formatPercent(f.annualizedReturnPercent, 'zh-CN', { signed: true })}，回撤 ${formatPercent(f.maxDrawdownPercent, 'zh-CN')}，${f.cycles} 轮`;
    const lines = [...section.querySelectorAll('[data-comparison-line]')].map((item) => item.textContent);
    expect(lines).toEqual([line('RSI(14,15m) < 40 起步', withConditions), line('无条件', without)]);
  });
});
