import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeAccount } from '../../api/exchange';
import type { TradeTask } from '../../api/trade';
import { fail, ok, type Handler, type RecordedRequest } from '../../testing/fakeServer';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { okxAccount, paperAccount } from '../../testing/accounts';
import { wizardDraft } from './wizard/draftStore';

const paper: ExchangeAccount = { ...paperAccount, prices: { source: 'binance', live: true, fallbackSince: null } };
const okx = okxAccount;

const task: TradeTask = {
  id: '00000000-0000-4000-8000-0000000000d2',
  exchangeId: okx.id,
  exchangeName: 'OKX main',
  symbol: 'ETH/USDT',
  strategyId: '00000000-0000-4000-8000-000000000002',
  strategyName: 'balanced',
  strategySystem: true,
  firstOrderAmount: '10',
  firstOrderMultiple: false,
  cycleCount: 5,
  cyclesDone: 0,
  running: false,
  status: 'replenish_open',
  finished: false,
  phase: 'ready',
  quantity: '0',
  cost: '0',
  averagePrice: null,
  lastPrice: '3000',
  floatingProfit: '0',
  realizedProfit: '0',
  levelsFilled: 0,
  levelsTotal: 2,
  tickSize: '0.01',
  amountStep: '0.0001',
  attention: null,
  waiting: null,
  prices: { source: 'okx', live: true },
  createdAt: '2026-03-01T08:00:00.000Z',
};

const lastRequest = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.path === path).at(-1);
const query = (request: RecordedRequest | undefined) => Object.fromEntries(new URL(request?.url ?? '', 'http://localhost').searchParams);

/** The wizard, filled in for the given account, whose creation the server refuses with `refusal`. */
const wizard = async (account: ExchangeAccount, refusal: Handler, extra: Record<string, Handler> = {}) => {
  wizardDraft.update({ selectedApi: account.id, selectedApiName: account.name, selectedPairs: ['BTC/USDT'], selectedTemplate: '00000000-0000-4000-8000-0000000000c1', templateName: 'Balanced' });
  const app = await renderApp('/trade/add', {
    ...identityRoute,
    'GET /api/exchange/list': () => ok({ list: [paper, okx], total: 2 }),
    'POST /api/trade/add': refusal,
    ...extra,
  });
  // The first page of the file loads its code: give it time on a busy machine.
  await userEvent.click(await screen.findByRole('button', { name: '创建任务' }, { timeout: 5000 }));
  return app;
};

/** The creation's refusal: the wizard's one alert outside the preset cards (which say their own failures, here a call this file does not answer). */
const wizardAlerts = () => screen.queryAllByRole('alert').filter((element) => element.closest('[data-presets]') === null);
const refusalAlert = () =>
  waitFor(() => {
    const alerts = wizardAlerts();
    expect(alerts).toHaveLength(1);
    return alerts[0]!;
  });

beforeEach(async () => {
  await startSignedInZhCN();
  wizardDraft.reset();
});
afterEach(() => {
  wizardDraft.reset();
  vi.unstubAllGlobals();
});

describe('refusals with a remedy on the wizard', () => {
  it('11001 on a real exchange account: activate', async () => {
    const app = await wizard(okx, () => fail(11001, 'activate the account before trading on a real exchange', { reason: 'real_exchange' }));
    const alert = await refusalAlert();
    expect(alert).toHaveTextContent('在真实交易所账户上运行任务需要先激活账户；模拟盘和测试网账户无需激活即可交易。');
    await userEvent.click(within(alert).getByRole('link', { name: '去激活' }));
    await waitFor(() => expect(app.pathname()).toBe('/profile/activate'));
  });

  it('11006: bind an exchange account', async () => {
    const app = await wizard(paper, () => fail(11006, 'bind an exchange account first'));
    const alert = await refusalAlert();
    expect(alert).toHaveTextContent('请先绑定交易所 API');
    await userEvent.click(within(alert).getByRole('link', { name: '绑定交易所账户' }));
    await waitFor(() => expect(app.pathname()).toBe('/exchange/add'));
  });

  it('11003 on a paper account: the figures and the paper balance', async () => {
    const app = await wizard(paper, () =>
      fail(11003, 'the free balance does not cover a full cycle', { reason: 'insufficient_funds', symbol: 'BTC/USDT', required: '640.64', available: '100' }),
    );
    const alert = await refusalAlert();
    expect(alert).toHaveTextContent('可用余额不足以完成一整轮：需要 640.64 USDT，可用 100.00 USDT。');
    const link = await within(alert).findByRole('link', { name: '查看模拟盘余额' });
    expect(within(alert).queryByRole('link', { name: '前往钱包' })).toBeNull();
    await userEvent.click(link);
    await waitFor(() => expect(app.pathname()).toBe(`/exchange/edit/${paper.id}`));
  });

  it('11003 on a real account: the figures and the wallet', async () => {
    const app = await wizard(okx, () =>
      fail(11003, 'the free balance does not cover a full cycle', { reason: 'insufficient_funds', symbol: 'BTC/USDT', required: '640.64', available: '100' }),
    );
    const alert = await refusalAlert();
    expect(alert).toHaveTextContent('需要 640.64 USDT，可用 100.00 USDT');
    await userEvent.click(await within(alert).findByRole('link', { name: '前往钱包' }));
    await waitFor(() => expect(app.pathname()).toBe('/profile/wallet'));
  });

  it('14001: the tasks of that coin', async () => {
    const app = await wizard(paper, () => fail(14001, 'at most 3 tasks per coin', { symbol: 'BTC/USDT' }), {
      'GET /api/trade/list': () => ok({ list: [], total: 0 }),
    });
    const alert = await refusalAlert();
    expect(alert).toHaveTextContent('每个币种最多 3 个任务');
    await userEvent.click(within(alert).getByRole('link', { name: '查看 BTC/USDT 的任务' }));
    await waitFor(() => expect(app.pathname()).toBe('/trade'));
    await waitFor(() => expect(query(lastRequest(app.server.requests, '/api/trade/list'))).toMatchObject({ symbol: 'BTC/USDT' }));
  });

  it('10002 below_min_order: fills the smallest first order that passes', async () => {
    const app = await wizard(paper, () =>
      fail(10002, 'order 0 of the ladder is below the exchange minimum', {
        reason: 'below_min_order',
        symbol: 'BTC/USDT',
        side: 'buy',
        level: 0,
        quantity: '0.00004',
        price: '100000',
        value: '4',
        quote: '4',
        amount: '4',
        minAmount: '0.00001',
        minCost: '5.5',
        minFirstOrder: '12.5',
      }),
    );
    const alert = await refusalAlert();
    expect(alert).toHaveTextContent('阶梯中有一笔订单（4.00 USDT）低于交易所最低下单额 5.50 USDT，请把首单提高到至少 12.50 USDT。');
    await userEvent.click(within(alert).getByRole('button', { name: '首单改为 12.50 USDT' }));
    expect(screen.getByRole('textbox', { name: /首单金额/ })).toHaveValue('12.5');
    expect(wizardDraft.get().firstOrderAmount).toBe('12.5');
    expect(wizardAlerts()).toEqual([]);
    expect(app.server.requests.filter((r) => r.path === '/api/trade/add')).toHaveLength(1);
  });

  it('a refusal without a remedy stays a toast', async () => {
    await wizard(paper, () => fail(20000, 'pair BTC/USDT does not exist'));
    expect(await screen.findByText('交易对不存在')).toBeInTheDocument();
    expect(document.querySelector('[data-refusal]')).toBeNull();
  });
});

