import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { OhlcvAnswer, TradeTaskDetail } from '../../api/trade';
import { fail, ok, type Handler, type RecordedRequest } from '../../testing/fakeServer';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { balancedSettings, btcTask, tradeOrder } from '../../testing/tasks';

// jsdom has no canvas: the lazily loaded chart is left out of these page tests.
vi.mock('./CandleChart', () => ({ default: () => <div data-chart="task" /> }));

const ID = btcTask.id;
const DETAIL_PATH = `/trade/detail/${ID}`;

/** In position: 0.2 BTC for 20.02 USDT (average 100.10), level 1 of 2 bought, the last price 99. */
const open: TradeTaskDetail = { ...btcTask, strategy: balancedSettings, firstFillPrice: '100', takeProfitArmed: false, events: [] };

/** What a close leaves: stopped, the cycle booked (3 done), dust below the step, no cycle under way. */
const closed: TradeTaskDetail = {
  ...open,
  running: false,
  phase: 'cooldown',
  cyclesDone: 3,
  levelsFilled: 0,
  firstFillPrice: null,
  quantity: '0.00000989',
  cost: '0.00099',
  averagePrice: '100.10111223',
  floatingProfit: '-0.00001',
  events: [{ id: '9', kind: 'stopped', data: { by: 'close', sold: '0.19999011', remainder: '0.00000989' }, createdAt: '2026-03-01T09:00:00.000Z' }],
};

const api = (task: TradeTaskDetail, extra: Record<string, Handler> = {}): Record<string, Handler> => ({
  ...identityRoute,
  [`GET /api/trade/detail/${ID}`]: () => ok(task),
  'GET /api/trade/ohlcv': (): ReturnType<Handler> => ok({ symbol: 'BTC/USDT', timeframe: '15m', prices: { source: 'simulator', live: false }, candles: [] } satisfies OhlcvAnswer),
  'GET /api/trade/order-history': () => ok({ list: [], total: 0 }),
  'GET /api/trade/cycles': () => ok({ list: [], total: 0 }),
  ...extra,
});
/** The cycle section, once the detail has loaded (the first render of a test file is slow). */
const cycleSection = async () => {
  await findHeading('任务详情');
  return (await screen.findByText('本轮状态', undefined, { timeout: 5000 })).closest('[data-section]') as HTMLElement;
};
const actions = (requests: RecordedRequest[]) => requests.filter((r) => r.path === '/api/trade/action');

beforeEach(startSignedInZhCN);

describe('replenish now', () => {
  it('is a secondary action that buys only after a confirmation naming the amount and the new average', async () => {
    const app = await renderApp(DETAIL_PATH, api(open, { 'POST /api/trade/action': () => ok(null) }));
    await findHeading('任务详情');
    await cycleSection();
    const button = screen.getByRole('button', { name: '立即补仓' });
    // Not the page's primary (contained) button: closing and replenishing are both outlined.
    expect(button.className).toContain('MuiButton-outlined');
    expect(button.className).not.toContain('MuiButton-contained');
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog');
    // Level 2 is 2 x the 10 USDT first order; (20.02 + 20) / (0.2 + 20 / 99) = 99.547236..., to the tick.
    expect(dialog).toHaveTextContent('将以市价立即买入第 2 档：20.00 USDT，按最新价约 99.00 成交。持仓均价将从 100.10 变为约 99.55（未计手续费）。下单后无法撤销。');
    expect(actions(app.server.requests)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: '买入 20.00 USDT' }));
    await waitFor(() => expect(actions(app.server.requests).map((r) => r.body)).toEqual([{ id: ID, action: 'replenish' }]));
    expect(await screen.findByText('补仓订单已提交')).toBeInTheDocument();
  });

  it('cannot be pressed when there is nothing to replenish: every level bought, or a stopped task after a close', async () => {
    await renderApp(DETAIL_PATH, api({ ...open, levelsFilled: 2 }));
    await cycleSection();
    expect(screen.getByRole('button', { name: '立即补仓' })).toBeDisabled();
  });

  it('is disabled on a stopped task without a cycle under way', async () => {
    await renderApp(DETAIL_PATH, api(closed));
    await cycleSection();
    expect(screen.getByRole('button', { name: '立即补仓' })).toBeDisabled();
  });
});

