import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeCatalogEntry } from '../../api/exchange';
import type { CandleTimeframe, OhlcvAnswer, OhlcvCandle, TradeOrder, TradeTask, TradeTaskDetail } from '../../api/trade';
import { fail, ok, type Handler, type RecordedRequest } from '../../testing/fakeServer';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { balancedSettings, btcTask, tradeOrder, twoTargetOrders, twoTargetTask } from '../../testing/tasks';
import type { CandleChartProps } from './CandleChart';

const me = identityRoute;

const btc: TradeTask = btcTask;
const eth: TradeTask = {
  ...btc,
  id: 'a0000000-0000-4000-8000-000000000002',
  symbol: 'ETH/USDT',
  cycleCount: 5,
  cyclesDone: 0,
  running: false,
  phase: 'ready',
  quantity: '0',
  cost: '0',
  averagePrice: null,
  lastPrice: '3000',
  floatingProfit: '0',
  realizedProfit: '0.5',
  levelsFilled: 0,
};

const detail: TradeTaskDetail = {
  ...btc,
  strategy: balancedSettings,
  firstFillPrice: '100',
  takeProfitArmed: false,
  events: [
    { id: '5', kind: 'error', data: { reason: 'insufficient_funds', side: 'buy', level: 2, asset: 'USDT', required: '20', available: '5' }, createdAt: '2026-03-01T08:05:00.000Z' },
    { id: '4', kind: 'replenished', data: { cycle: 3, level: 1, price: '99', amount: '10' }, createdAt: '2026-03-01T08:04:00.000Z' },
    { id: '3', kind: 'cycle_started', data: { cycle: 3, level: 0, price: '100', amount: '10' }, createdAt: '2026-03-01T08:03:00.000Z' },
    { id: '2', kind: 'cycle_complete', data: { cycle: 2, profit: '0.15' }, createdAt: '2026-03-01T08:02:00.000Z' },
    { id: '1', kind: 'created', data: { running: true }, createdAt: '2026-03-01T08:00:00.000Z' },
  ],
};

const order = (over: Partial<TradeOrder>): TradeOrder => tradeOrder({ id: 'o-1', cycle: 3, createdAt: '2026-03-01T08:03:00.000Z', ...over });
const orders = [
  order({ id: 'o-3', cycle: 2, side: 'sell', reason: 'take_profit', price: '101.5', amount: '0.1', cost: '10.15', createdAt: '2026-03-01T08:02:00.000Z' }),
  order({ id: 'o-2', level: 1, reason: 'replenish', price: '99', amount: '0.10101', cost: '10', createdAt: '2026-03-01T08:04:00.000Z' }),
  order({ id: 'o-1' }),
];

/** A pair priced in millionths: its tick has eight decimals, its step is one whole coin. */
const shib: TradeTask = {
  ...btc,
  id: 'a0000000-0000-4000-8000-000000000003',
  symbol: 'SHIB/USDT',
  quantity: '1176470',
  cost: '10.01',
  averagePrice: '0.0000085',
  lastPrice: '0.0000086',
  tickSize: '0.00000001',
  amountStep: '1',
};

const catalog: ExchangeCatalogEntry[] = [
  { id: 'paper', name: 'Paper trading', kind: 'paper', credentials: [], checksPermissions: false, startBalances: { USDT: '10000' }, priceSources: ['binance', 'simulator'] },
  { id: 'binance', name: 'Binance', kind: 'real', credentials: ['apiKey', 'secret'], checksPermissions: true, startBalances: null, priceSources: null },
];

// Candles of 15 minutes: the three fills above are in the one of 08:00.
const candles: OhlcvCandle[] = [
  { time: Date.parse('2026-03-01T07:45:00.000Z'), open: '100.2', high: '100.4', low: '99.9', close: '100.1', volume: '3.5' },
  { time: Date.parse('2026-03-01T08:00:00.000Z'), open: '100.1', high: '101.6', low: '98.8', close: '99.2', volume: '7.25' },
];
const ohlcv = (timeframe: CandleTimeframe, list: OhlcvCandle[] = candles): OhlcvAnswer => ({
  symbol: 'BTC/USDT',
  timeframe,
  prices: { source: 'simulator', live: false },
  candles: list,
});

// jsdom has no canvas: the lazily loaded chart shows what it was given to draw.
vi.mock('./CandleChart', () => ({
  default: ({ seriesKey, bars, markers, lines, label }: CandleChartProps) => (
    <div
      role="img"
      aria-label={label}
      data-chart="task"
      data-series={seriesKey}
      data-bars={JSON.stringify(bars)}
      data-markers={JSON.stringify(markers.map((m) => [m.time, m.position, m.shape, m.text]))}
      data-lines={JSON.stringify(lines.map((l) => [l.title, l.price]))}
    />
  ),
}));
const drawn = (chart: HTMLElement, name: 'bars' | 'markers' | 'lines') => JSON.parse(chart.getAttribute(`data-${name}`) ?? 'null') as unknown;

const query = (request: RecordedRequest | undefined) => Object.fromEntries(new URL(request?.url ?? '', 'http://localhost').searchParams);
const lastRequest = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.path === path).at(-1);

beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

