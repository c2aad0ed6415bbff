import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../testing/fakeServer';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { strategyTemplate } from '../../testing/tasks';

const me = identityRoute;
const balanced = strategyTemplate('00000000-0000-4000-8000-000000000002', 'balanced');

beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

/** The template editor's exits (issue 28): its own file, the editor's other cases are StrategyEditPage.test.tsx. */
describe('strategy editor: take-profit targets and stops', () => {
  it('several targets, a stop from the last level, a time stop and the break-even: worked out on the ladder and saved', { timeout: 60_000 }, async () => {
    const app = await renderApp(`/strategy/add?copy=${balanced.id}`, {
      ...me,
      [`GET /api/strategy/detail/${balanced.id}`]: () => ok(balanced),
      'POST /api/strategy/add': (req) => ok({ ...balanced, ...req.body, id: 'b0000000-0000-4000-8000-000000000022', system: false }),
      'GET /api/strategy/list': () => ok({ list: [], total: 0 }),
      'GET /api/trade/config-templates': () => ok([balanced]),
    });
    await findHeading('新建策略');
    await screen.findByRole('table', { name: '阶梯预览' });
    await userEvent.click(screen.getByLabelText('多个止盈目标'));
    // Two targets to start with: half at the take profit, the rest at twice it, trailing.
    await waitFor(() => expect(screen.getAllByRole('textbox', { name: '卖出仓位比例（%）' })).toHaveLength(2));
    const examples = () => screen.getByTestId('exit-examples');
    // First fill 100 (the preview's price): the average with the first order alone is 100.00.
    await waitFor(() => expect(examples()).toHaveTextContent('目标 1：仅首单成交时（均价 100.00），价格到 101.50 卖出 50% 仓位。'));
    expect(examples()).toHaveTextContent('目标 2：仅首单成交时（均价 100.00），价格到 103.00 卖出 50% 仓位，之后跟踪最高价，回落 0.3% 时卖出。');

    // Shares that do not add up to 100: explained, not saved.
    const shares = screen.getAllByRole('textbox', { name: '卖出仓位比例（%）' });
    await userEvent.clear(shares[0]!);
    await userEvent.type(shares[0]!, '40');
    expect(await screen.findByRole('alert')).toHaveTextContent('各目标卖出比例合计必须为 100%');
    expect(screen.getByRole('button', { name: '保存' })).toBeDisabled();
    await userEvent.clear(shares[1]!);
    await userEvent.type(shares[1]!, '60');
    await waitFor(() => expect(screen.queryByText('各目标卖出比例合计必须为 100%')).toBeNull());

    await userEvent.click(screen.getByLabelText('第一个目标成交后把止损移到保本价'));
    // 100 over (1 - 0.1 % sell fee).
    await waitFor(() => expect(examples()).toHaveTextContent('保本：目标 1 成交后（均价 100.00），价格回落到 100.10（均价加卖出手续费）即卖出剩余仓位。'));
    await userEvent.click(screen.getByLabelText('止损'));
    await userEvent.click(screen.getByRole('combobox', { name: '止损基准' }));
    await userEvent.click(await screen.findByRole('option', { name: '最后一档价格' }));
    const stop = screen.getByRole('textbox', { name: '低于最后一档价格止损（%）' });
    await userEvent.clear(stop);
    await userEvent.type(stop, '4');
    await userEvent.click(screen.getByLabelText('最后一档补仓成交后才启用止损'));
    // The last level at 97.50, 4 % below it.
    await waitFor(() => expect(examples()).toHaveTextContent('止损：最后一档价格 97.50 下方 4%，止损价 93.60，卖出全部。第 2 档成交后才启用。'));
    await userEvent.click(screen.getByLabelText('时间止损'));
    await waitFor(() => expect(examples()).toHaveTextContent('时间止损：首单成交 72 小时后本轮仍未结束'));

    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(app.pathname()).toBe('/strategy'));
    const sent = app.server.requests.find((r) => r.path === '/api/strategy/add');
    expect(sent?.body).toEqual({
      name: '均衡型 2',
      levels: balanced.levels,
      takeProfitPercent: '1.5',
      takeProfitCallbackPercent: '0.3',
      replenishCallbackPercent: '0.3',
      stopLossPercent: '4',
      cooldownSeconds: 120,
      takeProfitTargets: [
        { sharePercent: '40', profitPercent: '1.5', trailing: false },
        { sharePercent: '60', profitPercent: '3', trailing: true },
      ],
      stopLossBase: 'last_level',
      stopLossAfterLastLevel: true,
      timeStopHours: 72,
      breakEven: true,
    });
  });
});
