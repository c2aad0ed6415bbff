import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, type Handler } from '../../testing/fakeServer';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { barGeometry } from './ProfitBarChart';
import { dayDetail, overview, rank } from './testData';

const query = (app: Awaited<ReturnType<typeof renderApp>>, path: string) =>
  app.server.requests.filter((r) => r.path === path).map((r) => Object.fromEntries(new URL(r.url, 'http://localhost').searchParams));
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

describe('bar geometry', () => {
  it('puts positive days above the zero line and negative ones below, one bar a day, zero days as a hairline', () => {
    const { zero, bars } = barGeometry(overview().daily, { left: 0, right: 100, top: 0, bottom: 100 });
    expect(bars.map((b) => b.sign)).toEqual(['positive', 'zero', 'negative', 'positive', 'negative']);
    const [up, flat, down, top] = bars;
    expect(up!.y + up!.height).toBeCloseTo(zero);
    expect(down!.y).toBeCloseTo(zero);
    expect(flat!.height).toBe(1);
    // The biggest day reaches the top of the plot.
    expect(top!.y).toBeCloseTo(0);
    expect(bars.every((b, i) => i === 0 || b.x > bars[i - 1]!.x)).toBe(true);
  });
});

describe('/profile/profit-detail', () => {
  const routes = (extra: Record<string, Handler> = {}): Record<string, Handler> => ({
    ...identityRoute,
    'GET /api/profit/summary': () => ok(overview()),
    'GET /api/profit/daily': () =>
      ok({ list: [{ date: '2026-03-05', profit: '-1.5', cycles: 1 }, { date: '2026-03-04', profit: '10', cycles: 3 }], total: 2 }),
    ...extra,
  });

  it('shows the totals, a bar a day with its sign and label, and the days linking to their detail (in my time zone)', async () => {
    const app = await renderApp('/profile/profit-detail', routes());
    await findHeading('收益明细');
    await waitFor(() => expect(document.querySelector('[data-stat="30d"]')).toHaveTextContent('+88.00'));
    expect(document.querySelector('[data-stat="total"]')).toHaveTextContent('+123.45');
    expect(document.querySelector('[data-stat="today"]')).toHaveTextContent('-1.50');
    expect(document.querySelector('[data-stat="7d"]')).toHaveTextContent('+20.10');
    expect(document.querySelector('[data-stat="cycles"]')).toHaveTextContent('42');

    const bars = [...document.querySelectorAll('[data-chart="daily-profit"] rect')];
    expect(bars.map((b) => [b.getAttribute('data-date'), b.getAttribute('data-sign')])).toEqual([
      ['2026-03-01', 'positive'],
      ['2026-03-02', 'zero'],
      ['2026-03-03', 'negative'],
      ['2026-03-04', 'positive'],
      ['2026-03-05', 'negative'],
    ]);
    expect(screen.getByRole('img', { name: '2026-03-03：-2.25 USDT，完成 1 轮' })).toHaveAttribute('data-sign', 'negative');

    const day = await screen.findByRole('link', { name: /2026-03-04/ });
    expect(day).toHaveAttribute('href', '/profile/daily-profit-detail/2026-03-04');
    expect(day).toHaveTextContent('+10.00 USDT');
    expect(query(app, '/api/profit/summary')[0]).toMatchObject({ timeZone: browserZone });
    expect(query(app, '/api/profit/daily')[0]).toMatchObject({ timeZone: browserZone, page: '1', pageSize: '20' });
  });

  it('with no closed cycle shows the empty state; a failed summary shows its error', async () => {
    await renderApp(
      '/profile/profit-detail',
      routes({ 'GET /api/profit/summary': () => fail(20003), 'GET /api/profit/daily': () => ok({ list: [], total: 0 }) }),
    );
    expect(await screen.findByText('还没有完成的轮次。', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findByText('未配置')).toBeInTheDocument();
  });
});

describe('/profile/daily-profit-detail/:date', () => {
  it("shows that day's cycles: pair, exchange, cycle, cost, proceeds, profit, fuel", async () => {
    const app = await renderApp('/profile/daily-profit-detail/2026-03-04', { ...identityRoute, 'GET /api/profit/daily-detail': () => ok(dayDetail) });
    await findHeading('2026-03-04 收益');
    await waitFor(() => expect(document.querySelector('[data-cycle-row="c1"]')).not.toBeNull());
    const row = within(document.querySelector<HTMLElement>('[data-cycle-row="c1"]')!);
    expect(row.getByRole('link', { name: 'BTC/USDT' })).toHaveAttribute('href', '/trade/detail/a0000000-0000-4000-8000-000000000011');
    expect(row.getByText('Paper')).toBeInTheDocument();
    expect(row.getByText('第 7 轮')).toBeInTheDocument();
    expect(row.getByText('100.00')).toBeInTheDocument();
    expect(row.getByText('106.00')).toBeInTheDocument();
    expect(row.getByText('+6.00')).toBeInTheDocument();
    expect(row.getByText('1.20')).toBeInTheDocument();
    expect(document.querySelector('[data-stat="profit"]')).toHaveTextContent('+10.00');
    expect(document.querySelectorAll('[data-cycle-card]')).toHaveLength(2);
    expect(query(app, '/api/profit/daily-detail')[0]).toEqual({ date: '2026-03-04', timeZone: browserZone });
  });

  it('a day without cycles says so', async () => {
    await renderApp('/profile/daily-profit-detail/2026-03-02', {
      ...identityRoute,
      'GET /api/profit/daily-detail': () => ok({ date: '2026-03-02', profit: '0', cycles: [] }),
    });
    expect(await screen.findByText('当天没有完成的轮次。', undefined, { timeout: 5000 })).toBeInTheDocument();
  });
});

describe('/profile/profit-rank', () => {
  it("ranks today and all time, names masked, my row highlighted and my rank shown", async () => {
    const app = await renderApp('/profile/profit-rank', {
      ...identityRoute,
      'GET /api/profit/rank': (request) => ok(rank(new URL(request.url, 'http://localhost').searchParams.get('period') as 'day' | 'all')),
    });
    await waitFor(() => expect(document.querySelector('[data-rank="2"]')).not.toBeNull(), { timeout: 5000 });
    expect(document.querySelector('[data-self="true"]')).toBe(document.querySelector('[data-rank="2"]'));
    expect(document.querySelector('[data-rank="1"]')).toHaveTextContent('a***@example.com');
    expect(document.querySelector('[data-stat="my-rank"]')).toHaveTextContent('#2');
    expect(document.querySelector('[data-stat="my-profit"]')).toHaveTextContent('+20.00');
    await userEvent.click(screen.getByRole('tab', { name: '总榜' }));
    await waitFor(() => expect(document.querySelector('[data-stat="my-profit"]')).toHaveTextContent('+2,000.00'));
    expect(query(app, '/api/profit/rank').map((q) => q.period)).toEqual(['day', 'all']);
    expect(query(app, '/api/profit/rank')[0]).toMatchObject({ timeZone: browserZone });
  });

  it('not ranked and nobody ranked: both said; an error shows its text', async () => {
    await renderApp('/profile/profit-rank', { ...identityRoute, 'GET /api/profit/rank': () => ok({ period: 'day', date: '2026-03-05', list: [], me: null }) });
    expect(await screen.findByText('暂无上榜用户。', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('您暂未上榜：完成一轮盈利即可上榜。')).toBeInTheDocument();
  });

  it('shows the error of the rank call', async () => {
    await renderApp('/profile/profit-rank', { ...identityRoute, 'GET /api/profit/rank': () => fail(99999) });
    expect(await screen.findByText('未知错误', undefined, { timeout: 5000 })).toBeInTheDocument();
  });
});
