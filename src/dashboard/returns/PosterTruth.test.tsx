import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HUES } from '../../api/colors';
import type { TaskReturns } from '../../api/returns';
import type { TradeTaskDetail } from '../../api/trade';
import { storePriceColors } from '../../i18n/priceColors';
import { ok, type Handler } from '../../testing/fakeServer';
import { identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { balancedSettings, btcTask } from '../../testing/tasks';
import { inviteInfo } from '../profile/testData';
import { posterColor, type PosterInput } from './poster/drawPoster';

vi.mock('./ProfitCurveChart', () => ({ default: () => <div data-chart="profit-curve" /> }));
vi.mock('../trade/CandleChart', () => ({ default: () => <div data-chart="task" /> }));
// jsdom has no canvas: the poster records what it was asked to draw; its colour rule is the real one.
const drawn = vi.fn(async (input: PosterInput) => ({ input }) as unknown as HTMLCanvasElement);
vi.mock('./poster/drawPoster', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./poster/drawPoster')>()),
  drawPoster: (input: PosterInput) => drawn(input),
  posterPng: async () => new Blob(['png'], { type: 'image/png' }),
}));

const ID = btcTask.id;
const detail: TradeTaskDetail = { ...btcTask, strategy: balancedSettings, firstFillPrice: '100', takeProfitArmed: false, events: [] };
/** A small loss: ROI -0.4150 %, which the page shows as -0.42%. */
const loss: TaskReturns = {
  taskId: ID,
  symbol: 'BTC/USDT',
  invested: '20.02',
  maxInvested: '20.02',
  realizedProfit: '0',
  floatingProfit: '-0.0831',
  totalProfit: '-0.0831',
  fees: '0.02',
  roi: '-0.4150',
  apr: null,
  lastPrice: '99',
  startedAt: '2026-03-01T08:00:00.000Z',
  endedAt: null,
  runSeconds: 3_600,
  cyclesClosed: 0,
  curve: [],
};
const routes: Record<string, Handler> = {
  ...identityRoute,
  [`GET /api/trade/detail/${ID}`]: () => ok(detail),
  'GET /api/trade/ohlcv': () => ok({ symbol: 'BTC/USDT', timeframe: '15m', prices: { source: 'simulator', live: false }, candles: [] }),
  'GET /api/trade/order-history': () => ok({ list: [], total: 0 }),
  'GET /api/trade/returns': () => ok(loss),
  'GET /api/trade/cycles': () => ok({ list: [], total: 0 }),
  'GET /api/invite/info': () => ok(inviteInfo),
};

const sharePoster = async () => {
  const share = await screen.findByRole('button', { name: '分享海报' }, { timeout: 5000 });
  await waitFor(() => expect(share).toBeEnabled());
  const roi = (document.querySelector('[data-returns="roi"]') as HTMLElement).textContent;
  await userEvent.click(share);
  await screen.findByRole('dialog', { name: '收益海报' }, { timeout: 5000 });
  return { input: drawn.mock.calls.at(-1)![0], roi };
};

beforeEach(async () => {
  await startSignedInZhCN();
  drawn.mockClear();
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:poster'), revokeObjectURL: vi.fn() }));
});
afterEach(() => vi.unstubAllGlobals());

describe('the profit poster', () => {
  it("prints a loss in the down colour of 红涨绿跌 (green), with the page's own ROI", async () => {
    await renderApp(`/trade/detail/${ID}`, routes);
    const { input, roi } = await sharePoster();
    expect(roi).toBe('收益率-0.42%');
    expect(input.texts.main).toBe('-0.42%');
    expect(input.trend).toBe('down');
    expect(posterColor(input.trend, input.colors)).toBe(HUES.dark.green);
  });

  it('follows the 绿涨红跌 setting: the same loss in red', async () => {
    storePriceColors('green-up');
    await renderApp(`/trade/detail/${ID}`, routes);
    const { input } = await sharePoster();
    expect(posterColor(input.trend, input.colors)).toBe(HUES.dark.red);
    expect(posterColor('up', input.colors)).toBe(HUES.dark.green);
  });
});
