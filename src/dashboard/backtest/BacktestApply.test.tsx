import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BacktestJob, BacktestReport, BacktestRequest } from '../../api/backtest';
import { reportOn } from '../../testing/backtestReports';
import type { Candle } from '../../../server/src/engine/core/candles';
import { ok, type Handler } from '../../testing/fakeServer';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { strategyTemplate } from '../../testing/tasks';
import { wizardDraft } from '../trade/wizard/draftStore';

/** "应用到策略" on the take-profit comparison, and the current template listed once. */
const T0 = Date.UTC(2023, 2, 1);
const candles: Candle[] = Array.from({ length: 1440 }, (_, i) => {
  const close = (20_000 * (1 + 0.03 * Math.sin(i / 100))).toFixed(2);
  return { time: T0 + i * 60_000, open: close, high: close, low: close, close, volume: '1' };
});
const reportFor = (body: BacktestRequest): BacktestReport => reportOn(candles, body);
const job = (result: BacktestReport): BacktestJob => ({ id: 'c0000000-0000-4000-8000-000000000001', status: 'done', progress: { done: 1, total: 1 }, createdAt: '2026-11-24T00:00:00.000Z', result, error: null });
const routes: Record<string, Handler> = {
  ...identityRoute,
  'POST /api/strategy/backtest': (request) => ok(job(reportFor(request.body as unknown as BacktestRequest))),
  'GET /api/exchange/catalog': () => ok({ list: [{ id: 'paper', name: 'Paper', kind: 'paper', credentials: [], checksPermissions: false, startBalances: {} }], total: 1 }),
};
const sentRuns = (app: Awaited<ReturnType<typeof renderApp>>) => app.server.requests.filter((r) => r.path === '/api/strategy/backtest').map((r) => r.body as unknown as BacktestRequest);
const LONG = { timeout: 20_000 };

/** Opens the panel, compares take profits typed as `values`, and answers the comparison table. */
const compareTakeProfits = async (values: string) => {
  await userEvent.click(await screen.findByRole('button', { name: '回测' }));
  await userEvent.type(await screen.findByRole('textbox', { name: '止盈（%）' }, LONG), values);
  await userEvent.click(screen.getByRole('button', { name: '运行对比' }));
  return screen.findByRole('table', { name: '参数对比' }, LONG);
};

vi.mock('./BacktestChart', () => ({ default: () => <div data-chart="backtest" /> }));
beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

describe('应用到策略', () => {
  it('in the editor: lists the template once, and writes the chosen take profit into the form being edited', { timeout: 90_000 }, async () => {
    const app = await renderApp('/strategy/add', { ...routes, 'POST /api/strategy/add': (request) => ok({ ...(request.body as object), id: 'b0000000-0000-4000-8000-000000000041', system: false }) });
    await findHeading('新建策略');
    // The new template's take profit is 1.5: typing it again adds no second "this template".
    await userEvent.type(screen.getByRole('textbox', { name: /名称/ }), '试试');
    const table = await compareTakeProfits('1.5, 2, 3');
    expect(screen.getByText('2 个变体')).toBeInTheDocument();
    expect(sentRuns(app)[0]!.variants!.map((v) => v.takeProfitPercent)).toEqual(['2', '3']);
    const names = within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell')[1]!.textContent);
    expect(names.filter((name) => name === '当前模板')).toHaveLength(1);
    expect(names.sort()).toEqual(['当前模板', '止盈 2', '止盈 3'].sort());

    await userEvent.click(within(table).getByRole('button', { name: '把 止盈 2 应用到策略' }));
    expect(await screen.findByText('已把 止盈 2 填入表单：保存策略后生效。')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(app.server.requests.some((r) => r.path === '/api/strategy/add')).toBe(true));
    expect(app.server.requests.find((r) => r.path === '/api/strategy/add')!.body).toMatchObject({ name: '试试', takeProfitPercent: '2' });
  });

  it('in the trade wizard: makes the user’s own copy of a system template and chooses it for the task', { timeout: 90_000 }, async () => {
    const balanced = strategyTemplate('00000000-0000-4000-8000-000000000002', 'balanced');
    let mine: object[] = [];
    const app = await renderApp('/trade/add', {
      ...routes,
      'GET /api/exchange/list': () => ok({ list: [], total: 0 }),
      'GET /api/strategy/list': () => ok({ list: mine, total: mine.length }),
      'GET /api/trade/config-templates': () => ok([balanced]),
      'POST /api/strategy/add': (request) => {
        const created = { ...(request.body as object), id: 'b0000000-0000-4000-8000-000000000042', system: false };
        mine = [created];
        return ok(created);
      },
    });
    await findHeading('添加交易对');
    act(() => wizardDraft.update({ selectedTemplate: balanced.id }));
    const table = await compareTakeProfits('2');
    await userEvent.click(within(table).getByRole('button', { name: '把 止盈 2 应用到策略' }));
    expect(await screen.findByText('已另存为你自己的策略“均衡型 · 止盈 2”，并选用到这个任务。', undefined, LONG)).toBeInTheDocument();
    expect(app.server.requests.find((r) => r.path === '/api/strategy/add')!.body).toEqual({ name: '均衡型 · 止盈 2', ...balancedSettingsWith('2') });
    await waitFor(() => expect(wizardDraft.get().selectedTemplate).toBe('b0000000-0000-4000-8000-000000000042'));
    // The system template is never changed.
    expect(app.server.requests.some((r) => r.path === '/api/strategy/edit')).toBe(false);
  });
});

const balancedSettingsWith = (takeProfitPercent: string) => {
  const { levels, takeProfitCallbackPercent, replenishCallbackPercent, stopLossPercent, cooldownSeconds } = strategyTemplate('x', 'balanced');
  return { levels, takeProfitPercent, takeProfitCallbackPercent, replenishCallbackPercent, stopLossPercent, cooldownSeconds };
};
