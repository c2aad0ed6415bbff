import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReturnsOverview, TaskCycle, TaskReturns } from '../../api/returns';
import type { TradeTask, TradeTaskDetail } from '../../api/trade';
import { ok, type Handler, type RecordedRequest } from '../../testing/fakeServer';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { inviteInfo, overview } from '../profile/testData';
import { curveBars } from './curveData';
import { formatDuration, formatReturn } from './format';
import { monthCurve } from './MonthPoster';
import type { PosterInput } from './poster/drawPoster';
import type { ProfitCurveChartProps } from './ProfitCurveChart';
import { balancedSettings, btcTask } from '../../testing/tasks';

// jsdom has no canvas: the lazily loaded chart shows what it was given to draw, the poster what it was asked to draw.
vi.mock('./ProfitCurveChart', () => ({
  default: ({ bars, label }: ProfitCurveChartProps) => <div role="img" aria-label={label} data-chart="profit-curve" data-bars={JSON.stringify(bars)} />,
}));
const drawPoster = vi.fn(async (input: PosterInput) => ({ input }) as unknown as HTMLCanvasElement);
vi.mock('./poster/drawPoster', () => ({
  drawPoster: (input: PosterInput) => drawPoster(input),
  posterPng: async () => new Blob(['png'], { type: 'image/png' }),
}));

const TASK_ID = 'a0000000-0000-4000-8000-000000000001';
const task: TradeTask = { ...btcTask, id: TASK_ID, cyclesDone: 12 };
const detail: TradeTaskDetail = {
  ...task,
  strategy: { ...balancedSettings, takeProfitCallbackPercent: '0', replenishCallbackPercent: '0', cooldownSeconds: 0 },
  firstFillPrice: '100',
  takeProfitArmed: false,
  events: [],
};

const returns: TaskReturns = {
  taskId: TASK_ID,
  symbol: 'BTC/USDT',
  invested: '20.02',
  maxInvested: '30.03',
  realizedProfit: '1.25',
  floatingProfit: '-0.22',
  totalProfit: '1.03',
  fees: '0.12',
  roi: '3.4299',
  apr: '125.1918',
  lastPrice: '99',
  startedAt: '2026-03-01T08:00:00.000Z',
  endedAt: null,
  runSeconds: 3 * 86_400 + 5 * 3_600 + 120,
  cyclesClosed: 12,
  curve: [
    { time: '2026-03-01T09:00:00.000Z', profit: '0.15' },
    { time: '2026-03-02T10:30:00.000Z', profit: '-0.05' },
    { time: '2026-03-04T10:30:00.000Z', profit: '1.25' },
  ],
};

const cycle = (n: number): TaskCycle => ({
  id: String(100 + n),
  cycle: n,
  openedAt: '2026-03-02T08:00:00.000Z',
  closedAt: '2026-03-02T09:30:00.000Z',
  durationSeconds: 5400,
  levelsFilled: n % 3,
  fundsUsed: '30.03',
  sellProceeds: '30.18',
  realizedProfit: n === 11 ? '-0.5' : '0.15',
  fees: '0.01',
  roi: n === 11 ? '-1.6650' : '0.4995',
  exitReason: n === 11 ? 'stop_loss' : 'take_profit',
});

/** The element once it is there. */
const element = (selector: string, root: ParentNode = document) =>
  waitFor(
    () => {
      const found = root.querySelector(selector);
      if (!found) throw new Error(`no ${selector} yet`);
      return found as HTMLElement;
    },
    { timeout: 5000 },
  );

const query = (request: RecordedRequest | undefined) => Object.fromEntries(new URL(request?.url ?? '', 'http://localhost').searchParams);
const bars = (chart: Element) => JSON.parse(chart.getAttribute('data-bars') ?? 'null') as { time: number; value: number }[];

