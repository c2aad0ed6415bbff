import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TradeOrder, TradeTaskDetail } from '../../api/trade';
import { ok } from '../../testing/fakeServer';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { balancedSettings, btcTask, twoTargetOrders, twoTargetTask } from '../../testing/tasks';

/** A phone: every `max-width` media query matches (MUI's `down()` breakpoints). */
const asPhone = () =>
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query.includes('max-width'),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));

const order = (over: Partial<TradeOrder>): TradeOrder => ({
  id: 'o-1',
  taskId: 'a0000000-0000-4000-8000-000000000001',
  symbol: 'SHIB/USDT',
  cycle: 3,
  level: 0,
  side: 'buy',
  reason: 'first',
  status: 'closed',
  price: '0.00000849',
  amount: '1176470',
  cost: '9.98823',
  fee: '1176.47',
  feeCurrency: 'SHIB',
  error: null,
  tickSize: null,
  amountStep: null,
  createdAt: '2026-03-01T08:00:00.000Z',
  ...over,
});

beforeEach(async () => {
  await startSignedInZhCN();
  asPhone();
});
afterEach(() => vi.unstubAllGlobals());

describe('phone layouts', () => {
  it('shows each order as a card with every column labelled: nothing off-screen', async () => {
    await renderApp('/trade/all-order-history', {
      ...identityRoute,
      'GET /api/trade/order-history': () => ok({ list: [order({}), order({ id: 'o-2', side: 'sell', reason: 'take_profit', symbol: 'DOGE/USDT', price: '0.15068', amount: '131', cost: '19.74', fee: '0.01973908', feeCurrency: 'USDT' })], total: 2 }),
    });
    await findHeading('全部订单');
    const list = await screen.findByRole('list', { name: '全部订单' });
    expect(screen.queryByRole('table')).toBeNull();
    const card = list.querySelector<HTMLElement>('[data-order="o-1"]')!;
    const shib = within(card);
    const field = (name: string) => card.querySelector(`[data-field="${name}"]`)?.textContent;
    expect(field('price')).toBe('成交价0.00000849');
    expect(field('amount')).toBe('数量1,176,470 SHIB');
    expect(field('cost')).toBe('金额（USDT）9.99');
    expect(field('fee')).toBe('手续费1,176.47 SHIB ≈ 0.0100 USDT');
    expect(shib.getByText('已成交')).toBeInTheDocument();
    expect(shib.getByText('买入')).toHaveAttribute('data-side', 'buy');
  });

  it('shows the ladder preview as one card per level', async () => {
    await renderApp('/strategy/add', identityRoute);
    await findHeading('新建策略');
    const ladder = await screen.findByRole('list', { name: '阶梯预览' });
    const levels = ladder.querySelectorAll('[data-level]');
    expect(levels.length).toBeGreaterThan(1);
    const first = within(levels[0] as HTMLElement);
    expect(first.getByText('首单')).toBeInTheDocument();
    expect((levels[0] as HTMLElement).querySelector('[data-field="amount"]')).toHaveTextContent('10.00');
    expect(levels[1]).toHaveTextContent(/-\d+(\.\d+)?%/);
    await userEvent.clear(screen.getByRole('textbox', { name: '首单成交价' }));
    expect(screen.queryByRole('list', { name: '阶梯预览' })).toBeNull();
  });

  it("shows the task's ladder as one card per level, the bought ones with their fill", async () => {
    const detail: TradeTaskDetail = { ...btcTask, strategy: balancedSettings, firstFillPrice: '100', takeProfitArmed: false, events: [] };
    const fill = order({ symbol: 'BTC/USDT', cycle: detail.cyclesDone + 1, price: '100', amount: '0.1', cost: '10', fee: '0.01', feeCurrency: 'USDT' });
    await renderApp(`/trade/detail/${detail.id}`, {
      ...identityRoute,
      [`GET /api/trade/detail/${detail.id}`]: () => ok(detail),
      'GET /api/trade/ohlcv': () => ok({ symbol: 'BTC/USDT', timeframe: '15m', prices: { source: 'simulator', live: false }, candles: [] }),
      'GET /api/trade/order-history': () => ok({ list: [fill], total: 1 }),
    });
    await findHeading('任务详情');
    const ladder = await screen.findByRole('list', { name: '补仓梯度' });
    expect(ladder.closest('[data-section]')?.querySelector('table')).toBeNull();
    const cards = ladder.querySelectorAll<HTMLElement>('[data-level]');
    expect(cards.length).toBe(balancedSettings.levels.length + 1);
    // Level 1 is bought too (levelsFilled 1); its order is not in this answer, so it says so without a fill.
    expect(within(cards[1]!).getByText('已成交')).toBeInTheDocument();
    expect(await within(cards[0]!).findByText(/^成交价 100\.00：10\.00 USDT/)).toBeInTheDocument();
    expect(cards[0]!.querySelector('[data-field="fundsNeeded"]')).toHaveTextContent('—');
    expect(cards[2]!.querySelector('[data-field="state"]')).toBeNull();
    expect(within(cards[2]!).getByText('下一档')).toBeInTheDocument();
  });

  it('shows each take-profit target as a card: the one that sold with its price, amount and proceeds', async () => {
    const detail = twoTargetTask;
    await renderApp(`/trade/detail/${detail.id}`, {
      ...identityRoute,
      [`GET /api/trade/detail/${detail.id}`]: () => ok(detail),
      'GET /api/trade/ohlcv': () => ok({ symbol: 'BTC/USDT', timeframe: '15m', prices: { source: 'simulator', live: false }, candles: [] }),
      'GET /api/trade/order-history': () => ok({ list: twoTargetOrders, total: 2 }),
    });
    await findHeading('任务详情');
    const targets = await screen.findByRole('list', { name: '止盈目标' });
    const cards = () => targets.querySelectorAll<HTMLElement>('[data-target]');
    // The sale shows once the cycle's orders are read.
    await waitFor(() => expect([...cards()].map((card) => card.dataset.sold)).toEqual(['true', 'false']));
    const [sold, pending] = cards();
    expect(within(sold!).getByText('止盈目标 1')).toBeInTheDocument();
    expect(within(sold!).getByText('已卖出')).toBeInTheDocument();
    expect(sold!.querySelector('[data-field="share"]')).toHaveTextContent('剩余持仓的 50%');
    expect(sold!.querySelector('[data-field="state"]')).toHaveTextContent('101.60 卖出 0.05000 BTC，得 5.07 USDT');
    // The last target sells the rest, at +3 % over the average of 100.1; not sold yet.
    expect(within(pending!).getByText('待卖出')).toBeInTheDocument();
    expect(pending!.querySelector('[data-field="share"]')).toHaveTextContent('剩余全部');
    expect(pending!.querySelector('[data-field="price"]')).toHaveTextContent('103.10');
    expect(pending!.querySelector('[data-field="state"]')).toBeNull();
  });
});