describe('task list', () => {
  const list = (extra: Record<string, Handler> = {}) => ({
    ...me,
    'GET /api/trade/list': () => ok({ list: [btc, eth], total: 2 }),
    ...extra,
  });

  it("shows a task's prices to its market's tick and its position to the step", async () => {
    await renderApp('/trade', list({ 'GET /api/trade/list': () => ok({ list: [shib, btc], total: 2 }) }));
    await findHeading('交易任务');
    const card = await screen.findByText('SHIB/USDT').then((el) => el.closest('[data-task]') as HTMLElement);
    const figure = (name: string) => card.querySelector(`[data-figure="${name}"]`)?.textContent;
    expect(figure('average')).toBe('持仓均价0.00000850');
    expect(figure('last')).toBe('最新价0.00000860');
    expect(figure('position')).toBe('持仓数量（SHIB）1,176,470');
  });

  it('shows every task with its figures', async () => {
    await renderApp('/trade', list());
    await findHeading('交易任务');
    const card = await screen.findByText('BTC/USDT').then((el) => el.closest('[data-task]') as HTMLElement);
    const figure = (name: string) => card.querySelector(`[data-figure="${name}"]`)?.textContent;
    expect(within(card).getByText('练手账户 · 均衡型')).toBeInTheDocument();
    expect(figure('cycle')).toBe('第 3 / ∞ 轮');
    expect(figure('position')).toBe('持仓数量（BTC）0.20000');
    expect(figure('average')).toBe('持仓均价100.10');
    expect(figure('last')).toBe('最新价99.00');
    expect(figure('floating')).toBe('浮动盈亏-0.22');
    expect(figure('realized')).toBe('已实现收益+1.25');
    expect(figure('levels')).toBe('已补仓档位1 / 2');
    expect(within(card).getByText('持仓中')).toBeInTheDocument();
    expect(within(card).getByText('补仓开启')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: /BTC\/USDT/ })).toHaveAttribute('href', '/trade/detail/a0000000-0000-4000-8000-000000000001');

    const ethCard = screen.getByText('ETH/USDT').closest('[data-task]') as HTMLElement;
    expect(ethCard.querySelector('[data-figure="cycle"]')?.textContent).toBe('第 1 / 5 轮');
    expect(within(ethCard).getByText('已停止')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '全部订单' })).toHaveAttribute('href', '/trade/all-order-history');
    expect(screen.getByRole('link', { name: '新建任务' })).toHaveAttribute('href', '/trade/add');
  });

  it('marks a task that needs attention', async () => {
    const stuck = { ...eth, attention: { reason: 'below_min_order' as const, since: '2026-03-01T08:05:00.000Z', side: 'sell' as const, level: 0, detail: {}, retrying: false } };
    await renderApp('/trade', list({ 'GET /api/trade/list': () => ok({ list: [btc, stuck], total: 2 }) }));
    const card = await screen.findByText('ETH/USDT').then((el) => el.closest('[data-task]') as HTMLElement);
    expect(within(card).getByText('需要处理').closest('[data-attention]')).toHaveAttribute('data-attention', 'below_min_order');
    const other = screen.getByText('BTC/USDT').closest('[data-task]') as HTMLElement;
    expect(within(other).queryByText('需要处理')).toBeNull();
  });

  it('stops a robot with its switch, only after confirmation', async () => {
    const app = await renderApp('/trade', list({ 'POST /api/trade/action': () => ok(null) }));
    const toggle = await screen.findByRole('switch', { name: 'BTC/USDT 运行' });
    expect(toggle).toBeChecked();
    // Cancelled: nothing is sent, the robot keeps running.
    await userEvent.click(toggle);
    const dialog = await screen.findByRole('dialog', { name: '停止 BTC/USDT 机器人？' });
    expect(dialog).toHaveTextContent('停止后不再下单');
    await userEvent.click(within(dialog).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(app.server.requests.filter((r) => r.path === '/api/trade/action')).toHaveLength(0);
    expect(screen.getByRole('switch', { name: 'BTC/USDT 运行' })).toBeChecked();
    // Confirmed: stopped.
    await userEvent.click(toggle);
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '停止' }));
    await waitFor(() => expect(lastRequest(app.server.requests, '/api/trade/action')?.body).toEqual({ id: 'a0000000-0000-4000-8000-000000000001', action: 'stop' }));
    expect(await screen.findByText('机器人已停止')).toBeInTheDocument();
  });

  it('puts the switch back and says why when the robot cannot start', async () => {
    const app = await renderApp(
      '/trade',
      list({ 'POST /api/trade/action': () => fail(11003, 'the free balance does not cover a full cycle', { reason: 'insufficient_funds', required: '640.64', available: '100' }) }),
    );
    const toggle = await screen.findByRole('switch', { name: 'ETH/USDT 运行' });
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    expect(await screen.findByText('可用余额不足以完成一整轮：需要 640.64 USDT，可用 100.00 USDT。')).toBeInTheDocument();
    expect(lastRequest(app.server.requests, '/api/trade/action')?.body).toEqual({ id: 'a0000000-0000-4000-8000-000000000002', action: 'start' });
    await waitFor(() => expect(screen.getByRole('switch', { name: 'ETH/USDT 运行' })).not.toBeChecked());
  });

  it('filters by state and symbol through the list call', async () => {
    const app = await renderApp('/trade', list());
    await screen.findByText('BTC/USDT');
    await userEvent.click(screen.getByRole('button', { name: '已停止' }));
    await waitFor(() => expect(query(lastRequest(app.server.requests, '/api/trade/list'))).toMatchObject({ running: 'false', finished: 'false', page: '1' }));
    await userEvent.type(screen.getByRole('searchbox', { name: '搜索币种' }), 'eth');
    await waitFor(() => expect(query(lastRequest(app.server.requests, '/api/trade/list'))).toMatchObject({ symbol: 'ETH', running: 'false' }));
  });

  it('says on each card which prices the task trades on', async () => {
    const sol: TradeTask = { ...btc, id: 't-3', symbol: 'SOL/USDT', prices: { source: 'binance', live: true } };
    const doge: TradeTask = { ...btc, id: 't-4', symbol: 'DOGE/USDT', prices: { source: 'binance', live: false } };
    await renderApp(
      '/trade',
      list({
        'GET /api/trade/list': () => ok({ list: [btc, sol, doge], total: 3 }),
        'GET /api/exchange/catalog': () => ok({ list: catalog, total: catalog.length }),
      }),
    );
    // The page first (signed-in app, then the list): the cards' texts are looked up only once it stands.
    await findHeading('交易任务');
    const prices = async (symbol: string) => ((await screen.findByText(symbol)).closest('[data-task]') as HTMLElement).querySelector('[data-prices]');
    // The exchange's name comes with the catalog, which may answer after the list.
    await waitFor(async () => expect((await prices('SOL/USDT'))?.textContent).toBe('Binance 实时行情'), { timeout: 5000 });
    expect((await prices('SOL/USDT'))).toHaveAttribute('data-prices', 'live');
    expect((await prices('DOGE/USDT'))?.textContent).toBe('模拟行情');
    expect((await prices('BTC/USDT'))?.textContent).toBe('模拟行情');
  });

  it('says 测试网 on the card of a task on a testnet account, and on no other', async () => {
    const testnet: TradeTask = { ...btc, id: 't-5', symbol: 'XRP/USDT', exchangeName: 'Binance Testnet', prices: { source: 'binance-testnet', live: true } };
    await renderApp('/trade', list({ 'GET /api/trade/list': () => ok({ list: [btc, testnet], total: 2 }) }));
    await findHeading('交易任务');
    const card = async (symbol: string) => (await screen.findByText(symbol)).closest('[data-task]') as HTMLElement;
    expect((await card('XRP/USDT')).querySelector('[data-testnet]')?.textContent).toBe('测试网');
    expect((await card('BTC/USDT')).querySelector('[data-testnet]')).toBeNull();
  });

  it('shows skeletons while the first answer loads', async () => {
    await renderApp('/trade', list({ 'GET /api/trade/list': () => ({ ...ok({ list: [btc, eth], total: 2 }), delayMs: 300 }) }));
    await findHeading('交易任务');
    expect(document.querySelector('[data-state="loading"] .MuiSkeleton-root')).not.toBeNull();
    expect(await screen.findByText('BTC/USDT')).toBeInTheDocument();
    expect(document.querySelector('[data-state="loading"]')).toBeNull();
  });

  it('keeps the tasks on screen when a refresh fails, with the error id of a 500 and a retry that brings them back', async () => {
    const errorId = 'e1a2b3c4-0000-4000-8000-000000000099';
    let calls = 0;
    const app = await renderApp(
      '/trade',
      list({
        'GET /api/trade/list': () =>
          ++calls === 2 ? { status: 500, body: { code: 99999, message: `unexpected error (id ${errorId})`, data: { errorId } } } : ok({ list: [btc, eth], total: 2 }),
      }),
    );
    await screen.findByText('BTC/USDT');
    await userEvent.click(screen.getByRole('button', { name: '刷新' }));
    const stale = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('[data-state="stale"]');
      expect(found).not.toBeNull();
      return found!;
    });
    expect(stale).toHaveTextContent(`刷新失败（未知错误（错误编号：${errorId}，联系客服时请提供）），显示的是上次的数据。`);
    // The robots did not disappear.
    expect(screen.getByText('BTC/USDT')).toBeInTheDocument();
    expect(screen.getByText('ETH/USDT')).toBeInTheDocument();
    await userEvent.click(within(stale).getByRole('button', { name: '重试' }));
    await waitFor(() => expect(document.querySelector('[data-state="stale"]')).toBeNull());
    expect(screen.getByText('BTC/USDT')).toBeInTheDocument();
    expect(app.server.requests.filter((r) => r.path === '/api/trade/list').length).toBeGreaterThanOrEqual(3);
  });

  it('a failed first read says why, with a retry', async () => {
    let healthy = false;
    await renderApp('/trade', list({ 'GET /api/trade/list': () => (healthy ? ok({ list: [btc], total: 1 }) : fail(10006, 'no such parameter')) }));
    await findHeading('交易任务');
    const error = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('[data-state="error"]');
      expect(found).not.toBeNull();
      return found!;
    });
    expect(error).toHaveTextContent('参数不存在');
    healthy = true;
    await userEvent.click(within(error).getByRole('button', { name: '重试' }));
    expect(await screen.findByText('BTC/USDT')).toBeInTheDocument();
  });

  it('invites to create a first task when there is none', async () => {
    await renderApp('/trade', { ...me, 'GET /api/trade/list': () => ok({ list: [], total: 0 }) });
    expect(await screen.findByText('还没有交易任务')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: '新建任务' }).every((link) => link.getAttribute('href') === '/trade/add')).toBe(true);
  });
});

