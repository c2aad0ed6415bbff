import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeAccount, ExchangeCatalogEntry } from '../../api/exchange';
import type { TradePair } from '../../api/trade';
import { okxAccount, paperAccount } from '../../testing/accounts';
import { fail, ok, type Handler } from '../../testing/fakeServer';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { strategyTemplate } from '../../testing/tasks';
import { wizardDraft } from './wizard/draftStore';

/** The shortest way to a first robot: nothing to choose that has only one sensible answer. */

const template = strategyTemplate;
const aggressive = template('00000000-0000-4000-8000-0000000000c3', 'aggressive');
const balanced = template('00000000-0000-4000-8000-0000000000c2', 'balanced');
const conservative = template('00000000-0000-4000-8000-0000000000c1', 'conservative');
const mine = template('00000000-0000-4000-8000-0000000000c9', '我的网格', { system: false });

const pair = (base: string): TradePair => ({
  id: `${base}/USDT`,
  symbol: `${base}/USDT`,
  base,
  quote: 'USDT',
  price: '100',
  change24h: '1.5',
  quoteVolume24h: '1000000',
  minCost: '5',
  tickSize: '0.01',
  amountStep: '0.0001',
});

const catalog: ExchangeCatalogEntry[] = [
  { id: 'paper', name: 'Paper trading', kind: 'paper', credentials: [], checksPermissions: false, startBalances: { USDT: '10000' }, priceSources: ['binance', 'simulator'] },
];

const api = (accounts: ExchangeAccount[], extra: Record<string, Handler> = {}): Record<string, Handler> => ({
  ...identityRoute,
  'GET /api/exchange/list': () => ok({ list: accounts, total: accounts.length }),
  'GET /api/exchange/catalog': () => ok({ list: catalog, total: catalog.length }),
  // System templates in id order: the recommended one is not the first.
  'GET /api/trade/config-templates': () => ok([aggressive, balanced, conservative]),
  'GET /api/strategy/list': () => ok({ list: [mine], total: 1 }),
  'GET /api/trade/hot-pairs': () => ok([pair('BTC'), pair('ETH'), pair('SOL')]),
  'GET /api/trade/list': () => ok({ list: [], total: 0 }),
  // Free now: the paper account all of its start balance; the OKX account's exchange cannot be asked.
  [`GET /api/exchange/balance/${paperAccount.id}`]: () => ok({ id: paperAccount.id, asset: 'USDT', free: '10000' }),
  [`GET /api/exchange/balance/${okxAccount.id}`]: () => ok({ id: okxAccount.id, asset: 'USDT', free: null }),
  ...extra,
});

const sent = (app: Awaited<ReturnType<typeof renderApp>>, path: string) => app.server.requests.filter((r) => r.path === path).map((r) => r.body);
const combobox = (name: string) => screen.getByRole('combobox', { name });

beforeEach(async () => {
  await startSignedInZhCN();
  wizardDraft.reset();
});
afterEach(() => {
  wizardDraft.reset();
  vi.unstubAllGlobals();
});

describe('the task wizard chooses what has one sensible answer', () => {
  it('the only account, the recommended template, a popular pair in one tap: two taps to a robot', async () => {
    const app = await renderApp('/trade/add', api([paperAccount], { 'POST /api/trade/add': () => ok([{ id: 'd0000000-0000-4000-8000-000000000001' }]) }));
    await findHeading('添加交易对');
    await waitFor(() => expect(combobox('交易所 API')).toHaveTextContent('练手账户'));
    await findHeading('添加交易对');
    await waitFor(() => expect(combobox('策略模板')).toHaveTextContent('稳健型'), { timeout: 3000 });
    const picks = await screen.findByRole('group', { name: '热门：' });
    await userEvent.click(within(picks).getByRole('button', { name: 'BTC/USDT' }));
    // Chosen: it leaves the quick picks.
    expect(within(picks).queryByRole('button', { name: 'BTC/USDT' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '创建任务' }));
    await waitFor(() => expect(app.pathname()).toBe('/trade'));
    expect(sent(app, '/api/trade/add')).toEqual([
      expect.objectContaining({ exchangeId: paperAccount.id, coinIdList: ['BTC/USDT'], strategyId: conservative.id, firstOrderAmount: '10', running: true }),
    ]);
  });

  it('names the recommended template in the choice', async () => {
    await renderApp('/trade/add', api([paperAccount]));
    await findHeading('添加交易对');
    await waitFor(() => expect(combobox('策略模板')).toHaveTextContent('稳健型'), { timeout: 3000 });
    await userEvent.click(combobox('策略模板'));
    expect(await screen.findByRole('option', { name: '稳健型（推荐）' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: '均衡型' })).toBeInTheDocument();
  });

  it('with two accounts chooses none, unless the address names one', async () => {
    await renderApp('/trade/add', api([paperAccount, okxAccount]));
    await findHeading('添加交易对');
    await waitFor(() => expect(combobox('策略模板')).toHaveTextContent('稳健型'), { timeout: 3000 });
    expect(combobox('交易所 API')).not.toHaveTextContent(/练手账户|OKX main/);
    expect(wizardDraft.get().selectedApi).toBeNull();
  });

  it('takes the account and the template the address names (a saved account, a strategy card)', async () => {
    const app = await renderApp(`/trade/add?exchange=${okxAccount.id}&template=${mine.id}`, api([paperAccount, okxAccount]));
    await waitFor(() => expect(combobox('交易所 API')).toHaveTextContent('OKX main'));
    await waitFor(() => expect(combobox('策略模板')).toHaveTextContent('我的网格'));
    expect(wizardDraft.get()).toMatchObject({ selectedApi: okxAccount.id, selectedTemplate: mine.id });
    // Taken once: the address is clean again, later choices are the user's.
    await waitFor(() => expect(app.location().search).toBe(''));
  });
});

