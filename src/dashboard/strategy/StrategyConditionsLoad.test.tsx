import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../testing/fakeServer';
import { enterText, findElement, identityRoute, pageUser, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { strategyTemplate } from '../../testing/tasks';

const me = identityRoute;

beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());


/** A template's conditions in the editor (issue 29): loaded, checked, removed; StrategyConditions.test.tsx adds them. */
describe('strategy editor: a template with conditions', () => {
  it("a template's conditions load into the editor, a value out of range is named; removing the last one sends the template without them", { timeout: 60_000 }, async () => {
    const gated = strategyTemplate('b0000000-0000-4000-8000-000000000030', 'RSI 起步', {
      system: false,
      conditions: { start: { mode: 'all', conditions: [{ kind: 'rsi', period: 14, timeframe: '1h', op: 'below', value: '30' }, { kind: 'price_range', min: '20000', max: null }] } },
    });
    const app = await renderApp(`/strategy/edit/${gated.id}`, {
      ...me,
      [`GET /api/strategy/detail/${gated.id}`]: () => ok(gated),
      'POST /api/strategy/edit': (req) => ok({ ...gated, ...req.body }),
      'GET /api/strategy/list': () => ok({ list: [], total: 0 }),
      'GET /api/trade/config-templates': () => ok([]),
    });
    const start = await findElement('[data-gate="start"]');
    await waitFor(() => expect(start.querySelector('[data-example="condition-start"]')).toHaveTextContent('等到 RSI(14,1h) < 30 且 价格不低于 20,000.00 时才买入首单。'));
    // Out of range: the template's problem names the gate and the condition, and the template cannot be saved.
    await enterText(within(start).getByRole('textbox', { name: 'RSI 值' }), '100');
    expect(await screen.findByRole('alert')).toHaveTextContent('开始周期第 1 个条件：RSI 值必须大于 0 且小于 100');
    expect(screen.getByRole('button', { name: '保存' })).toBeDisabled();
    await pageUser.click(within(start).getByRole('button', { name: '删除开始周期的第 2 个条件' }));
    await pageUser.click(within(start).getByRole('button', { name: '删除开始周期的第 1 个条件' }));
    await pageUser.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(app.server.requests.some((r) => r.path === '/api/strategy/edit')).toBe(true));
    const sent = app.server.requests.find((r) => r.path === '/api/strategy/edit');
    expect(sent?.body).not.toHaveProperty('conditions');
  });
});