describe('task detail', () => {
  const api = (extra: Record<string, Handler> = {}): Record<string, Handler> => ({
    ...me,
    'GET /api/trade/detail/a0000000-0000-4000-8000-000000000001': () => ok(detail),
    'GET /api/trade/ohlcv': (request) => ok(ohlcv(query(request).timeframe as CandleTimeframe)),
    'GET /api/trade/order-history': () => ok({ list: orders, total: orders.length }),
    ...extra,
  });

  it('opens from the list: the list\'s own copy of the task does not stand in for its detail', async () => {
    await renderApp('/trade', api({ 'GET /api/trade/list': () => ok({ list: [btc, eth], total: 2 }) }));
    await userEvent.click(await screen.findByRole('link', { name: /BTC\/USDT/ }));
    await findHeading('任务详情');
    expect(await screen.findByText('本轮状态')).toBeInTheDocument();
    expect(document.querySelectorAll('[data-event]').length).toBe(detail.events.length);
  });

  it('marks the take-profit target that sold in the ladder: its share, price and proceeds', async () => {
    await renderApp(
      '/trade/detail/a0000000-0000-4000-8000-000000000001',
      api({ 'GET /api/trade/detail/a0000000-0000-4000-8000-000000000001': () => ok(twoTargetTask), 'GET /api/trade/order-history': () => ok({ list: twoTargetOrders, total: 2 }) }),
    );
    await findHeading('任务详情');
    const table = await screen.findByRole('table', { name: '止盈目标' });
    await waitFor(() => expect(table.querySelector('[data-target="1"]')).toHaveAttribute('data-sold', 'true'));
    const cell = (target: number, field: string) => table.querySelector(`[data-target="${target}"] [data-field="${field}"]`)?.textContent;
    expect(cell(1, 'share')).toBe('剩余持仓的 50%');
    expect(cell(1, 'state')).toBe('已卖出101.60 卖出 0.05000 BTC，得 5.07 USDT');
    expect(table.querySelector('[data-target="2"]')).toHaveAttribute('data-sold', 'false');
    expect(cell(2, 'share')).toBe('剩余全部');
    expect(cell(2, 'state')).toBe('待卖出');
  });

  it("shows the detail's prices, ladder lines and events to the market's tick", async () => {
    const shibDetail: TradeTaskDetail = {
      ...detail,
      ...shib,
      id: detail.id,
      firstFillPrice: '0.0000085',
      events: [{ id: '1', kind: 'cycle_started', data: { cycle: 3, level: 0, price: '0.0000085', amount: '10' }, createdAt: '2026-03-01T08:03:00.000Z' }],
    };
    await renderApp('/trade/detail/a0000000-0000-4000-8000-000000000001', api({ 'GET /api/trade/detail/a0000000-0000-4000-8000-000000000001': () => ok(shibDetail) }));
    await findHeading('任务详情');
    const cycle = (await screen.findByText('本轮状态')).closest('[data-section]') as HTMLElement;
    const figure = (name: string) => cycle.querySelector(`[data-figure="${name}"]`)?.textContent;
    expect(figure('firstFill')).toBe('首单成交价0.00000850');
    expect(figure('average')).toBe('持仓均价0.00000850');
    expect(figure('last')).toBe('最新价0.00000860');
    // 2.5 % below the first fill: 0.0000082875, to the tick.
    expect(figure('nextLevel')).toBe('下一档触发价0.00000829');
    expect(figure('takeProfitPrice')).toMatch(/^止盈价0\.\d{8}$/);
    expect(figure('position')).toBe('持仓数量（SHIB）1,176,470');
    const events = screen.getByRole('list', { name: '任务日志' });
    expect(events).toHaveTextContent('0.00000850');
  });

  it('shows the cycle, the candles with the ladder lines and the fill markers, and the localized events', async () => {
    const app = await renderApp('/trade/detail/a0000000-0000-4000-8000-000000000001', api());
    await findHeading('任务详情');
    const cycle = (await screen.findByText('本轮状态')).closest('[data-section]') as HTMLElement;
    const figure = (name: string) => cycle.querySelector(`[data-figure="${name}"]`)?.textContent;
    expect(figure('phase')).toBe('阶段持仓中');
    expect(figure('firstFill')).toBe('首单成交价100.00');
    expect(figure('average')).toBe('持仓均价100.10');
    expect(figure('position')).toBe('持仓数量（BTC）0.20000');
    expect(figure('cost')).toBe('持仓成本20.02 USDT');
    expect(figure('floating')).toBe('浮动盈亏-0.22');
    expect(figure('nextLevel')).toBe('下一档触发价97.50');
    // 100.1 * 1.015 = 101.6015, to six significant digits
    expect(figure('takeProfitPrice')).toBe('止盈价101.60');
    expect(figure('takeProfitArmed')).toBe('止盈追踪未触发');

    // The ladder table: the first order and level 1 bought with their fills, level 2 next, from the first fill at 100.
    const ladder = document.querySelector<HTMLElement>('[data-section="ladder"]')!;
    await waitFor(() => expect(ladder.querySelectorAll('[data-filled="true"]').length).toBe(2));
    const cell = (level: number, field: string) => ladder.querySelector(`[data-level="${level}"] [data-field="${field}"]`)?.textContent;
    expect(cell(1, 'trigger')).toBe('99.00');
    expect(cell(1, 'state')).toBe('已成交99.00 成交 10.00 USDT');
    expect(ladder.querySelector('[data-level="1"] [data-field="state"]')).toHaveAttribute('aria-label', '成交价 99.00：10.00 USDT，买入 0.10101 BTC');
    expect(cell(2, 'trigger')).toBe('97.50');
    expect(cell(2, 'state')).toBe('下一档');
    expect(cell(0, 'fundsNeeded')).toBe('—');
    expect(ladder.querySelectorAll('[data-level]').length).toBe(balancedSettings.levels.length + 1);

    // The candles of 15 minutes, drawn as bars in UTC seconds.
    const chart = await screen.findByRole('img', { name: 'BTC/USDT K线与补仓档位' });
    expect(chart).toHaveAttribute('data-series', '15m');
    expect(drawn(chart, 'bars')).toEqual([
      { time: Date.parse('2026-03-01T07:45:00.000Z') / 1000, open: 100.2, high: 100.4, low: 99.9, close: 100.1 },
      { time: Date.parse('2026-03-01T08:00:00.000Z') / 1000, open: 100.1, high: 101.6, low: 98.8, close: 99.2 },
    ]);
    expect(query(app.server.requests.find((r) => r.path === '/api/trade/ohlcv'))).toEqual({ taskId: 'a0000000-0000-4000-8000-000000000001', timeframe: '15m', limit: '200' });
    // The ladder from the first fill at 100: level 1 at 99, level 2 at 97.5; the average and the take profit over it.
    expect(drawn(chart, 'lines')).toEqual([
      ['首单', 100],
      ['补1', 99],
      ['补2', 97.5],
      ['均价', 100.1],
      ['止盈', 101.6015],
    ]);
    // Every fill on the candle of 08:00: the sell of cycle 2 above it, this cycle's two buys below.
    const at8 = Date.parse('2026-03-01T08:00:00.000Z') / 1000;
    await waitFor(() =>
      expect(drawn(chart, 'markers')).toEqual([
        [at8, 'aboveBar', 'arrowDown', '卖出'],
        [at8, 'belowBar', 'arrowUp', '首单'],
        [at8, 'belowBar', 'arrowUp', '补1'],
      ]),
    );
    expect(query(lastRequest(app.server.requests, '/api/trade/order-history'))).toMatchObject({ taskId: 'a0000000-0000-4000-8000-000000000001' });
    // The forming candle is asked again on its own.
    await waitFor(() => expect(app.server.requests.some((r) => r.path === '/api/trade/ohlcv' && query(r).limit === '2')).toBe(true));

    const events = screen.getByRole('list', { name: '任务日志' });
    expect(within(events).getByText('下单被拒绝：余额不足（需要 20.00 USDT，可用 5.00）')).toBeInTheDocument();
    expect(within(events).getByText('第 1 档补仓成交：10.00 USDT，成交价 99.00')).toBeInTheDocument();
    expect(within(events).getByText('第 3 轮开始：首单 10.00 USDT，成交价 100.00')).toBeInTheDocument();
    expect(within(events).getByText('第 2 轮结束，收益 +0.15 USDT')).toBeInTheDocument();
    expect(within(events).getByText('任务已创建')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '订单记录' })).toHaveAttribute('href', '/trade/order-history?taskId=a0000000-0000-4000-8000-000000000001');
  });

  it('says in the header which prices the task trades on', async () => {
    await renderApp(
      '/trade/detail/a0000000-0000-4000-8000-000000000001',
      api({
        'GET /api/trade/detail/a0000000-0000-4000-8000-000000000001': () => ok({ ...detail, prices: { source: 'binance', live: true } }),
        'GET /api/exchange/catalog': () => ok({ list: catalog, total: catalog.length }),
      }),
    );
    const header = (await screen.findByRole('heading', { name: 'BTC/USDT' })).closest('.MuiPaper-root') as HTMLElement;
    await waitFor(() => expect(header.querySelector('[data-prices]')?.textContent).toBe('Binance 实时行情'));
  });

  it('asks for the candles of the timeframe chosen', async () => {
    const app = await renderApp('/trade/detail/a0000000-0000-4000-8000-000000000001', api());
    const toggle = await screen.findByRole('group', { name: 'K线周期' });
    expect(within(toggle).getAllByRole('button').map((b) => b.textContent)).toEqual(['1分', '15分', '1小时', '日线']);
    expect(within(toggle).getByRole('button', { name: '15分' })).toHaveAttribute('aria-pressed', 'true');
    await screen.findByRole('img', { name: 'BTC/USDT K线与补仓档位' });

    await userEvent.click(within(toggle).getByRole('button', { name: '1小时' }));
    expect(within(toggle).getByRole('button', { name: '1小时' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(screen.getByRole('img', { name: 'BTC/USDT K线与补仓档位' })).toHaveAttribute('data-series', '1h'));

    await userEvent.click(within(toggle).getByRole('button', { name: '日线' }));
    await waitFor(() => expect(screen.getByRole('img', { name: 'BTC/USDT K线与补仓档位' })).toHaveAttribute('data-series', '1d'));
    const asked = app.server.requests.filter((r) => r.path === '/api/trade/ohlcv' && query(r).limit === '200').map((r) => query(r).timeframe);
    expect(asked).toEqual(['15m', '1h', '1d']);
  });

  it('says so when there are no candles yet, and before the first fill that the levels come later', async () => {
    await renderApp(
      '/trade/detail/a0000000-0000-4000-8000-000000000001',
      api({
        'GET /api/trade/detail/a0000000-0000-4000-8000-000000000001': () => ok({ ...detail, phase: 'ready', quantity: '0', cost: '0', averagePrice: null, firstFillPrice: null, levelsFilled: 0 }),
        'GET /api/trade/ohlcv': (request) => ok(ohlcv(query(request).timeframe as CandleTimeframe, [])),
      }),
    );
    const section = (await screen.findByText('暂无K线：交易对有价格后显示。')).closest('[data-section="chart"]') as HTMLElement;
    expect(section.querySelector('[data-state="empty"]')).not.toBeNull();
    expect(within(section).queryByRole('img')).toBeNull();
    expect(within(section).getByText('本轮首单成交后显示补仓档位。')).toBeInTheDocument();
  });

  it('shows the loading state, then the error of the candles with a retry', async () => {
    let calls = 0;
    const app = await renderApp(
      '/trade/detail/a0000000-0000-4000-8000-000000000001',
      api({
        'GET /api/trade/ohlcv': (request) => {
          calls += 1;
          return calls === 1 ? { ...fail(30100, 'exchange does not exist'), delayMs: 200 } : ok(ohlcv(query(request).timeframe as CandleTimeframe));
        },
      }),
    );
    expect(await screen.findByText('正在加载K线…')).toBeInTheDocument();
    const section = (await screen.findByText('交易所不存在')).closest('[data-section="chart"]') as HTMLElement;
    await userEvent.click(within(section).getByRole('button', { name: '重试' }));
    expect(await within(section).findByRole('img', { name: 'BTC/USDT K线与补仓档位' })).toBeInTheDocument();
    expect(app.server.requests.filter((r) => r.path === '/api/trade/ohlcv' && query(r).limit === '200')).toHaveLength(2);
  });

  it('closes the position only after confirmation', async () => {
    const app = await renderApp('/trade/detail/a0000000-0000-4000-8000-000000000001', api({ 'POST /api/trade/close-order/a0000000-0000-4000-8000-000000000001': () => ok({ symbol: 'BTC/USDT', sold: '0.2', remainder: '0' }) }));
    await userEvent.click(await screen.findByRole('button', { name: '平仓' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('将以市价卖出 BTC/USDT 的全部持仓（0.20000 BTC），并停止此任务。确定吗？');
    expect(app.server.requests.some((r) => r.path === '/api/trade/close-order/a0000000-0000-4000-8000-000000000001')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: '平仓' }));
    await waitFor(() => expect(app.server.requests.filter((r) => r.path === '/api/trade/close-order/a0000000-0000-4000-8000-000000000001' && r.method === 'POST')).toHaveLength(1));
    expect(await screen.findByText('已按市价平仓，任务已停止')).toBeInTheDocument();
  });

  it("names the exchange's refusal in the page's words, not its code", async () => {
    const attention = { reason: 'permission_denied' as const, since: '2026-03-01T08:05:00.000Z', side: 'buy' as const, level: 0, detail: { refusal: 'account_suspended' }, retrying: false };
    await renderApp('/trade/detail/a0000000-0000-4000-8000-000000000001', api({ 'GET /api/trade/detail/a0000000-0000-4000-8000-000000000001': () => ok({ ...detail, attention }) }));
    const panel = (await screen.findByText('需要处理', { selector: '.MuiAlertTitle-root' })).closest('[data-attention]') as HTMLElement;
    expect(panel).toHaveTextContent('交易所拒绝了 API Key（交易所账户已被冻结）。');
    expect(panel).not.toHaveTextContent('account_suspended');
  });

  it('says the task needs attention, why, and resumes it', async () => {
    const attention = {
      reason: 'insufficient_funds' as const,
      since: '2026-03-01T08:05:00.000Z',
      side: 'buy' as const,
      level: 2,
      detail: { asset: 'USDT', required: '20', available: '5' },
      retrying: true,
    };
    const app = await renderApp('/trade/detail/a0000000-0000-4000-8000-000000000001', api({ 'GET /api/trade/detail/a0000000-0000-4000-8000-000000000001': () => ok({ ...detail, attention }), 'POST /api/trade/action': () => ok(null) }));
    const panel = (await screen.findByText('需要处理', { selector: '.MuiAlertTitle-root' })).closest('[data-attention]') as HTMLElement;
    expect(panel).toHaveAttribute('data-attention', 'insufficient_funds');
    expect(panel).toHaveTextContent('交易所拒绝了第 2 档的买入订单：USDT 不足（需要 20.00，可用 5.00）。请为账户补充资金，或平仓。');
    expect(panel).toHaveTextContent('机器人每 5 分钟自动重试一次。');
    expect(within(panel).getByRole('link', { name: '交易账户' })).toHaveAttribute('href', '/exchange/edit/e0000000-0000-4000-8000-000000000001');
    // A system template cannot be edited: no link to it.
    expect(within(panel).queryByRole('link', { name: '修改策略' })).toBeNull();
    await userEvent.click(within(panel).getByRole('button', { name: '继续运行' }));
    await waitFor(() => expect(lastRequest(app.server.requests, '/api/trade/action')?.body).toEqual({ id: 'a0000000-0000-4000-8000-000000000001', action: 'start' }));
    expect(await screen.findByText('机器人已恢复此任务的交易')).toBeInTheDocument();
  });

  it('names a paused task, the remainder carried to the next cycle, and what a close left behind', async () => {
    const paused = {
      ...detail,
      running: false,
      phase: 'cooldown' as const,
      quantity: '0.00000989',
      cost: '0.9',
      strategySystem: false,
      attention: { reason: 'engine_error' as const, since: '2026-03-01T08:05:00.000Z', detail: { message: 'disk full' }, retrying: false },
      events: [
        { id: '7', kind: 'paused', data: { reason: 'engine_error', failures: 8 }, createdAt: '2026-03-01T08:07:00.000Z' },
        { id: '6', kind: 'error', data: { reason: 'engine_error', message: 'disk full', failures: 8 }, createdAt: '2026-03-01T08:06:00.000Z' },
        { id: '5', kind: 'sold', data: { cycle: 2, price: '101.5', profit: '0.15', remainder: '0.00000989' }, createdAt: '2026-03-01T08:05:00.000Z' },
      ],
    };
    await renderApp('/trade/detail/a0000000-0000-4000-8000-000000000001', api({ 'GET /api/trade/detail/a0000000-0000-4000-8000-000000000001': () => ok(paused), 'POST /api/trade/close-order/a0000000-0000-4000-8000-000000000001': () => ok({ symbol: 'BTC/USDT', sold: '0', remainder: '0.00000989' }) }));
    const panel = (await screen.findByText('需要处理', { selector: '.MuiAlertTitle-root' })).closest('[data-attention]') as HTMLElement;
    expect(panel).toHaveTextContent('机器人处理此任务连续出错，已暂停：disk full。排除原因后点击继续运行。');
    expect(within(panel).getByRole('link', { name: '修改策略' })).toHaveAttribute('href', `/strategy/edit/${detail.strategyId}`);
    // Paused between cycles: one stopped state, the dust named as unsold.
    expect(document.querySelector('[data-remainder]')).toHaveTextContent('剩余 0.00000989 BTC 低于交易所最小单位，无法卖出，保留在任务中；任务重新运行后随下一轮一起卖出。');
    const events = screen.getByRole('list', { name: '任务日志' });
    expect(within(events).getByText('连续出错 8 次，机器人已暂停')).toBeInTheDocument();
    expect(within(events).getByText('处理此任务时出错，稍后自动重试：disk full')).toBeInTheDocument();
    expect(within(events).getByText('卖出成交 101.50，收益 +0.15 USDT；余量 0.00000989 低于交易所最小单位，留待下一轮卖出')).toBeInTheDocument();

    await userEvent.click(screen.getAllByRole('button', { name: '平仓' })[0]!);
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '平仓' }));
    expect(await screen.findByText('已按市价平仓，任务已停止。余量 0.00000989 BTC 低于交易所最小单位，保留在任务中。')).toBeInTheDocument();
  });

  it('says why a replenish is refused', async () => {
    const app = await renderApp('/trade/detail/a0000000-0000-4000-8000-000000000001', api({ 'POST /api/trade/action': () => fail(14000, 'no position to replenish') }));
    await userEvent.click(await screen.findByRole('button', { name: '立即补仓' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '买入 20.00 USDT' }));
    expect(await screen.findByText('没有可补仓的持仓')).toBeInTheDocument();
    expect(lastRequest(app.server.requests, '/api/trade/action')?.body).toEqual({ id: 'a0000000-0000-4000-8000-000000000001', action: 'replenish' });
  });
});