describe('a stopped task after a close', () => {
  it('shows one clear state: no next cycle, no levels of a cycle that is not there, the dust named as unsold', async () => {
    await renderApp(DETAIL_PATH, api(closed));
    await findHeading('任务详情');
    const cycle = await cycleSection();
    // The cycles it did, not a "cycle 4" that will not start.
    expect(screen.getByText('第 3 / ∞ 轮')).toBeInTheDocument();
    expect(cycle).toHaveAttribute('data-idle', 'stopped');
    expect(cycle).toHaveTextContent('任务已停止：当前没有进行中的一轮，机器人不会下单。已完成 3 轮。');
    expect(cycle).toHaveTextContent('剩余 0.00000989 BTC 低于交易所最小单位，无法卖出，保留在任务中；任务重新运行后随下一轮一起卖出。');
    expect(cycle).not.toHaveTextContent('已全部补仓');
    expect(cycle).not.toHaveTextContent('0 / 2');
    expect(cycle).not.toHaveTextContent('保留在持仓中');
    expect(cycle.querySelector('[data-figure="levels"]')).toBeNull();
    expect(cycle.querySelector('[data-figure="nextLevel"]')).toBeNull();
    expect(cycle.querySelector('[data-figure="position"]')).toHaveTextContent('持仓数量（BTC）0.00000989');
    // One state in the header as well.
    expect(screen.getAllByText('已停止').length).toBeGreaterThan(0);
    expect(screen.queryByText('持仓中')).toBeNull();
  });

  it('its card in the task list counts no ladder levels either, as the page does', async () => {
    // The list's item: the task's own fields, without the detail's strategy, events and fills.
    const item = Object.fromEntries(Object.keys(btcTask).map((key) => [key, closed[key as keyof typeof btcTask]]));
    await renderApp('/trade', { ...api(closed), 'GET /api/trade/list': () => ok({ list: [item], total: 1 }) });
    await findHeading('交易任务');
    const card = (await screen.findByText('BTC/USDT')).closest('[data-task]') as HTMLElement;
    expect(within(card).getByText('已停止')).toBeInTheDocument();
    expect(card.querySelector('[data-figure="levels"]')).toBeNull();
    expect(card).not.toHaveTextContent('已补仓档位');
  });

  it('a running task between cycles, carrying dust to its next cycle, has no next level yet rather than "all filled"', async () => {
    await renderApp(DETAIL_PATH, api({ ...closed, running: true }));
    const cycle = await cycleSection();
    expect(cycle.querySelector('[data-figure="nextLevel"]')).toHaveTextContent('下一档触发价—');
    expect(cycle).not.toHaveTextContent('已全部补仓');
  });
});

describe('figures in refusals', () => {
  it('formats the amounts of a refused start with the page number format, not the raw decimals', async () => {
    await renderApp(
      DETAIL_PATH,
      api(
        { ...open, running: false },
        {
          'POST /api/trade/action': () => fail(11003, 'the free balance does not cover a full cycle', { reason: 'insufficient_funds', required: '22022', available: '9969.8082138' }),
          'GET /api/exchange/list': () => ok({ list: [], total: 0 }),
        },
      ),
    );
    await cycleSection();
    await userEvent.click(screen.getByRole('switch', { name: 'BTC/USDT 运行' }));
    expect(await screen.findByText('可用余额不足以完成一整轮：需要 22,022.00 USDT，可用 9,969.81 USDT。')).toBeInTheDocument();
  });

  it("formats the attention's figures too", async () => {
    const attention = { reason: 'insufficient_funds' as const, since: '2026-03-01T08:05:00.000Z', side: 'buy' as const, level: 2, detail: { asset: 'USDT', required: '20.123456', available: '5' }, retrying: true };
    await renderApp(DETAIL_PATH, api({ ...open, attention }));
    const panel = (await screen.findByText('需要处理', { selector: '.MuiAlertTitle-root' })).closest('[data-attention]') as HTMLElement;
    expect(panel).toHaveTextContent('USDT 不足（需要 20.12，可用 5.00）');
  });
});

describe('fill price, fee and average, each explained', () => {
  /** One 10 USDT first buy at 90,227.10: 0.00011 BTC (the step rounds it down), 9.92 USDT, its 0.1 % fee taken in BTC. */
  const bought: TradeTaskDetail = {
    ...open,
    cyclesDone: 2,
    levelsFilled: 0,
    firstFillPrice: '90227.1',
    quantity: '0.00010989',
    cost: '9.924981',
    averagePrice: '90317.42197',
    lastPrice: '90230',
    floatingProfit: '0.0000',
  };
  const first = tradeOrder({ id: 'o-9', cycle: 3, price: '90227.1', amount: '0.00011', cost: '9.924981', fee: '0.00000011', feeCurrency: 'BTC' });

  it('shows the fee of the cycle in its asset and in USDT, and why the average is above the fill and the first order below 10', async () => {
    await renderApp(DETAIL_PATH, api(bought, { 'GET /api/trade/order-history': () => ok({ list: [first], total: 1 }) }));
    const cycle = await cycleSection();
    expect(cycle.querySelector('[data-figure="firstFill"]')).toHaveTextContent('首单成交价90,227.10');
    expect(cycle.querySelector('[data-figure="average"]')).toHaveTextContent('持仓均价90,317.42');
    await waitFor(() => expect(cycle.querySelector('[data-figure="cycleFees"]')).toHaveTextContent('本轮已付手续费0.00000011 BTC ≈ 0.0099 USDT'));
    const explained = cycle.querySelector('[data-explained="average"]');
    expect(explained).toHaveTextContent('持仓均价 90,317.42 = 持仓成本 9.92 USDT ÷ 持仓数量 0.00010989 BTC。成本含以 USDT 支付的手续费，以 BTC 支付的手续费从数量中扣除，所以均价略高于成交价。');
    expect(explained).toHaveTextContent('首单设定 10.00 USDT，按 90,227.10 实际成交 9.92 USDT：交易所按 0.00001 BTC 的整数倍下单，数量向下取整。');
  });

  it('lists a fee in the one number format, with the quote value of a fee paid in the coin', async () => {
    const orders = [
      tradeOrder({ id: 'o-1', fee: '0.0194612', feeCurrency: 'USDT' }),
      tradeOrder({ id: 'o-2', price: '90227.1', fee: '0.00000011', feeCurrency: 'BTC' }),
    ];
    await renderApp(`/trade/order-history?taskId=${ID}`, api(open, { 'GET /api/trade/order-history': () => ok({ list: orders, total: 2 }) }));
    expect(await screen.findByText('0.0195 USDT', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('0.00000011 BTC ≈ 0.0099 USDT')).toBeInTheDocument();
    expect(screen.queryByText(/0\.0194612/)).toBeNull();
  });
});
