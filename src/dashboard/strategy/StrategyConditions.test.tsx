import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../testing/fakeServer';
import { enterText, findElement, identityRoute, pageUser, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { strategyTemplate } from '../../testing/tasks';

const me = identityRoute;
const balanced = strategyTemplate('00000000-0000-4000-8000-000000000002', 'balanced');

beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());


const choose = async (within_: HTMLElement, label: string, option: string) => {
  await pageUser.click(within(within_).getByRole('combobox', { name: label }));
  await pageUser.click(await screen.findByRole('option', { name: option }));
};

/** The template editor's conditions (issue 29): its own file, like the exits' (StrategyExits.test.tsx). */
describe('strategy editor: conditions', () => {
  it('an RSI start and a close on the upper band, any of two: worked out in words and saved as the API takes them', { timeout: 60_000 }, async () => {
    const app = await renderApp(`/strategy/add?copy=${balanced.id}`, {
      ...me,
      [`GET /api/strategy/detail/${balanced.id}`]: () => ok(balanced),
      'POST /api/strategy/add': (req) => ok({ ...balanced, ...req.body, id: 'b0000000-0000-4000-8000-000000000029', system: false }),
      'GET /api/strategy/list': () => ok({ list: [], total: 0 }),
      'GET /api/trade/config-templates': () => ok([balanced]),
    });
    const section = await findElement('[data-section="conditions"]');
    await pageUser.click(within(section).getByLabelText('满足条件才开始新周期'));
    const start = section.querySelector<HTMLElement>('[data-gate="start"]')!;
    await pageUser.click(within(start).getByRole('button', { name: '添加条件' }));
    // A new condition is RSI(14) below 30 on 1 h: said as the waiting line says it.
    const example = () => start.querySelector('[data-example="condition-start"]');
    await waitFor(() => expect(example()).toHaveTextContent('开始周期：上一轮结束（及间隔）后，等到 RSI(14,1h) < 30 时才买入首单。'));

    // Not a number yet: nothing worked out and nothing to save; a number again: back.
    const value = within(start).getByRole('textbox', { name: 'RSI 值' });
    await enterText(value, '');
    await waitFor(() => expect(example()).toBeNull());
    expect(screen.getByRole('button', { name: '保存' })).toBeDisabled();
    await enterText(value, '25');
    await waitFor(() => expect(example()).toHaveTextContent('等到 RSI(14,1h) < 25 时'));

    // A second condition, any of the two: a price crossing above EMA(50).
    await pageUser.click(within(start).getByRole('button', { name: '添加条件' }));
    await choose(start.querySelector<HTMLElement>('[data-condition="start-2"]')!, '条件', '价格穿越均线');
    await pageUser.click(within(start).getByRole('button', { name: '任一满足' }));
    await waitFor(() => expect(example()).toHaveTextContent('等到 RSI(14,1h) < 25 或 价格上穿 EMA(50,1h) 时才买入首单。'));

    // The close gate: the upper Bollinger band.
    await pageUser.click(within(section).getByLabelText('满足条件时平仓'));
    const close = section.querySelector<HTMLElement>('[data-gate="close"]')!;
    await pageUser.click(within(close).getByRole('button', { name: '添加条件' }));
    await choose(close, '条件', '触及布林带');
    await choose(close, '轨道', '上轨');
    await waitFor(() => expect(close.querySelector('[data-example="condition-close"]')).toHaveTextContent('平仓：持仓期间一旦 价格触及 BB(20,2,1h) 上轨，且卖出能覆盖成本和手续费'));

    // The replenish gate switched on with no condition adds nothing.
    await pageUser.click(within(section).getByLabelText('满足条件才补仓'));
    await pageUser.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(app.pathname()).toBe('/strategy'));
    const sent = app.server.requests.find((r) => r.path === '/api/strategy/add');
    expect(sent?.body?.conditions).toEqual({
      start: {
        mode: 'any',
        conditions: [
          { kind: 'rsi', period: 14, timeframe: '1h', op: 'below', value: '25' },
          { kind: 'ma_cross', average: 'ema', period: 50, timeframe: '1h', side: 'above' },
        ],
      },
      close: { mode: 'all', conditions: [{ kind: 'bollinger', period: 20, deviations: '2', timeframe: '1h', band: 'upper' }] },
    });
  });
});