describe('refusals with a remedy on task actions', () => {
  it('closing a position too small to sell: says so, with no first order to raise', async () => {
    await renderApp('/trade/detail/00000000-0000-4000-8000-0000000000d2', {
      ...identityRoute,
      'GET /api/trade/detail/00000000-0000-4000-8000-0000000000d2': () =>
        ok({
          ...task,
          quantity: '0.001',
          strategy: { levels: [{ dropPercent: '1', multiple: '1' }], takeProfitPercent: '1.5', takeProfitCallbackPercent: '0.3', replenishCallbackPercent: '0.3', stopLossPercent: null, cooldownSeconds: 120 },
          firstFillPrice: '3000',
          takeProfitArmed: false,
          events: [],
        }),
      'GET /api/trade/order-history': () => ok({ list: [], total: 0 }),
      'POST /api/trade/coin-price': () => ok({}),
      'POST /api/trade/close-order/00000000-0000-4000-8000-0000000000d2': () =>
        fail(10002, 'the position is below the exchange minimum and cannot be sold', {
          reason: 'below_min_order',
          side: 'sell',
          symbol: 'ETH/USDT',
          quantity: '0.001',
          sellable: '0.001',
          value: '3',
          minAmount: '0.0001',
          minCost: '5.5',
        }),
    });
    // A task's page is large (its ladder, its chart): its heading first, with the time a loaded machine needs.
    await findHeading('任务详情');
    await userEvent.click((await screen.findAllByRole('button', { name: '平仓' }, { timeout: 5000 }))[0]!);
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '平仓' }));
    expect(await screen.findByText('持仓（0.001）价值 3.00 USDT，低于交易所最低下单额 5.50 USDT，暂时无法卖出。')).toBeInTheDocument();
  });

  it('starting a task on a real account before activation: activate', async () => {
    const app = await renderApp('/trade', {
      ...identityRoute,
      'GET /api/trade/list': () => ok({ list: [task], total: 1 }),
      'GET /api/exchange/list': () => ok({ list: [paper, okx], total: 2 }),
      'POST /api/trade/action': () => fail(11001, 'activate the account before trading on a real exchange', { reason: 'real_exchange' }),
    });
    await userEvent.click(await screen.findByRole('switch', { name: 'ETH/USDT 运行' }));
    const refusal = await screen.findByText('在真实交易所账户上运行任务需要先激活账户；模拟盘和测试网账户无需激活即可交易。');
    const alert = refusal.closest('[data-refusal]') as HTMLElement;
    await userEvent.click(within(alert).getByRole('link', { name: '去激活' }));
    await waitFor(() => expect(app.pathname()).toBe('/profile/activate'));
  });

  it('starting a task on a paper account without the funds: the figures and the paper balance', async () => {
    await renderApp('/trade', {
      ...identityRoute,
      'GET /api/trade/list': () => ok({ list: [{ ...task, exchangeId: paper.id, exchangeName: paper.name }], total: 1 }),
      'GET /api/exchange/list': () => ok({ list: [paper, okx], total: 2 }),
      'POST /api/trade/action': () => fail(11003, 'the free balance does not cover a full cycle', { reason: 'insufficient_funds', symbol: 'ETH/USDT', required: '640.64', available: '100' }),
    });
    await userEvent.click(await screen.findByRole('switch', { name: 'ETH/USDT 运行' }));
    const refusal = await screen.findByText('可用余额不足以完成一整轮：需要 640.64 USDT，可用 100.00 USDT。');
    const alert = refusal.closest('[data-refusal]') as HTMLElement;
    expect(await within(alert).findByRole('link', { name: '查看模拟盘余额' })).toHaveAttribute('href', `/exchange/edit/${paper.id}`);
  });
});
