import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BacktestFigures, PresetFiguresAnswer } from '../../api/backtest';
import type { StrategyTemplate } from '../../api/strategy';
import { okxAccount, paperAccount } from '../../testing/accounts';
import { fail, ok, type Handler } from '../../testing/fakeServer';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { strategyTemplate } from '../../testing/tasks';
import { wizardDraft } from './wizard/draftStore';

/** The system templates as cards with their backtested figures, in the trade wizard (issue 28). */

const conservative = strategyTemplate('00000000-0000-4000-8000-0000000000c1', 'conservative', { takeProfitPercent: '1.2', levels: [{ dropPercent: '1', multiple: '1' }] });
const balanced = strategyTemplate('00000000-0000-4000-8000-0000000000c2', 'balanced');
const aggressive = strategyTemplate('00000000-0000-4000-8000-0000000000c3', 'aggressive', { takeProfitPercent: '2.5' });
const SYSTEM = [conservative, balanced, aggressive];
const settingsOf = ({ levels, takeProfitPercent, takeProfitCallbackPercent, replenishCallbackPercent, stopLossPercent, cooldownSeconds }: StrategyTemplate) => ({
  levels,
  takeProfitPercent,
  takeProfitCallbackPercent,
  replenishCallbackPercent,
  stopLossPercent,
  cooldownSeconds,
});

const figures = (returnPercent: string, annualized: string, drawdown: string, cycles: number): BacktestFigures => ({
  cycles,
  realizedProfit: '1.5',
  fees: '0.2',
  buys: cycles + 3,
  sells: cycles,
  maxFundsInUse: '95',
  maxDrawdown: '4',
  maxDrawdownPercent: drawdown,
  timeInPositionPercent: '80',
  openPosition: null,
  returnPercent,
  realizedReturnPercent: returnPercent,
  annualizedReturnPercent: annualized,
  holdReturnPercent: '21.5',
  holdProfit: '20.4',
  stopped: null,
});
const DAY = 86_400_000;
const answerFor = (days: number): PresetFiguresAnswer => ({
  symbol: 'BTC/USDT',
  source: 'sample',
  exchange: null,
  interval: 60_000,
  from: Date.UTC(2023, 2, 22) - Math.min(days, 21) * DAY,
  to: Date.UTC(2023, 2, 22),
  candles: Math.min(days, 21) * 1440,
  firstOrderAmount: '10',
  // Binance's BTC/USDT minimums on the paper exchange: 0.00001 BTC and 5 USDT.
  market: { feeRate: '0.001', feeAsset: 'received', amountStep: '0.00001', minAmount: '0.00001', minCost: '5' },
  lastPrice: '27000',
  computedAt: '2026-11-27T06:00:00.000Z',
  presets: [
    { strategyId: conservative.id, name: 'conservative', settings: settingsOf(conservative), figures: figures('3.21', '55.8', '6.4', 12) },
    { strategyId: balanced.id, name: 'balanced', settings: settingsOf(balanced), figures: figures(days === 7 ? '1.05' : '4.5', '78.2', '9.1', 9) },
    { strategyId: aggressive.id, name: 'aggressive', settings: settingsOf(aggressive), figures: figures('-2.4', '-41.7', '18.3', 4) },
  ],
});

let mine: StrategyTemplate[] = [];
const api = (extra: Record<string, Handler> = {}): Record<string, Handler> => ({
  ...identityRoute,
  'GET /api/exchange/list': () => ok({ list: [paperAccount], total: 1 }),
  'GET /api/trade/config-templates': () => ok(SYSTEM),
  'GET /api/strategy/list': () => ok({ list: mine, total: mine.length }),
  'GET /api/trade/hot-pairs': () => ok([]),
  [`GET /api/exchange/balance/${paperAccount.id}`]: () => ok({ id: paperAccount.id, asset: 'USDT', free: '10000' }),
  'GET /api/strategy/backtest/presets': (request) => ok(answerFor(Number(new URL(request.url, 'http://localhost').searchParams.get('days')))),
  'POST /api/strategy/add': (request) => {
    const created = { ...(request.body as unknown as StrategyTemplate), id: `b0000000-0000-4000-8000-00000000004${mine.length}`, system: false };
    mine = [created, ...mine];
    return ok(created);
  },
  ...extra,
});
const presetQueries = (app: Awaited<ReturnType<typeof renderApp>>) =>
  app.server.requests.filter((r) => r.path === '/api/strategy/backtest/presets').map((r) => Object.fromEntries(new URL(r.url, 'http://localhost').searchParams));