describe('the task wizard says what is wrong at the field', () => {
  it('marks every missing field, scrolls to the first and sends nothing', async () => {
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
    const app = await renderApp('/trade/add', api([paperAccount, okxAccount]));
    await findHeading('添加交易对');
    await waitFor(() => expect(combobox('策略模板')).toHaveTextContent('稳健型'), { timeout: 3000 });
    await userEvent.clear(screen.getByRole('textbox', { name: /首单金额/ }));
    await userEvent.click(screen.getByRole('button', { name: '创建任务' }));
    expect(await screen.findByText('请选择交易所账户')).toBeInTheDocument();
    expect(screen.getByText('请至少选择一个交易对')).toBeInTheDocument();
    expect(screen.getByText('请输入大于 0 的首单金额')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /首单金额/ })).toHaveAttribute('aria-invalid', 'true');
    // The first of them, the account, is brought into view.
    await waitFor(() => expect(scrolled.length).toBeGreaterThan(0));
    expect(scrolled[0]!.closest('.MuiFormControl-root')).toHaveTextContent('交易所 API');
    expect(sent(app, '/api/trade/add')).toEqual([]);
  });

  it('warns before submitting when a cycle needs more than the account has free now, with both figures at the field', async () => {
    // Started with 10000 USDT; its running tasks hold most of it: 100.5 is free now.
    const app = await renderApp('/trade/add', api([paperAccount], { [`GET /api/exchange/balance/${paperAccount.id}`]: () => ok({ id: paperAccount.id, asset: 'USDT', free: '100.5' }) }));
    await findHeading('添加交易对');
    await waitFor(() => expect(combobox('策略模板')).toHaveTextContent('稳健型'), { timeout: 3000 });
    await userEvent.click(within(await screen.findByRole('group', { name: '热门：' })).getByRole('button', { name: 'BTC/USDT' }));
    expect(screen.getByText('每个交易对单轮最多占用 40.00 USDT，1 个交易对共 40.00 USDT。')).toBeInTheDocument();
    // 10 + 10 + 20 = 40 per pair: within 100.5.
    expect(document.querySelector('[data-warning="balance"]')).toBeNull();
    const amount = screen.getByRole('textbox', { name: /首单金额/ });
    await userEvent.clear(amount);
    await userEvent.type(amount, '30');
    const warning = await screen.findByText('一轮最多需要 120.12 USDT（含手续费），账户可用 100.50 USDT：请降低首单金额或减少交易对。');
    expect(warning).toHaveAttribute('data-warning', 'balance');
    // Under the first order amount it is about.
    expect(warning.closest('.MuiFormControl-root')!.contains(amount)).toBe(true);
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    // 25.12 x 4 = 100.48 is within 100.5, but not with the buys' 0.1 % fees (100.58...), as the server would refuse it.
    await userEvent.clear(amount);
    await userEvent.type(amount, '25.12');
    expect(await screen.findByText('一轮最多需要 100.59 USDT（含手续费），账户可用 100.50 USDT：请降低首单金额或减少交易对。')).toHaveAttribute('data-warning', 'balance');
    await userEvent.clear(amount);
    await userEvent.type(amount, '25');
    await waitFor(() => expect(document.querySelector('[data-warning="balance"]')).toBeNull());
    expect(app.server.requests.filter((r) => r.path === `/api/exchange/balance/${paperAccount.id}`).length).toBeGreaterThan(0);
  });

  it('warns of nothing when the balance of a real account cannot be known now', async () => {
    wizardDraft.update({ selectedApi: okxAccount.id, selectedApiName: okxAccount.name, selectedPairs: ['BTC/USDT'], firstOrderAmount: '5000' });
    const app = await renderApp('/trade/add', api([paperAccount, okxAccount]));
    await findHeading('添加交易对');
    await waitFor(() => expect(combobox('策略模板')).toHaveTextContent('稳健型'), { timeout: 3000 });
    expect(await screen.findByText('每个交易对单轮最多占用 20,000.00 USDT，1 个交易对共 20,000.00 USDT。')).toBeInTheDocument();
    await waitFor(() => expect(app.server.requests.some((r) => r.path === `/api/exchange/balance/${okxAccount.id}`)).toBe(true));
    expect(document.querySelector('[data-warning="balance"]')).toBeNull();
    expect(screen.getByRole('textbox', { name: /首单金额/ })).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('a template whose exits lose money: the figures at the template, not a generic toast', async () => {
    wizardDraft.update({ selectedApi: paperAccount.id, selectedApiName: paperAccount.name, selectedPairs: ['BTC/USDT'] });
    await renderApp(
      '/trade/add',
      api([paperAccount], {
        'POST /api/trade/add': () => fail(10002, 'the take profit does not cover the fees', { reason: 'take_profit_floor', takeProfit: '0.1', floor: '0.25', feeRate: '0.001' }),
      }),
    );
    await findHeading('添加交易对');
    await waitFor(() => expect(combobox('策略模板')).toHaveTextContent('稳健型'), { timeout: 3000 });
    await userEvent.click(screen.getByRole('button', { name: '创建任务' }));
    const alert = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('[data-refusal="10002"]');
      expect(found).not.toBeNull();
      return found!;
    });
    expect(alert).toHaveTextContent('扣除回调后的止盈 0.1% 不足以覆盖一买一卖两笔手续费，至少需要 0.25%。');
    expect(combobox('策略模板')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('参数超出范围')).toBeNull();
    // Beside the template it is about.
    expect(alert.parentElement!.closest('.MuiPaper-root')!.contains(combobox('策略模板'))).toBe(true);
  });

  it('a refusal about no field: its detailed text in the toast', async () => {
    wizardDraft.update({ selectedApi: paperAccount.id, selectedApiName: paperAccount.name, selectedPairs: ['BTC/USDT'] });
    await renderApp('/trade/add', api([paperAccount], { 'POST /api/trade/add': () => fail(10002, 'every level is filled', { reason: 'all_levels_filled' }) }));
    await findHeading('添加交易对');
    await waitFor(() => expect(combobox('策略模板')).toHaveTextContent('稳健型'), { timeout: 3000 });
    await userEvent.click(screen.getByRole('button', { name: '创建任务' }));
    expect(await screen.findByText('所有补仓档位都已成交。')).toBeInTheDocument();
  });
});