const detailRoutes = (extra: Record<string, Handler> = {}): Record<string, Handler> => ({
  ...identityRoute,
  [`GET /api/trade/detail/${TASK_ID}`]: () => ok(detail),
  'GET /api/trade/ohlcv': () => ok({ symbol: 'BTC/USDT', timeframe: '15m', prices: { source: 'simulator', live: false }, candles: [] }),
  'GET /api/trade/order-history': () => ok({ list: [], total: 0 }),
  'GET /api/trade/returns': () => ok(returns),
  'GET /api/trade/cycles': (request) => {
    const page = Number(query(request).page);
    return ok({ list: (page === 1 ? [12, 11, 10, 9, 8, 7, 6, 5, 4, 3] : [2, 1]).map(cycle), total: 12 });
  },
  'GET /api/invite/info': () => ok(inviteInfo),
  ...extra,
});

beforeEach(async () => {
  await startSignedInZhCN();
  drawPoster.mockClear();
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:poster'), revokeObjectURL: vi.fn() }));
});
afterEach(() => vi.unstubAllGlobals());

describe('returns figures', () => {
  it('formats percents with their sign and durations in the locale', () => {
    expect(formatReturn('3.4299', 'zh-CN')).toBe('+3.43%');
    expect(formatReturn('-0.5', 'en-US')).toBe('-0.50%');
    expect(formatReturn(null, 'en-US')).toBe('—');
    expect(formatDuration(3 * 86_400 + 5 * 3_600 + 120, 'en-US')).toBe('3 days 5 hr');
    expect(formatDuration(3_600 + 5, 'zh-CN')).toBe('1小时');
    expect(formatDuration(59, 'zh-TW')).toBe('59 秒');
  });

  it('draws the curve in whole seconds from zero at the start, times strictly increasing', () => {
    const points = [
      { time: '2026-03-01T09:00:00.200Z', profit: '0.1' },
      { time: '2026-03-01T09:00:00.900Z', profit: '0.3' },
      { time: '2026-03-01T09:00:01.100Z', profit: '-0.2' },
    ];
    expect(curveBars(points, '2026-03-01T08:00:00.000Z')).toEqual([
      { time: Date.parse('2026-03-01T08:00:00Z') / 1000, value: 0 },
      { time: Date.parse('2026-03-01T09:00:00Z') / 1000, value: 0.3 },
      { time: Date.parse('2026-03-01T09:00:01Z') / 1000, value: -0.2 },
    ]);
    expect(curveBars([], '2026-03-01T08:00:00.000Z')).toEqual([]);
    expect(monthCurve(overview().daily).map((p) => p.profit)).toEqual(['5.5', '5.5', '3.25', '13.25', '11.75']);
  });
});