const card = (name: string) => document.querySelector<HTMLElement>(`[data-preset="${name}"]`)!;
const LONG = { timeout: 20_000 };

beforeEach(async () => {
  await startSignedInZhCN();
  wizardDraft.reset();
  mine = [];
});
afterEach(() => wizardDraft.reset());

describe('preset cards in the trade wizard', () => {
  it('shows every system template with its figures and says which period and prices they come from', { timeout: 60_000 }, async () => {
    const app = await renderApp('/trade/add', api());
    await findHeading('添加交易对');
    expect(await screen.findByText('基于 2023-03-01 至 2023-03-21 的内置分钟行情（BTC/USDT），首单 10 USDT。', undefined, LONG)).toBeInTheDocument();
    expect(presetQueries(app)).toEqual([{ symbol: 'BTC/USDT', source: 'sample', days: '21' }]);

    const steady = within(card('conservative'));
    expect(steady.getByText('稳健型（推荐）')).toBeInTheDocument();
    const figure = (of: ReturnType<typeof within>, label: string) => of.getByText(label).nextElementSibling!.textContent;
    expect(figure(steady, '收益率')).toBe('+3.21%');
    expect(figure(steady, '年化收益')).toBe('+55.8%');
    expect(figure(steady, '最大回撤')).toBe('6.4%');
    expect(figure(steady, '完成轮数')).toBe('12');
    expect(figure(steady, '持有不动')).toBe('+21.5%');
    expect(figure(within(card('aggressive')), '收益率')).toBe('-2.4%');
    expect(figure(within(card('balanced')), '收益率')).toBe('+4.5%');
    // The recommended template the wizard chose at once is marked on its card.
    await waitFor(() => expect(card('conservative').dataset.chosen).toBe('true'));
    expect(card('balanced').dataset.chosen).toBeUndefined();

    // Another period: asked again, figures and basis follow.
    await userEvent.click(screen.getByText('7 天'));
    expect(await screen.findByText('基于 2023-03-15 至 2023-03-21 的内置分钟行情（BTC/USDT），首单 10 USDT。', undefined, LONG)).toBeInTheDocument();
    expect(figure(within(card('balanced')), '收益率')).toBe('+1.05%');
    expect(presetQueries(app).at(-1)).toEqual({ symbol: 'BTC/USDT', source: 'sample', days: '7' });
  });

  it('"应用" saves the preset as the user’s own template and chooses it; applying it again reuses the copy', { timeout: 60_000 }, async () => {
    const app = await renderApp('/trade/add', api());
    await findHeading('添加交易对');
    await userEvent.click(await screen.findByLabelText('应用 均衡型', undefined, LONG));
    expect(await screen.findByText('已另存为你自己的策略“我的均衡型”，并选用到这个任务。', undefined, LONG)).toBeInTheDocument();
    const added = app.server.requests.filter((r) => r.path === '/api/strategy/add').map((r) => r.body);
    expect(added).toEqual([{ name: '我的均衡型', ...settingsOf(balanced) }]);
    await waitFor(() => expect(wizardDraft.get().selectedTemplate).toBe('b0000000-0000-4000-8000-000000000040'));
    await waitFor(() => expect(card('balanced').dataset.chosen).toBe('true'));
    expect(card('conservative').dataset.chosen).toBeUndefined();

    // Another preset, then the first again: its copy is chosen, not made twice.
    await userEvent.click(screen.getByLabelText('应用 激进型'));
    await waitFor(() => expect(wizardDraft.get().selectedTemplate).toBe('b0000000-0000-4000-8000-000000000041'));
    await userEvent.click(screen.getByLabelText('应用 均衡型'));
    await waitFor(() => expect(wizardDraft.get().selectedTemplate).toBe('b0000000-0000-4000-8000-000000000040'));
    expect(app.server.requests.filter((r) => r.path === '/api/strategy/add').map((r) => (r.body as { name: string }).name)).toEqual(['我的均衡型', '我的激进型']);
    // A system template is never changed.
    expect(app.server.requests.some((r) => r.path === '/api/strategy/edit')).toBe(false);
  });

  it('warns on a preset the exchange would refuse at the sum to invest, and keeps its "应用" off', { timeout: 60_000 }, async () => {
    // 20 USDT over the ladder of 1 + 1 + 2 first orders: a first order of 4.99 USDT, under the 5 USDT minimum.
    wizardDraft.update({ sizing: 'invest', investAmount: '20' });
    const app = await renderApp('/trade/add', api());
    await findHeading('添加交易对');
    await waitFor(() => expect(card('balanced').dataset.belowMin).toBe('true'), LONG);
    const warning = card('balanced').querySelector('[data-warning="below-min"]')!;
    expect(warning.textContent).toMatch(/^按当前金额，首单为 4\.99 USDT：此模板有订单低于交易所最低下单额（5\.00 USDT），会被交易所拒绝。 投入至少 \d+\.00 USDT（首单 \d+\.\d\d USDT）才能使用。$/);
    expect(within(card('balanced')).getByLabelText('应用 均衡型')).toBeDisabled();
    expect(card('aggressive').dataset.belowMin).toBe('true');
    // One level only: 20 USDT make a first order of 9.99 USDT, which passes.
    expect(card('conservative').dataset.belowMin).toBeUndefined();
    expect(card('conservative').querySelector('[data-warning]')).toBeNull();
    expect(within(card('conservative')).getByLabelText('应用 稳健型')).toBeEnabled();

    // Sized by a first order the exchange takes, every preset may be applied.
    wizardDraft.update({ sizing: 'firstOrder', firstOrderAmount: '10' });
    await waitFor(() => expect(document.querySelector('[data-below-min]')).toBeNull());
    await userEvent.click(screen.getByLabelText('应用 均衡型'));
    await waitFor(() => expect(app.server.requests.filter((r) => r.path === '/api/strategy/add')).toHaveLength(1));
  });

  it("asks a real exchange's history for the chosen pair, and shows a refusal in the user's language", { timeout: 60_000 }, async () => {
    const app = await renderApp(
      '/trade/add',
      api({
        'GET /api/exchange/list': () => ok({ list: [okxAccount], total: 1 }),
        [`GET /api/exchange/balance/${okxAccount.id}`]: () => ok({ id: okxAccount.id, asset: 'USDT', free: null }),
        'GET /api/strategy/backtest/presets': () => fail(20001, 'no history', { reason: 'history_not_available' }),
      }),
    );
    await findHeading('添加交易对');
    expect(await screen.findByText('先选择交易对，即可看到各模板在它上面的回测数据。', undefined, LONG)).toBeInTheDocument();
    wizardDraft.update({ selectedPairs: ['ETH/USDT'] });
    await waitFor(() => expect(presetQueries(app)).toEqual([{ symbol: 'ETH/USDT', source: 'exchange', exchange: 'okx', days: '30' }]), LONG);
    const alert = await screen.findByText((_, element) => element?.classList.contains('MuiAlert-message') === true && element.closest('[data-presets]') !== null, undefined, LONG);
    // The catalogue's text for the code, not the server's English message.
    expect(alert.textContent).toBe('不支持');
    expect(document.querySelector('[data-preset]')).toBeNull();
  });
});
