import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProfitOverview } from '../api/member';
import { createFakeServer, fail, ok, type Handler } from '../testing/fakeServer';
import { CHART_DAYS, ProfitCard, dayBars } from './ProfitCard';

const summary = { date: '2026-03-20', realizedTotal: '1234.5', realizedToday: '-3.25', cyclesToday: 2 };

/** 20 days, oldest first: the card shows the last 14. Every third day loses, every fifth is flat. */
const daily: ProfitOverview['daily'] = Array.from({ length: 20 }, (_, i) => ({
  date: `2026-03-${String(i + 1).padStart(2, '0')}`,
  profit: i % 5 === 4 ? '0' : i % 3 === 2 ? `-${i}.5` : `${i}.25`,
  cycles: i % 5 === 4 ? 0 : 1,
}));
const overview: ProfitOverview = { timeZone: 'UTC', today: '2026-03-20', total: '1234.5', todayProfit: '-3.25', last7Days: '1', last30Days: '2', cycles: 9, daily };

const serve = (routes: Record<string, Handler>) => {
  const server = createFakeServer(routes);
  vi.stubGlobal('fetch', server.fetch);
  return server;
};

afterEach(() => vi.unstubAllGlobals());

describe('profit card chart', () => {
  it('draws the last 14 days as bars, green up and red down, under the totals', async () => {
    const server = serve({ 'GET /api/trade/profit-summary': () => ok(summary), 'GET /api/profit/summary': () => ok(overview) });
    const { container } = render(<ProfitCard token="t" locale="en-US" refresh={0} />);
    expect(await screen.findByRole('img', { name: 'Last 14 days' })).toBeInTheDocument();
    expect(screen.getByText('+1,234.50')).toBeInTheDocument();
    const bars = [...container.querySelectorAll('[data-chart="daily"] rect')];
    expect(bars).toHaveLength(CHART_DAYS);
    const shown = daily.slice(-CHART_DAYS);
    expect(bars.map((b) => b.getAttribute('data-date'))).toEqual(shown.map((d) => d.date));
    expect(bars.map((b) => b.getAttribute('data-sign'))).toEqual(shown.map((d) => (d.profit === '0' ? 'flat' : d.profit.startsWith('-') ? 'down' : 'up')));
    expect(bars.map((b) => b.getAttribute('class'))).toEqual(shown.map((d) => (d.profit === '0' ? 'muted' : d.profit.startsWith('-') ? 'down' : 'up')));
    expect(bars[0]!.querySelector('title')).toHaveTextContent('2026-03-07: +6.25 USDT');
    const asked = server.requests.find((r) => r.path === '/api/profit/summary')!;
    const params = new URL(asked.url, 'http://localhost').searchParams;
    expect(params.get('days')).toBe('14');
    expect(params.get('timeZone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('keeps the totals without a chart when the daily figures fail', async () => {
    serve({ 'GET /api/trade/profit-summary': () => ok(summary), 'GET /api/profit/summary': () => fail(20002) });
    const { container } = render(<ProfitCard token="t" locale="zh-CN" refresh={0} />);
    expect(await screen.findByText('+1,234.50')).toBeInTheDocument();
    await waitFor(() => expect(container.querySelector('[data-chart]')).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('bars stand on the zero line: positive above, negative below', () => {
    const { zero, bars } = dayBars(daily.slice(0, 3));
    expect(bars[0]!.y + bars[0]!.height).toBeCloseTo(zero);
    expect(bars[2]!.y).toBeCloseTo(zero);
    expect(bars[2]!.height).toBeGreaterThan(bars[0]!.height);
  });

  it('an empty fortnight draws its flat bars inside the chart, under its label, not through it', () => {
    const flat = daily.slice(0, CHART_DAYS).map((d) => ({ ...d, profit: '0', cycles: 0 }));
    const { zero, bars } = dayBars(flat);
    expect(zero).toBe(56);
    for (const bar of bars) {
      expect(bar.y).toBeGreaterThanOrEqual(0);
      expect(bar.y + bar.height).toBeLessThanOrEqual(56);
    }
    const losses = dayBars(flat.map((d) => ({ ...d, profit: '-1' })));
    for (const bar of losses.bars) expect(bar.y + bar.height).toBeLessThanOrEqual(56);
  });

  it('colours up and down by the price colour scheme: the attribute, else the stored setting, else the language', async () => {
    serve({ 'GET /api/trade/profit-summary': () => ok(summary), 'GET /api/profit/summary': () => ok(overview) });
    const scheme = (container: HTMLElement) => container.querySelector('.qt')!.getAttribute('data-colors');
    const zh = render(<ProfitCard token="t" locale="zh-CN" refresh={0} />);
    await screen.findAllByText('+1,234.50');
    expect(scheme(zh.container)).toBe('red-up');
    const en = render(<ProfitCard token="t" locale="en-US" refresh={0} />);
    expect(scheme(en.container)).toBe('green-up');
    const forced = render(<ProfitCard token="t" locale="en-US" colors="red-up" refresh={0} />);
    expect(scheme(forced.container)).toBe('red-up');
    localStorage.setItem('priceColors', 'green-up');
    const stored = render(<ProfitCard token="t" locale="zh-TW" refresh={0} />);
    expect(scheme(stored.container)).toBe('green-up');
    localStorage.removeItem('priceColors');
    // The stylesheet maps up and down to red or green per scheme.
    const css = zh.container.querySelector('style')!.textContent!;
    expect(css).toMatch(/\[data-colors="red-up"\] \{ --qt-up: var\(--qt-red\); --qt-down: var\(--qt-green\); \}/);
    expect(css).toMatch(/--qt-accent: #0b7a75/);
  });
});