describe('order history', () => {
  it("sends the task's id and the page, and shows its orders", async () => {
    const app = await renderApp('/trade/order-history?taskId=a0000000-0000-4000-8000-000000000001', {
      ...me,
      'GET /api/trade/detail/a0000000-0000-4000-8000-000000000001': () => ok(detail),
      'GET /api/trade/order-history': (request) => {
        const side = query(request).side;
        const list = side ? orders.filter((o) => o.side === side) : orders;
        return ok({ list, total: 45 });
      },
    });
    await findHeading('任务订单');
    expect(document.querySelector('[data-task-id="a0000000-0000-4000-8000-000000000001"]')).not.toBeNull();
    const table = await screen.findByRole('table', { name: '任务订单' });
    await within(table).findByText('第 1 档补仓');
    expect(query(lastRequest(app.server.requests, '/api/trade/order-history'))).toEqual({ taskId: 'a0000000-0000-4000-8000-000000000001', page: '1', pageSize: '20', sort: 'createdAt', order: 'DESC' });

    const row = (id: string) => table.querySelector(`[data-order="${id}"]`) as HTMLElement;
    const cells = (id: string) => [...row(id).querySelectorAll('td')].map((td) => td.textContent);
    expect(cells('o-2').slice(1)).toEqual(['BTC/USDT', '买入', '第 1 档补仓', '3', '99.00', '0.10101 BTC', '10.00', '0.0100 USDT', '已成交']);
    expect(cells('o-3').slice(1, 4)).toEqual(['BTC/USDT', '卖出', '止盈']);
    expect(row('o-3').querySelector('[data-side="sell"]')).not.toBeNull();
    expect(screen.getByRole('link', { name: 'BTC/USDT · 练手账户 的订单' })).toHaveAttribute('href', '/trade/detail/a0000000-0000-4000-8000-000000000001');

    await userEvent.click(screen.getByRole('button', { name: /下一页/ }));
    await waitFor(() => expect(query(lastRequest(app.server.requests, '/api/trade/order-history'))).toEqual({ taskId: 'a0000000-0000-4000-8000-000000000001', page: '2', pageSize: '20', sort: 'createdAt', order: 'DESC' }));

    await userEvent.click(screen.getByRole('button', { name: '卖出' }));
    await waitFor(() => expect(query(lastRequest(app.server.requests, '/api/trade/order-history'))).toEqual({ taskId: 'a0000000-0000-4000-8000-000000000001', side: 'sell', page: '1', pageSize: '20', sort: 'createdAt', order: 'DESC' }));
    await waitFor(() => expect(table.querySelectorAll('[data-order]')).toHaveLength(1));
  });

  it('lists every order with a link to its task, each price to its own market tick and each amount to its step', async () => {
    const app = await renderApp('/trade/all-order-history', {
      ...me,
      'GET /api/trade/order-history': () =>
        ok({
          list: [
            order({ id: 'o-9', status: 'failed', price: null, error: 'below_min_cost' }),
            order({ id: 'o-8', taskId: 'a0000000-0000-4000-8000-000000000002', symbol: 'DOGE/USDT', price: '0.15', amount: '131', cost: '19.65', tickSize: '0.00001', amountStep: '1' }),
            order({ id: 'o-7', price: '99', amount: '0.101', tickSize: '0.01', amountStep: '0.00001' }),
          ],
          total: 3,
        }),
    });
    await findHeading('全部订单');
    const table = await screen.findByRole('table', { name: '全部订单' });
    expect((await within(table).findAllByRole('link', { name: 'BTC/USDT' }))[0]).toHaveAttribute('href', '/trade/detail/a0000000-0000-4000-8000-000000000001');
    expect(within(table).getByRole('link', { name: 'DOGE/USDT' })).toHaveAttribute('href', '/trade/detail/a0000000-0000-4000-8000-000000000002');
    expect(within(table).getByText('失败 · 低于交易所最低下单金额')).toBeInTheDocument();
    const cells = (id: string) => [...table.querySelector(`[data-order="${id}"]`)!.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells('o-8').slice(5, 7)).toEqual(['0.15000', '131 DOGE']);
    expect(cells('o-7').slice(5, 7)).toEqual(['99.00', '0.10100 BTC']);
    expect(query(lastRequest(app.server.requests, '/api/trade/order-history'))).toEqual({ page: '1', pageSize: '20', sort: 'createdAt', order: 'DESC' });
  });
});

