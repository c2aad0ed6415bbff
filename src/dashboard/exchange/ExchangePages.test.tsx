import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeAccount, ExchangeCatalogEntry } from '../../api/exchange';
import { fail, ok, type Handler } from '../../testing/fakeServer';
import { enterText, findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { createI18nProvider } from '../../i18n/i18nProvider';
import { okxAccount, paperAccount } from '../../testing/accounts';

const catalog: ExchangeCatalogEntry[] = [
  { id: 'paper', name: 'Paper trading', kind: 'paper', credentials: [], checksPermissions: false, startBalances: { USDT: '10000' }, priceSources: ['binance', 'okx', 'simulator'] },
  { id: 'binance', name: 'Binance', kind: 'real', credentials: ['apiKey', 'secret'], checksPermissions: true, startBalances: null, priceSources: null },
  { id: 'okx', name: 'OKX', kind: 'real', credentials: ['apiKey', 'secret', 'password'], checksPermissions: true, startBalances: null, priceSources: null },
  { id: 'gate', name: 'Gate', kind: 'real', credentials: ['apiKey', 'secret'], checksPermissions: false, startBalances: null, priceSources: null },
  { id: 'binance-testnet', name: 'Binance Spot Testnet', kind: 'testnet', credentials: ['apiKey', 'secret'], checksPermissions: false, startBalances: null, priceSources: null },
];


const api = (accounts: ExchangeAccount[], extra: Record<string, Handler> = {}): Record<string, Handler> => ({
  ...identityRoute,
  'GET /api/exchange/catalog': () => ok({ list: catalog, total: catalog.length }),
  'GET /api/exchange/list': () => ok({ list: accounts, total: accounts.length }),
  ...extra,
});

const sent = (app: Awaited<ReturnType<typeof renderApp>>, path: string) => app.server.requests.filter((r) => r.path === path).map((r) => r.body);

const cardOf = (name: string) => document.querySelector<HTMLElement>(`[data-exchange-account="${name}"]`)!;

beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

describe('exchange account list', () => {
  it('shows the bound accounts as cards: exchange, name, masked key or paper badge with its virtual funds', async () => {
    await renderApp('/exchange', api([paperAccount, okxAccount]));
    await findHeading('API 列表');
    await waitFor(() => expect(cardOf('OKX main')).not.toBeNull());
    const okx = within(cardOf('OKX main'));
    // A long name is cut to one line: the whole name stays in its tooltip.
    expect(okx.getByRole('heading', { name: 'OKX main' })).toHaveAttribute('title', 'OKX main');
    expect(okx.getByText('OKX')).toBeInTheDocument();
    expect(okx.getByText('API Key abcd****wxyz')).toBeInTheDocument();
    expect(okx.getByRole('link', { name: '编辑' })).toHaveAttribute('href', `/exchange/edit/${okxAccount.id}`);
    const paper = within(cardOf('练手账户'));
    expect(paper.getByText('模拟交易')).toBeInTheDocument();
    expect(paper.getByText('模拟盘')).toBeInTheDocument();
    expect(paper.getByText('初始虚拟资金：10,000 USDT')).toBeInTheDocument();
    expect(paper.getByText(/^添加于 2026/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '添加账户' })).toHaveAttribute('href', '/exchange/add');
  });

  it('with no account yet, recommends a paper account to try everything without real money', async () => {
    await renderApp('/exchange', api([]));
    expect(await screen.findByText('还没有交易所账户')).toBeInTheDocument();
    expect(screen.getByText(/不会动用真实资金/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '添加模拟账户' })).toHaveAttribute('href', '/exchange/add?exchange=paper');
  });

  it('asks for confirmation before deleting, then deletes', async () => {
    const app = await renderApp('/exchange', api([paperAccount, okxAccount], { 'POST /api/exchange/delete': () => ok(null) }));
    await waitFor(() => expect(cardOf('OKX main')).not.toBeNull());
    await userEvent.click(within(cardOf('OKX main')).getByRole('button', { name: '删除' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('确定删除账户「OKX main」吗？已保存的 API Key 会一并删除。');
    expect(sent(app, '/api/exchange/delete')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(sent(app, '/api/exchange/delete')).toEqual([{ id: okxAccount.id }]));
    expect(await screen.findByText('账户已删除')).toBeInTheDocument();
  });

  it('explains why an account used by a task cannot be deleted', async () => {
    await renderApp(
      '/exchange',
      api([okxAccount], { 'POST /api/exchange/delete': () => fail(10008, 'the exchange account is used by trading tasks', { field: 'id', reason: 'in_use' }) }),
    );
    await waitFor(() => expect(cardOf('OKX main')).not.toBeNull());
    await userEvent.click(within(cardOf('OKX main')).getByRole('button', { name: '删除' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确认' }));
    expect(await screen.findByText('该账户正被交易任务使用，请先删除这些任务。')).toBeInTheDocument();
    expect(cardOf('OKX main')).not.toBeNull();
  });
});

describe('paper account prices', () => {
  const live: ExchangeAccount = { ...paperAccount, prices: { source: 'binance', live: true, fallbackSince: null } };
  const fallback: ExchangeAccount = {
    ...paperAccount,
    id: '00000000-0000-4000-8000-00000000000c',
    name: '备用账户',
    prices: { source: 'okx', live: false, fallbackSince: '2026-03-01T08:00:00.000Z' },
  };

  it('says which prices each paper account uses, and when the exchange cannot be reached', async () => {
    await renderApp('/exchange', api([live, fallback, okxAccount]));
    await waitFor(() => expect(cardOf('备用账户')).not.toBeNull());
    expect(within(cardOf('练手账户')).getByText('行情：Binance 实时行情')).toBeInTheDocument();
    const down = cardOf('备用账户').querySelector('[data-prices]');
    expect(down).toHaveAttribute('data-prices', 'fallback');
    expect(down?.textContent).toMatch(/^无法连接 OKX：自 2026.*起按模拟行情交易。$/);
    expect(within(cardOf('备用账户')).queryByText(/实时行情/)).toBeNull();
    expect(cardOf('OKX main').querySelector('[data-prices]')).toBeNull();
  });

  it('says so on the account page of a paper account on the simulator', async () => {
    await renderApp(`/exchange/edit/${paperAccount.id}`, api([paperAccount], { [`GET /api/exchange/detail/${paperAccount.id}`]: () => ok(paperAccount) }));
    expect(await screen.findByText('行情：内置模拟行情')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: /行情来源/ })).toBeNull();
  });
});

describe('exchange account config', () => {
  it('adds a paper account (recommended and chosen by default) and returns to the list', async () => {
    const app = await renderApp('/exchange/add', api([], { 'POST /api/exchange/add': (req) => ok({ ...paperAccount, name: req.body?.name }) }));
    await findHeading('API 配置');
    const paper = await screen.findByRole('radio', { name: '模拟交易' });
    expect(paper).toBeChecked();
    expect(screen.getByText('推荐')).toBeInTheDocument();
    expect(screen.queryByLabelText(/^API Key/)).toBeNull();
    const name = screen.getByRole('textbox', { name: /账户名称/ });
    expect(name).toHaveValue('模拟账户');
    await userEvent.clear(name);
    await userEvent.type(name, '试一试');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(app.pathname()).toBe('/exchange'));
    expect(sent(app, '/api/exchange/add')).toEqual([{ exchange: 'paper', name: '试一试', priceSource: 'binance' }]);
  });

  it.each([
    ['en-US', 'Bind an exchange API', 'Paper account'],
    ['zh-TW', 'API 設定', '模擬帳戶'],
  ])('names a new paper account in the language of the page (%s), on a first load of the add page', async (locale, title, name) => {
    await (await createI18nProvider()).changeLocale(locale);
    await renderApp('/exchange/add?exchange=paper', api([]));
    await findHeading(title);
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^(Account name|帳戶名稱)/ })).toHaveValue(name));
  });

  it("lets a paper account trade on an exchange's live prices (Binance by default) or on the simulator", async () => {
    const app = await renderApp('/exchange/add', api([], { 'POST /api/exchange/add': (req) => ok({ ...paperAccount, name: req.body?.name }) }));
    await screen.findByRole('radio', { name: '模拟交易' });
    const source = screen.getByRole('combobox', { name: /行情来源/ });
    expect(source).toHaveTextContent('Binance 实时行情');
    await userEvent.click(source);
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Binance 实时行情', 'OKX 实时行情', '内置模拟行情']);
    await userEvent.click(options[2]!);
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(sent(app, '/api/exchange/add')).toEqual([{ exchange: 'paper', name: '模拟账户', priceSource: 'simulator' }]));
  });

  it('asks a real exchange for no price source', async () => {
    await renderApp('/exchange/add', api([]));
    await userEvent.click(await screen.findByRole('radio', { name: 'OKX' }));
    expect(screen.queryByRole('combobox', { name: /行情来源/ })).toBeNull();
  });

  it('asks OKX for its API key, secret and passphrase, secrets hidden, and sends them', async () => {
    const app = await renderApp('/exchange/add', api([okxAccount], { 'POST /api/exchange/add': () => ok({ ...okxAccount, id: 'new' }) }));
    await userEvent.click(await screen.findByRole('radio', { name: 'OKX' }));
    const apiKey = screen.getByLabelText(/^API Key/);
    const secret = screen.getByLabelText(/^Secret Key/);
    const passphrase = screen.getByLabelText(/^Passphrase/);
    expect(apiKey).toHaveAttribute('type', 'text');
    expect(secret).toHaveAttribute('type', 'password');
    expect(passphrase).toHaveAttribute('type', 'password');
    expect(screen.queryByLabelText(/^UID/)).toBeNull();
    expect(screen.getByText('Key 不能开启提现权限：可以提现的 Key 会被拒绝。')).toBeInTheDocument();
    expect(screen.getByText('密钥加密保存，保存后不会再显示。')).toBeInTheDocument();
    await userEvent.type(apiKey, 'key-123');
    await userEvent.type(secret, 'secret-456');
    await userEvent.type(passphrase, 'pass-789');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(app.pathname()).toBe('/exchange'));
    // 'OKX main' exists, so the suggested name 'OKX' is free.
    expect(sent(app, '/api/exchange/add')).toEqual([{ exchange: 'okx', name: 'OKX', apiKey: 'key-123', secret: 'secret-456', password: 'pass-789' }]);
  });

  it('offers a testnet as its own account type, labelled 测试网, and shows the badge on its card', async () => {
    const testnet: ExchangeAccount = { ...okxAccount, id: 'tn', exchange: 'binance-testnet', name: 'Testnet bot', apiKeyHint: 'vmPU****EH8A' };
    const app = await renderApp('/exchange/add', api([testnet], { 'POST /api/exchange/add': () => ok({ ...testnet, id: 'new' }) }));
    const option = (await screen.findByRole('radio', { name: 'Binance Spot Testnet' })).closest<HTMLElement>('[data-exchange-option]')!;
    expect(within(option).getByText('测试网')).toBeInTheDocument();
    expect(within(option).getByText('交易所测试网的测试资金，无需激活')).toBeInTheDocument();
    await userEvent.click(within(option).getByRole('radio'));
    await enterText(screen.getByLabelText(/^API Key/), 'key-123');
    await enterText(screen.getByLabelText(/^Secret Key/), 'secret-456');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(app.pathname()).toBe('/exchange'));
    expect(sent(app, '/api/exchange/add')).toEqual([{ exchange: 'binance-testnet', name: 'Binance Spot Testnet', apiKey: 'key-123', secret: 'secret-456' }]);
    await waitFor(() => expect(cardOf('Testnet bot')).not.toBeNull());
    expect(within(cardOf('Testnet bot')).getByText('测试网').closest('[data-testnet]')).not.toBeNull();
  });

  it('asks for every credential before calling the exchange', async () => {
    const app = await renderApp('/exchange/add?exchange=binance', api([]));
    expect(await screen.findByRole('radio', { name: 'Binance' })).toBeChecked();
    await userEvent.type(screen.getByLabelText(/^API Key/), 'key-123');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('必填')).toBeInTheDocument();
    expect(sent(app, '/api/exchange/add')).toHaveLength(0);
  });

  it('shows a refused key as a toast and explains the reason: a key that can withdraw', async () => {
    const app = await renderApp(
      '/exchange/add?exchange=okx',
      api([], {
        'POST /api/exchange/add': () =>
          fail(30102, 'the API key may withdraw funds', { exchange: 'okx', reason: 'can_withdraw' }),
      }),
    );
    await screen.findByRole('radio', { name: 'OKX' });
    await userEvent.type(screen.getByLabelText(/^API Key/), 'key-123');
    await userEvent.type(screen.getByLabelText(/^Secret Key/), 'secret-456');
    await userEvent.type(screen.getByLabelText(/^Passphrase/), 'pass-789');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    const explanation = await screen.findByText('该 Key 可以提现：请新建一个不含提现权限的 Key。');
    expect(explanation.closest('[role="alert"]')).toHaveTextContent('交易所 API 权限不足');
    // The toast says it too.
    await waitFor(() => expect(screen.getAllByText('交易所 API 权限不足').length).toBeGreaterThanOrEqual(2));
    expect(app.pathname()).toBe('/exchange/add');
  });

  it('puts a duplicate name on the name field', async () => {
    await renderApp('/exchange/add', api([], { 'POST /api/exchange/add': () => fail(10007, 'exists', { field: 'name' }) }));
    await screen.findByRole('radio', { name: '模拟交易' });
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('已有同名账户，请换一个名称。')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /账户名称/ })).toHaveAttribute('aria-invalid', 'true');
  });

  it('edits with the exchange fixed, sends only id, name and the credentials filled in', async () => {
    const app = await renderApp(
      `/exchange/edit/${okxAccount.id}`,
      api([okxAccount], {
        [`GET /api/exchange/detail/${okxAccount.id}`]: () => ok(okxAccount),
        'POST /api/exchange/edit': (req) => ok({ ...okxAccount, name: req.body?.name }),
      }),
    );
    await findHeading('编辑 API 配置');
    const name = await screen.findByDisplayValue('OKX main');
    expect(screen.getByText('交易所：OKX')).toBeInTheDocument();
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.getAllByText(/留空则保留已保存的值。/)).toHaveLength(3);
    await userEvent.clear(name);
    await userEvent.type(name, 'OKX 主账户');
    await userEvent.type(screen.getByLabelText(/^Secret Key/), 'new-secret');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(app.pathname()).toBe('/exchange'));
    expect(sent(app, '/api/exchange/edit')).toEqual([{ id: okxAccount.id, name: 'OKX 主账户', secret: 'new-secret' }]);
  });

  it('says 测试网 on the page of a testnet account', async () => {
    const testnet: ExchangeAccount = { ...okxAccount, exchange: 'binance-testnet', name: 'Testnet bot' };
    await renderApp(`/exchange/edit/${testnet.id}`, api([testnet], { [`GET /api/exchange/detail/${testnet.id}`]: () => ok(testnet) }));
    await screen.findByDisplayValue('Testnet bot');
    expect(screen.getByText('交易所：Binance Spot Testnet')).toBeInTheDocument();
    expect(screen.getByText('测试网').closest('[data-testnet]')).not.toBeNull();
  });
});