describe('the next step is offered', () => {
  // The wizard's code (with its preset cards) loads on the way: the waits allow a loaded machine its time.
  it('after a new account is saved: create a task on it', { timeout: 40_000 }, async () => {
    const saved = { ...paperAccount, id: '00000000-0000-4000-8000-0000000000aa', name: '模拟账户' };
    let accounts: ExchangeAccount[] = [];
    const app = await renderApp(
      '/exchange/add',
      api([], {
        'GET /api/exchange/list': () => ok({ list: accounts, total: accounts.length }),
        'POST /api/exchange/add': () => {
          accounts = [saved];
          return ok(saved);
        },
      }),
    );
    await findHeading('API 配置');
    await userEvent.click(await screen.findByRole('button', { name: '保存' }));
    const next = await screen.findByText('「模拟账户」已就绪。下一步：用它创建交易任务。', undefined, { timeout: 15_000 });
    await userEvent.click(within(next.closest('[data-next-step]') as HTMLElement).getByRole('link', { name: '创建任务' }));
    await waitFor(() => expect(app.pathname()).toBe('/trade/add'), { timeout: 15_000 });
    await waitFor(() => expect(combobox('交易所 API')).toHaveTextContent('模拟账户'), { timeout: 15_000 });
  });

  it('on a strategy card: a task with this strategy', async () => {
    const app = await renderApp('/strategy', api([paperAccount]));
    await findHeading('策略');
    const card = (await screen.findByText('均衡型')).closest('[data-strategy]') as HTMLElement;
    await userEvent.click(within(card).getByRole('link', { name: '用此策略' }));
    await waitFor(() => expect(app.pathname()).toBe('/trade/add'));
    await waitFor(() => expect(combobox('策略模板')).toHaveTextContent('均衡型'));
    expect(wizardDraft.get().selectedTemplate).toBe(balanced.id);
  });
});