describe('home', () => {
  it('sums up the tasks and shows the prices of the coins in use', async () => {
    const app = await renderApp('/', {
      ...me,
      'GET /api/trade/list': () => ok({ list: [btc, eth, { ...eth, id: 'a0000000-0000-4000-8000-000000000003', symbol: 'SOL/USDT', finished: true, realizedProfit: '-2', running: false }], total: 3 }),
      'POST /api/trade/coin-price': () => ok({ 'BTC/USDT': '99000.5', 'ETH/USDT': '3000' }),
    });
    await findHeading('首页');
    const stat = async (name: string) =>
      (
        await waitFor(() => {
          const element = document.querySelector(`[data-stat="${name}"]`);
          expect(element).not.toBeNull();
          return element!;
        })
      ).textContent;
    // 1.25 + 0.5 - 2
    expect(await stat('realized')).toBe('已实现收益-0.25USDT所有已结束轮次');
    expect(await stat('floating')).toBe('浮动盈亏-0.22USDT当前持仓按最新价计算');
    expect(await stat('running')).toBe('运行中的任务1共 3 个任务');
    expect(await stat('capital')).toBe('占用资金20.02USDT当前持仓成本之和');
    expect(document.querySelector('[data-result="表现最好"]')).toHaveTextContent('BTC/USDT');
    expect(document.querySelector('[data-result="表现最好"]')).toHaveTextContent('+1.03 USDT');
    expect(document.querySelector('[data-result="表现最差"]')).toHaveTextContent('SOL/USDT');
    await waitFor(() => expect(document.querySelector('[data-price="BTC/USDT"]')).toHaveTextContent('99,000.50'));
    expect(document.querySelector('[data-price="ETH/USDT"]')).toHaveTextContent('3,000.00');
    // Finished tasks' coins are not asked for.
    expect(lastRequest(app.server.requests, '/api/trade/coin-price')?.body).toEqual({ exchangeId: 'e0000000-0000-4000-8000-000000000001', coins: ['BTC/USDT', 'ETH/USDT'] });
    expect(screen.getByRole('link', { name: '交易所 API' })).toHaveAttribute('href', '/exchange');
  });

  it('invites to bind a paper account and create a task when there is none', async () => {
    await renderApp('/', {
      ...me,
      'GET /api/trade/list': () => ok({ list: [], total: 0 }),
      'GET /api/exchange/list': () => ok({ list: [], total: 0 }),
    });
    expect(await screen.findByText('启动你的第一个机器人')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: '绑定模拟盘账户' })).toHaveAttribute('href', '/exchange/add?exchange=paper');
    expect(screen.getByRole('link', { name: '创建交易任务' })).toHaveAttribute('href', '/trade/add');
  });
});