describe('task detail returns', () => {
  it('shows profit, ROI, APR, run time and funds with their definitions, the curve and the cycles page by page', async () => {
    const app = await renderApp(`/trade/detail/${TASK_ID}`, detailRoutes());
    await findHeading('任务详情');
    const section = await screen.findByText('收益', { selector: 'h2' }).then((h) => h.closest('[data-section="returns"]') as HTMLElement);
    const figure = async (name: string) => (await element(`[data-returns="${name}"]`, section)).textContent;
    expect(await figure('total')).toContain('+1.03');
    expect(await figure('roi')).toContain('+3.43%');
    expect(await figure('apr')).toContain('+125.19%');
    expect(await figure('runTime')).toContain('3天 5小时');
    expect(await figure('invested')).toContain('20.02 USDT');
    expect(await figure('maxInvested')).toContain('30.03 USDT');
    expect(await figure('floating')).toContain('-0.22');
    expect(await figure('cycles')).toContain('12');
    // Each ratio says what it is measured on.
    expect(within(section).getByLabelText('总收益 ÷ 最大占用资金 × 100。')).toBeInTheDocument();
    expect(within(section).getByLabelText(/收益率 × 365 天 ÷ 运行时长/)).toBeInTheDocument();
    expect(query(app.server.requests.find((r) => r.path === '/api/trade/returns'))).toEqual({ taskId: TASK_ID });

    const chart = await within(section).findByRole('img', { name: '累计已实现收益（USDT）随时间变化' });
    expect(bars(chart)).toEqual([
      { time: Date.parse('2026-03-01T08:00:00Z') / 1000, value: 0 },
      { time: Date.parse('2026-03-01T09:00:00Z') / 1000, value: 0.15 },
      { time: Date.parse('2026-03-02T10:30:00Z') / 1000, value: -0.05 },
      { time: Date.parse('2026-03-04T10:30:00Z') / 1000, value: 1.25 },
    ]);

    const table = await within(section).findByRole('table', { name: '每轮明细' });
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['轮次', '开始', '结束', '补仓次数', '占用资金', '收益', '收益率', '手续费', '用时']);
    const stopped = table.querySelector('[data-cycle="11"]') as HTMLElement;
    expect(stopped.textContent).toContain('止损');
    expect(stopped.textContent).toContain('-0.50');
    expect(stopped.textContent).toContain('-1.67%');
    expect(stopped.textContent).toContain('1小时 30分钟');
    expect(table.querySelectorAll('[data-cycle]')).toHaveLength(10);

    await userEvent.click(within(within(section).getByRole('navigation')).getByText('2'));
    await waitFor(() => expect(table.querySelectorAll('[data-cycle]')).toHaveLength(2));
    expect(query(app.server.requests.filter((r) => r.path === '/api/trade/cycles').at(-1))).toEqual({ taskId: TASK_ID, page: '2', pageSize: '10' });
  });

  it('says when nothing has closed yet', async () => {
    await renderApp(
      `/trade/detail/${TASK_ID}`,
      detailRoutes({
        'GET /api/trade/returns': () => ok({ ...returns, curve: [], cyclesClosed: 0, realizedProfit: '0', totalProfit: '-0.22', roi: '-0.7326', apr: null }),
        'GET /api/trade/cycles': () => ok({ list: [], total: 0 }),
      }),
    );
    expect(await screen.findByText('第一轮完成后开始绘制曲线。')).toBeInTheDocument();
    expect(await screen.findByText('还没有完成的轮次。')).toBeInTheDocument();
    expect((await element('[data-returns="apr"]')).textContent).toContain('—');
  });

  it('draws a poster with the figures, the curve, the invite code and its link, and offers it as a PNG', async () => {
    const app = await renderApp(`/trade/detail/${TASK_ID}`, detailRoutes());
    const share = await screen.findByRole('button', { name: '分享海报' }, { timeout: 5000 });
    await waitFor(() => expect(share).toBeEnabled());
    await userEvent.click(share);
    const dialog = await screen.findByRole('dialog', { name: '收益海报' }, { timeout: 5000 });
    expect(within(dialog).getByRole('img', { name: '收益海报' })).toHaveAttribute('src', 'blob:poster');
    expect(within(dialog).getByRole('link', { name: '保存图片' })).toHaveAttribute('download', '收益-BTC-USDT.png');
    expect(app.server.requests.some((r) => r.path === '/api/invite/info')).toBe(true);
    const input = drawPoster.mock.calls[0]![0];
    expect(input).toMatchObject({
      trend: 'up',
      points: returns.curve,
      origin: returns.startedAt,
      link: `${window.location.origin}/#/auth/register?inviteCode=ABC123`,
      texts: { title: 'BTC/USDT 交易机器人', main: '+3.43%', second: '+1.03', inviteCode: 'ABC123', brand: '量化交易' },
    });
    expect(input.texts.lines).toEqual(['已运行 3天 5小时', '已完成 12 轮']);
    await userEvent.click(within(dialog).getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('home returns', () => {
  const overviewAnswer: ReturnsOverview = {
    assets: {
      total: '10150.5',
      wallet: '100.5',
      accounts: [
        { id: 'e0000000-0000-4000-8000-000000000001', name: '练手账户', exchange: 'paper', value: '10050' },
        { id: 'e0000000-0000-4000-8000-000000000002', name: '币安主账户', exchange: 'binance', value: null },
      ],
      complete: false,
    },
    realizedProfit: '1.25',
    floatingProfit: '-0.22',
    totalProfit: '1.03',
    maxInvested: '30.03',
    roi: '3.4299',
    tasks: 1,
    cyclesClosed: 12,
    curve: returns.curve,
  };
  const homeRoutes = (answer: ReturnsOverview): Record<string, Handler> => ({
    ...identityRoute,
    'GET /api/trade/overview': () => ok(answer),
    'GET /api/trade/list': () => ok({ list: [task], total: 1 }),
    'GET /api/trade/profit-summary': () => ok({ date: '2026-03-05', realizedTotal: '1.25', realizedToday: '0.15', cyclesToday: 1 }),
    'POST /api/trade/coin-price': () => ok({ 'BTC/USDT': '99' }),
  });

  it('shows total assets with what they are made of, the total return with its ROI, and the curve of all tasks', async () => {
    await renderApp('/', homeRoutes(overviewAnswer));
    const assets = await element('[data-stat="assets"]');
    expect(assets.textContent).toContain('总资产');
    expect(assets.textContent).toContain('10,150.50');
    expect(assets.querySelector('[data-asset="wallet"]')?.textContent).toBe('钱包 100.50');
    expect(assets.textContent).toContain('练手账户 10,050.00');
    expect(assets.querySelector('[data-assets="incomplete"]')?.textContent).toBe('币安主账户 暂时无法估值，未计入。');
    const total = document.querySelector('[data-stat="totalReturn"]') as HTMLElement;
    expect(total.textContent).toContain('+1.03');
    expect(total.textContent).toContain('收益率 +3.43%，最大占用资金 30.03 USDT');
    const chart = await screen.findByRole('img', { name: '累计已实现收益（USDT）随时间变化' });
    expect(bars(chart).map((b) => b.value)).toEqual([0.15, -0.05, 1.25]);
  });

  it('a newcomer sees their assets and no return yet', async () => {
    await renderApp('/', {
      ...homeRoutes({ ...overviewAnswer, tasks: 0, cyclesClosed: 0, realizedProfit: '0', floatingProfit: '0', totalProfit: '0', maxInvested: '0', roi: null, curve: [], assets: { total: '0', wallet: '0', accounts: [], complete: true } }),
      'GET /api/trade/list': () => ok({ list: [], total: 0 }),
      'GET /api/exchange/list': () => ok({ list: [], total: 0 }),
    });
    const assets = await element('[data-stat="assets"]');
    expect(assets.textContent).toContain('0.00');
    expect(document.querySelector('[data-stat="totalReturn"]')).toBeNull();
    expect(screen.queryByRole('img', { name: '累计已实现收益（USDT）随时间变化' })).toBeNull();
  });
});

describe('month poster', () => {
  it('on the profit page: the last 30 days with their curve', async () => {
    await renderApp('/profile/profit-detail', {
      ...identityRoute,
      'GET /api/profit/summary': () => ok(overview()),
      'GET /api/profit/daily': () => ok({ list: [], total: 0 }),
      'GET /api/invite/info': () => ok(inviteInfo),
    });
    const share = await screen.findByRole('button', { name: '分享海报' }, { timeout: 5000 });
    await waitFor(() => expect(share).toBeEnabled());
    await userEvent.click(share);
    expect(await screen.findByRole('link', { name: '保存图片' }, { timeout: 5000 })).toHaveAttribute('download', '近30天收益.png');
    const input = drawPoster.mock.calls[0]![0];
    expect(input.texts).toMatchObject({ title: '我的近 30 天收益', main: '+88.00 USDT', inviteCode: 'ABC123' });
    expect(input.points.at(-1)).toEqual({ time: '2026-03-05T12:00:00.000Z', profit: '11.75' });
  });

  it('on the rank page: my place in the title', async () => {
    await renderApp('/profile/profit-rank', {
      ...identityRoute,
      'GET /api/profit/rank': () => ok({ period: 'day', date: '2026-03-05', list: [{ rank: 1, name: 'D***', profit: '3', self: true }], me: { rank: 1, profit: '3' } }),
      'GET /api/profit/summary': () => ok(overview()),
      'GET /api/invite/info': () => ok(inviteInfo),
    });
    const share = await screen.findByRole('button', { name: '分享海报' }, { timeout: 5000 });
    await waitFor(() => expect(share).toBeEnabled());
    await screen.findByText('D***');
    await userEvent.click(share);
    await screen.findByRole('dialog', { name: '收益海报' }, { timeout: 5000 });
    expect(drawPoster.mock.calls[0]![0].texts.title).toBe('我的收益排名：第 1 名');
  });
});
