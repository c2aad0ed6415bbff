import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { OhlcvAnswer, TradeTaskDetail } from '../../api/trade';
import type { TaskWebhook } from '../../api/webhook';
import { ok, type Handler } from '../../testing/fakeServer';
import { findElement, findHeading, identityRoute, pageUser, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { balancedSettings, btcTask } from '../../testing/tasks';

// jsdom has no canvas: the lazily loaded chart is left out of these page tests.
vi.mock('./CandleChart', () => ({ default: () => <div data-chart="task" /> }));

const ID = btcTask.id;
const DETAIL_PATH = `/trade/detail/${ID}`;

/** Between cycles, its start gate: RSI(14, 1 h) below 30 and the price at most 30,000. */
const gated: TradeTaskDetail = {
  ...btcTask,
  phase: 'ready',
  quantity: '0',
  cost: '0',
  averagePrice: null,
  levelsFilled: 0,
  strategy: {
    ...balancedSettings,
    conditions: { start: { mode: 'all', conditions: [{ kind: 'rsi', period: 14, timeframe: '1h', op: 'below', value: '30' }, { kind: 'price_range', min: null, max: '30000' }] } },
  },
  firstFillPrice: null,
  takeProfitArmed: false,
  events: [],
  waiting: null,
};

const api = (task: TradeTaskDetail, extra: Record<string, Handler> = {}): Record<string, Handler> => ({
  ...identityRoute,
  [`GET /api/trade/detail/${ID}`]: () => ok(task),
  'GET /api/trade/ohlcv': (): ReturnType<Handler> => ok({ symbol: 'BTC/USDT', timeframe: '15m', prices: { source: 'simulator', live: false }, candles: [] } satisfies OhlcvAnswer),
  'GET /api/trade/order-history': () => ok({ list: [], total: 0 }),
  'GET /api/trade/cycles': () => ok({ list: [], total: 0 }),
  [`GET /api/trade/task/webhook/${ID}`]: () => ok(null),
  ...extra,
});


beforeEach(startSignedInZhCN);

describe('a task waiting for its conditions', () => {
  it('says what it waits for in the page language, from the readings: the conditions that do not hold, with their values now', async () => {
    const waiting = { gate: 'start' as const, since: '2026-03-01T08:30:00.000Z', readings: [{ path: [0], current: '41.2', holds: false }, { path: [1], current: '26750.5', holds: true }], text: 'RSI(14,1h) < 30, now 41.2' };
    await renderApp(DETAIL_PATH, api({ ...gated, waiting }));
    await findHeading('任务详情');
    // The price range holds: only the RSI is waited for.
    expect(await findElement('[data-waiting-text]')).toHaveTextContent(/^等待条件：RSI\(14,1h\) < 30，当前 41\.2$/);
    expect(document.querySelector('[data-waiting="start"]')).toHaveTextContent('自 ');
  });

  it('shows no waiting line while the task does not wait', async () => {
    await renderApp(DETAIL_PATH, api(gated));
    await findHeading('任务详情');
    await findElement('[data-section="webhook"]');
    expect(document.querySelector('[data-waiting]')).toBeNull();
  });
});

describe("a task's TradingView webhook", () => {
  it('turns on with a chosen action, shows the secret only when asked, rotates, turns off; its alerts say what they did', { timeout: 30_000 }, async () => {
    const hook = (action: TaskWebhook['action'], secret: string, alerts: TaskWebhook['alerts'] = []): TaskWebhook => ({
      taskId: ID,
      url: 'https://bot.example.com/hooks/tradingview/h00k',
      secret,
      action,
      template: JSON.stringify({ secret, id: '{{timenow}}-{{ticker}}', time: '{{timenow}}', ticker: '{{ticker}}', price: '{{close}}', action }),
      createdAt: '2026-03-01T08:00:00.000Z',
      rotatedAt: '2026-03-01T08:00:00.000Z',
      alerts,
    });
    let current: TaskWebhook | null = null;
    const alert = { alertId: 'a-1', action: 'buy_level' as const, outcome: 'accepted' as const, ticker: 'BTCUSDT', price: '26500', time: '2026-03-01T09:00:00.000Z', receivedAt: '2026-03-01T09:00:01.000Z' };
    const task: TradeTaskDetail = {
      ...gated,
      events: [{ id: '7', kind: 'alert_ignored', data: { alert: 'a-1', action: 'buy_level', reason: 'no_cycle' }, createdAt: '2026-03-01T09:00:02.000Z' }],
    };
    const app = await renderApp(
      DETAIL_PATH,
      api(task, {
        [`GET /api/trade/task/webhook/${ID}`]: () => ok(current),
        'POST /api/trade/task/webhook': (request) => {
          current = hook(request.body?.action as TaskWebhook['action'], current ? 'second-secret' : 'first-secret', [alert]);
          return ok(current);
        },
        'POST /api/trade/task/webhook/off': () => {
          current = null;
          return ok(null);
        },
      }),
    );
    await findHeading('任务详情');
    const section = await findElement('[data-section="webhook"]');
    await within(section).findByText('未开启 Webhook：警报无法送达此任务。');
    await pageUser.click(within(section).getByRole('combobox', { name: '警报的动作' }));
    await pageUser.click(await screen.findByRole('option', { name: '买入下一档' }));
    await pageUser.click(within(section).getByRole('button', { name: '开启 Webhook' }));
    await within(section).findByText('https://bot.example.com/hooks/tradingview/h00k');
    expect(app.server.requests.find((r) => r.path === '/api/trade/task/webhook')?.body).toMatchObject({ id: ID, action: 'buy_level' });

    // The secret, and the message that carries it, hidden until shown.
    const secret = section.querySelector<HTMLElement>('[data-copy="secret"]')!;
    const template = section.querySelector<HTMLElement>('[data-copy="template"]')!;
    expect(section).not.toHaveTextContent('first-secret');
    expect(template).toHaveTextContent('"action":"buy_level"');
    await pageUser.click(within(secret).getByRole('button', { name: '显示密钥' }));
    expect(secret).toHaveTextContent('first-secret');
    expect(template).toHaveTextContent('{"secret":"first-secret","id":"{{timenow}}-{{ticker}}"');
    expect(within(template).getByRole('button', { name: '复制警报消息（JSON）' })).toBeInTheDocument();

    // The alert, and what the robot did with it.
    const line = await waitFor(() => section.querySelector<HTMLElement>('[data-alert="a-1"]')!);
    expect(line).toHaveTextContent('买入下一档 · 已交给机器人 · TradingView 警报未执行（买入下一档）：当前没有进行中的一轮');
    expect(line).toHaveTextContent('BTCUSDT 价格 26,500.00');

    // A new secret: confirmed first, then the page shows the new one.
    await pageUser.click(within(section).getByRole('button', { name: '更换密钥' }));
    await pageUser.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(app.server.requests.filter((r) => r.path === '/api/trade/task/webhook')).toHaveLength(2));
    await waitFor(() => expect(section).not.toHaveTextContent('first-secret'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await pageUser.click(within(section).getByRole('button', { name: '关闭' }));
    await pageUser.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确认' }));
    await within(section).findByText('未开启 Webhook：警报无法送达此任务。');
    expect(app.server.requests.find((r) => r.path === '/api/trade/task/webhook/off')?.body).toMatchObject({ id: ID });
  });

  it('the task log says what each alert did, and when a cycle waits for its start conditions', async () => {
    const events = [
      { id: '3', kind: 'alert_acted', data: { alert: 'a-2', action: 'buy_level', side: 'buy', level: 2 }, createdAt: '2026-03-01T09:10:00.000Z' },
      { id: '2', kind: 'alert_acted', data: { alert: 'a-1', action: 'start_cycle', side: 'buy', level: 0 }, createdAt: '2026-03-01T09:05:00.000Z' },
      { id: '1', kind: 'alert_ignored', data: { alert: 'a-0', action: 'start_cycle', reason: 'cycle_open' }, createdAt: '2026-03-01T09:00:00.000Z' },
      { id: '0', kind: 'condition_wait', data: {}, createdAt: '2026-03-01T08:55:00.000Z' },
    ];
    await renderApp(DETAIL_PATH, api({ ...gated, events }));
    await findHeading('任务详情');
    const log = await findElement('[data-section="events"]');
    await waitFor(() => expect(log.querySelectorAll('[data-event^="alert_"]')).toHaveLength(3));
    const texts = [...log.querySelectorAll('[data-event^="alert_"]')].map((item) => item.textContent);
    expect(texts[0]).toContain('TradingView 警报已执行：买入第 2 档');
    expect(texts[1]).toContain('TradingView 警报已执行：开始新一轮');
    expect(texts[2]).toContain('TradingView 警报未执行（开始新一轮）：本轮尚未结束');
    expect(log.querySelector('[data-event="condition_wait"]')).toHaveTextContent('开始条件未满足：新一轮等待条件成立');
  });
});
