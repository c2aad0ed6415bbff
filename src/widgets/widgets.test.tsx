import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TradeTask } from '../api/trade';
import { createFakeServer, fail, ok, unauthorized, type Handler } from '../testing/fakeServer';
import { cycleText } from '../dashboard/trade/taskText';
import { messages as tradeMessages } from '../dashboard/trade/messages';
import { ProfitCard, TaskList, WIDGET_NAMES } from './index';

const summary = { date: '2025-01-02', realizedTotal: '1234.5', realizedToday: '-3.25', cyclesToday: 2 };

const task = (id: string, symbol: string, extra: Partial<TradeTask> = {}): TradeTask => ({
  id,
  exchangeId: 'e1',
  exchangeName: 'Paper',
  symbol,
  strategyId: 's1',
  strategyName: 'DCA',
  strategySystem: true,
  firstOrderAmount: '10',
  firstOrderMultiple: false,
  cycleCount: 9999,
  cyclesDone: 3,
  running: true,
  status: 'replenish_open',
  finished: false,
  phase: 'open',
  quantity: '0.1',
  cost: '10',
  averagePrice: '100',
  lastPrice: '101',
  floatingProfit: '0.1',
  realizedProfit: '5.678',
  levelsFilled: 1,
  levelsTotal: 5,
  tickSize: null,
  amountStep: null,
  attention: null,
  waiting: null,
  prices: { source: 'simulator', live: false },
  createdAt: '2025-01-01T00:00:00Z',
  ...extra,
});

const balances = {
  balances: [
    { asset: 'USDT', available: '1234.5', held: '11' },
    { asset: 'CARD', available: '3', held: '0' },
    { asset: 'POINTS', available: '0.125', held: '0' },
    // FUEL left out: the widget shows it as nothing.
  ],
};

const serve = (routes: Record<string, Handler>) => {
  const server = createFakeServer(routes);
  vi.stubGlobal('fetch', server.fetch);
  return server;
};

const mount = (name: string, attributes: Record<string, string> = {}) => {
  const element = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  document.body.append(element);
  return { element, shadow: within(element.shadowRoot as unknown as HTMLElement) };
};

beforeEach(() => {
  document.documentElement.lang = '';
});
afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

describe('custom elements', () => {
  it('are defined once, with an open shadow root, and a second definition is a no-op', async () => {
    const constructors = WIDGET_NAMES.map((name) => customElements.get(name));
    expect(constructors.every(Boolean)).toBe(true);
    vi.resetModules();
    await import('./index');
    expect(WIDGET_NAMES.map((name) => customElements.get(name))).toEqual(constructors);
    serve({});
    const { element } = mount('qt-profit-card');
    expect(element.shadowRoot?.mode).toBe('open');
  });

  it('keeps its styles in the shadow root (nothing added to the page)', async () => {
    serve({ 'GET /api/trade/profit-summary': () => ok(summary) });
    const before = document.head.querySelectorAll('style').length;
    const { element, shadow } = mount('qt-profit-card', { token: 'partner-token' });
    await shadow.findByText('+1,234.50');
    expect(element.shadowRoot?.querySelector('style')?.textContent).toContain(':host');
    expect(document.head.querySelectorAll('style').length).toBe(before);
  });

  it('shows loading, then the data, with the token attribute and the locale sent', async () => {
    const server = serve({ 'GET /api/trade/profit-summary': () => ({ ...ok(summary), delayMs: 50 }) });
    const { shadow } = mount('qt-profit-card', { token: 'partner-token', locale: 'en-US' });
    expect(await shadow.findByRole('status')).toHaveTextContent('Loading…');
    expect(await shadow.findByText('+1,234.50')).toHaveClass('up');
    expect(shadow.getByText('-3.25')).toHaveClass('down');
    expect(shadow.getByText('2 cycles closed today')).toBeInTheDocument();
    expect(server.requests[0]?.headers).toMatchObject({ Authorization: 'Bearer partner-token', 'Accept-Language': 'en-US' });
  });

  it("reads the dashboard's own session without a token, and defaults to the page's <html lang>", async () => {
    localStorage.setItem('accessToken', 'dashboard-token');
    document.documentElement.lang = 'zh-TW';
    const server = serve({ 'GET /api/trade/profit-summary': () => ok(summary) });
    const { shadow } = mount('qt-profit-card');
    expect(await shadow.findByRole('heading')).toHaveTextContent('已實現收益');
    await shadow.findByText('+1,234.50');
    expect(server.requests[0]?.headers.Authorization).toBe('Bearer dashboard-token');
  });

  it('defaults to zh-CN and shows a login link when there is no session at all', async () => {
    const server = serve({});
    const { shadow } = mount('qt-task-list', { 'dashboard-url': 'https://app.example/' });
    const link = await shadow.findByRole('link', { name: '登录' });
    expect(link).toHaveAttribute('href', 'https://app.example/#/auth/login');
    expect(server.calls()).toBe(0);

    const other = mount('qt-wallet-balance', { 'api-base': 'https://api.example' });
    expect(await other.shadow.findByRole('link')).toHaveAttribute('href', 'https://api.example/#/auth/login');
  });

  it('shows a localized error with a retry button that loads again', async () => {
    let calls = 0;
    serve({
      'GET /api/trade/profit-summary': () => {
        calls += 1;
        return calls === 1 ? fail(20002) : ok(summary);
      },
    });
    const { shadow } = mount('qt-profit-card', { token: 't', locale: 'en-US' });
    expect(await shadow.findByRole('alert')).toHaveTextContent('Not enabled');
    fireEvent.click(shadow.getByRole('button', { name: 'Retry' }));
    await shadow.findByText('+1,234.50');
    expect(calls).toBe(2);
  });

  it('shows the network error text when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const { shadow } = mount('qt-profit-card', { token: 't' });
    expect(await shadow.findByRole('alert')).toHaveTextContent('无法连接服务器');
  });

  it('emits qt-session-expired and shows the login link when the API answers 401', async () => {
    serve({ 'GET /api/trade/profit-summary': () => unauthorized() });
    const expired = vi.fn();
    document.addEventListener('qt-session-expired', expired);
    const { shadow } = mount('qt-profit-card', { token: 'stale', 'api-base': 'https://api.example' });
    expect(await shadow.findByRole('link')).toHaveAttribute('href', 'https://api.example/#/auth/login');
    expect(expired).toHaveBeenCalledTimes(1);
    document.removeEventListener('qt-session-expired', expired);
  });

  it('tells the other widgets of the same session at once: they show the login link without calling again', async () => {
    const server = serve({
      'GET /api/trade/profit-summary': () => unauthorized(),
      'GET /api/wallet/balances': () => ok(balances),
    });
    const expired = vi.fn();
    document.addEventListener('qt-session-expired', expired);
    // The wallet widget loads first; the profit card refreshes and finds the session gone.
    const wallet = mount('qt-wallet-balance', { token: 'stale', 'api-base': 'https://api.example', refresh: '3600' });
    await wallet.shadow.findByText('激活卡');
    const other = mount('qt-wallet-balance', { token: 'another', 'api-base': 'https://api.example', refresh: '3600' });
    await other.shadow.findByText('激活卡');
    const card = mount('qt-profit-card', { token: 'stale', 'api-base': 'https://api.example' });
    expect(await card.shadow.findByRole('link')).toHaveAttribute('href', 'https://api.example/#/auth/login');
    expect(await wallet.shadow.findByRole('link')).toHaveAttribute('href', 'https://api.example/#/auth/login');
    expect(wallet.shadow.queryByText('激活卡')).toBeNull();
    // Another session (another token) is not touched, and only the widget that saw the 401 emitted the event.
    expect(other.shadow.getByText('激活卡')).toBeInTheDocument();
    expect(expired).toHaveBeenCalledTimes(1);
    expect(server.requests.filter((r) => r.url.endsWith('/api/wallet/balances'))).toHaveLength(2);
    document.removeEventListener('qt-session-expired', expired);
  });

  it('emits qt-session-expired once when widgets of one session find it ended at the same moment', async () => {
    serve({
      'GET /api/trade/profit-summary': () => ({ ...unauthorized(), delayMs: 20 }),
      'GET /api/wallet/balances': () => ({ ...unauthorized(), delayMs: 30 }),
      'GET /api/trade/list': () => ({ ...unauthorized(), delayMs: 40 }),
    });
    const expired = vi.fn();
    document.addEventListener('qt-session-expired', expired);
    const widgets = ['qt-profit-card', 'qt-wallet-balance', 'qt-task-list'].map((name) => mount(name, { token: 'ended', 'api-base': 'https://api.example' }));
    for (const { shadow } of widgets) expect(await shadow.findByRole('link')).toHaveAttribute('href', 'https://api.example/#/auth/login');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(expired).toHaveBeenCalledTimes(1);
    document.removeEventListener('qt-session-expired', expired);
  });

  it("emits qt-session-expired when the page's session is gone before its next refresh (another call found it ended)", async () => {
    serve({ 'GET /api/wallet/balances': () => ok(balances) });
    localStorage.setItem('accessToken', 'page-access');
    localStorage.setItem('refreshToken', 'page-refresh');
    const expired = vi.fn();
    document.addEventListener('qt-session-expired', expired);
    try {
      const { element, shadow } = mount('qt-wallet-balance', { refresh: '3600' });
      await shadow.findByText('激活卡');
      expect(expired).not.toHaveBeenCalled();
      // A call cut short by an attribute change heard the 401 and cleared the page's tokens without telling anyone.
      localStorage.clear();
      element.setAttribute('refresh', '1800');
      expect(await shadow.findByRole('link')).toHaveAttribute('href', '/#/auth/login');
      expect(expired).toHaveBeenCalledTimes(1);
      // Told once: the next attribute change finds it already said.
      element.setAttribute('refresh', '900');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(expired).toHaveBeenCalledTimes(1);
    } finally {
      document.removeEventListener('qt-session-expired', expired);
      localStorage.clear();
    }
  });

  it('does not emit qt-session-expired for a page that never had a session', async () => {
    const server = serve({});
    const expired = vi.fn();
    document.addEventListener('qt-session-expired', expired);
    const { shadow } = mount('qt-wallet-balance', { refresh: '3600' });
    expect(await shadow.findByRole('link')).toHaveAttribute('href', '/#/auth/login');
    expect(expired).not.toHaveBeenCalled();
    expect(server.requests).toHaveLength(0);
    document.removeEventListener('qt-session-expired', expired);
  });

  it('calls the API base given', async () => {
    const server = serve({ 'GET /api/wallet/balances': () => ok(balances) });
    const { shadow } = mount('qt-wallet-balance', { token: 't', 'api-base': 'https://api.example/' });
    await shadow.findByText('激活卡');
    expect(server.requests[0]?.url).toBe('https://api.example/api/wallet/balances');
  });
});

describe('qt-task-list', () => {
  const tasks = [task('t1', 'BTC/USDT'), task('t2', 'ETH/USDT', { cycleCount: 10, floatingProfit: '-1.5' }), task('t3', 'SOL/USDT')];

  it("shows each task's last price to its market's tick, as the dashboard does", async () => {
    const priced = [
      task('p1', 'BTC/USDT', { lastPrice: '98765.4', tickSize: '0.01' }),
      task('p2', 'SHIB/USDT', { lastPrice: '0.0000123', tickSize: '0.00000001' }),
      task('p3', 'DOGE/USDT', { lastPrice: '0.15', tickSize: null }),
    ];
    serve({ 'GET /api/trade/list': () => ok({ list: priced, total: 3 }) });
    const { shadow } = mount('qt-task-list', { token: 't', locale: 'en-US' });
    await shadow.findByText('SHIB/USDT');
    const price = (symbol: string) => shadow.getByText(symbol).closest('button')!.querySelector('[data-price]')!.textContent!.trim();
    expect(price('BTC/USDT')).toBe('98,765.40');
    expect(price('SHIB/USDT')).toBe('0.00001230');
    // No tick known: six significant digits, as the dashboard without one.
    expect(price('DOGE/USDT')).toBe('0.15');
  });

  it('says Testnet beside a task on a testnet account, and nothing beside the others', async () => {
    const list = [task('n1', 'BTC/USDT', { exchangeName: 'Binance Testnet', prices: { source: 'binance-testnet', live: true } }), task('n2', 'ETH/USDT')];
    serve({ 'GET /api/trade/list': () => ok({ list, total: 2 }) });
    const { shadow } = mount('qt-task-list', { token: 't', locale: 'zh-TW' });
    await shadow.findByText('BTC/USDT');
    const row = (symbol: string) => shadow.getByText(symbol).closest('button')!;
    expect(row('BTC/USDT').querySelector('[data-testnet]')!.textContent).toBe(' · 測試網');
    expect(row('ETH/USDT').querySelector('[data-testnet]')).toBeNull();
  });

  it('shows the running tasks up to the limit, and an empty state', async () => {
    const server = serve({ 'GET /api/trade/list': (request) => ok({ list: tasks.slice(0, Number(new URL(request.url, 'http://localhost').searchParams.get('pageSize'))), total: 3 }) });
    const { shadow } = mount('qt-task-list', { token: 't', limit: '2', locale: 'en-US' });
    expect(await shadow.findByText('BTC/USDT')).toBeInTheDocument();
    expect(shadow.getAllByRole('button')).toHaveLength(2);
    expect(shadow.getByText('Cycle 4 of ∞ · Paper')).toBeInTheDocument();
    expect(shadow.getByText('Cycle 4 of 10 · Paper')).toBeInTheDocument();
    expect(shadow.getByText('-1.50')).toHaveClass('down');
    expect(shadow.getAllByText('+5.68')).toHaveLength(2);
    const query = new URL(server.requests[0]!.url, 'http://localhost').searchParams;
    expect(query.get('pageSize')).toBe('2');
    expect(query.get('running')).toBe('true');

    serve({ 'GET /api/trade/list': () => ok({ list: [], total: 0 }) });
    const empty = mount('qt-task-list', { token: 't' });
    expect(await empty.shadow.findByText('暂无运行中的任务。')).toBeInTheDocument();
  });

  it('counts cycles as the dashboard does (one rule, src/api/cycles.ts)', async () => {
    const cases = [
      task('c1', 'BTC/USDT', { cyclesDone: 0, cycleCount: 5 }),
      task('c2', 'ETH/USDT', { cyclesDone: 5, cycleCount: 5 }),
      task('c3', 'SOL/USDT', { cyclesDone: 2, cycleCount: 3, finished: true }),
      task('c4', 'XRP/USDT', { cyclesDone: 7, cycleCount: 9999 }),
    ];
    serve({ 'GET /api/trade/list': () => ok({ list: cases, total: cases.length }) });
    const { shadow } = mount('qt-task-list', { token: 't', locale: 'zh-CN' });
    await shadow.findByText('XRP/USDT');
    const template = tradeMessages['zh-CN'].tasks.cycle;
    const dashboardTranslate = (_: string, values: Record<string, unknown> = {}) => template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_w, name: string) => String(values[name]));
    for (const one of cases) {
      const row = shadow.getByText(one.symbol).closest('button')!;
      const numbers = (text: string) => text.match(/\d+|∞/g)!.slice(0, 2);
      expect(numbers(within(row).getByText(/第/).textContent!)).toEqual(numbers(cycleText(one, dashboardTranslate as never)));
    }
  });

  it('emits a bubbling, composed qt-task-click and opens the task in the dashboard', async () => {
    serve({ 'GET /api/trade/list': () => ok({ list: tasks, total: 3 }) });
    const clicks: CustomEvent[] = [];
    const listener = (event: Event) => clicks.push(event as CustomEvent);
    document.addEventListener('qt-task-click', listener);
    const { shadow } = mount('qt-task-list', { token: 't', 'dashboard-url': window.location.origin });
    fireEvent.click(await shadow.findByText('ETH/USDT'));
    expect(clicks).toHaveLength(1);
    expect(clicks[0]?.detail).toEqual({ id: 't2' });
    expect(clicks[0]?.composed).toBe(true);
    await waitFor(() => expect(window.location.hash).toBe('#/trade/detail/t2'));
    document.removeEventListener('qt-task-click', listener);
    window.location.hash = '';
  });

  it('does not navigate when a listener cancels qt-task-click', async () => {
    serve({ 'GET /api/trade/list': () => ok({ list: tasks, total: 3 }) });
    const cancel = (event: Event) => event.preventDefault();
    document.addEventListener('qt-task-click', cancel);
    const { shadow } = mount('qt-task-list', { token: 't', 'dashboard-url': window.location.origin });
    fireEvent.click(await shadow.findByText('ETH/USDT'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(window.location.hash).toBe('');
    document.removeEventListener('qt-task-click', cancel);
  });

  it('does not navigate without dashboard-url', async () => {
    serve({ 'GET /api/trade/list': () => ok({ list: tasks, total: 3 }) });
    const listener = vi.fn();
    document.addEventListener('qt-task-click', listener);
    const { shadow } = mount('qt-task-list', { token: 't' });
    fireEvent.click(await shadow.findByText('SOL/USDT'));
    expect(listener.mock.calls[0]?.[0].detail).toEqual({ id: 't3' });
    expect(window.location.hash).toBe('');
    document.removeEventListener('qt-task-click', listener);
  });
});

describe('qt-wallet-balance', () => {
  const row = (element: HTMLElement, asset: string) => element.shadowRoot!.querySelector<HTMLElement>(`[data-asset="${asset}"]`)!;

  it('shows the four assets with their available and held amounts, after a loading state', async () => {
    const server = serve({ 'GET /api/wallet/balances': () => ({ ...ok(balances), delayMs: 50 }) });
    const { element, shadow } = mount('qt-wallet-balance', { token: 't', locale: 'en-US', 'dashboard-url': 'https://app.example/' });
    expect(await shadow.findByRole('status')).toHaveTextContent('Loading…');
    expect(await shadow.findByRole('heading')).toHaveTextContent('Wallet');
    await shadow.findByText('Activation cards');
    expect(within(row(element, 'USDT')).getByText('1,234.50')).toBeInTheDocument();
    expect(within(row(element, 'USDT')).getByText('Held 11.00')).toBeInTheDocument();
    expect(within(row(element, 'CARD')).getByText('3')).toBeInTheDocument();
    expect(row(element, 'CARD').querySelector('[data-field="held"]')).toBeNull();
    expect(within(row(element, 'POINTS')).getByText('0.125')).toBeInTheDocument();
    expect(within(row(element, 'FUEL')).getByText('Fuel')).toBeInTheDocument();
    expect(within(row(element, 'FUEL')).getByText('0.00')).toBeInTheDocument();
    expect(shadow.getByRole('link', { name: 'Open wallet' })).toHaveAttribute('href', 'https://app.example/#/profile/wallet');
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/wallet/balances']);
    expect(server.requests[0]?.headers.Authorization).toBe('Bearer t');
  });

  it('shows the localized error with a retry that loads again', async () => {
    let calls = 0;
    serve({
      'GET /api/wallet/balances': () => {
        calls += 1;
        return calls === 1 ? fail(99999) : ok(balances);
      },
    });
    const { shadow } = mount('qt-wallet-balance', { token: 't', locale: 'zh-TW' });
    expect(await shadow.findByRole('alert')).toHaveTextContent('未知錯誤');
    fireEvent.click(shadow.getByRole('button', { name: '重試' }));
    expect(await shadow.findByText('啟用卡')).toBeInTheDocument();
    expect(shadow.getByText('凍結 11.00')).toBeInTheDocument();
    expect(calls).toBe(2);
  });

  it('asks to log in, without calling, when there is no session', async () => {
    const server = serve({ 'GET /api/wallet/balances': () => ok(balances) });
    const { element, shadow } = mount('qt-wallet-balance', { 'dashboard-url': 'https://app.example' });
    expect(await shadow.findByRole('link', { name: '登录' })).toHaveAttribute('href', 'https://app.example/#/auth/login');
    expect(element.shadowRoot!.querySelector('[data-state="logged-out"]')).not.toBeNull();
    expect(server.calls()).toBe(0);
  });

  it('turns to the logged-out state when the session is refused', async () => {
    serve({ 'GET /api/wallet/balances': () => unauthorized() });
    const { shadow } = mount('qt-wallet-balance', { token: 'stale', locale: 'en-US' });
    expect(await shadow.findByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/#/auth/login');
    expect(shadow.queryByText('USDT')).toBeNull();
  });
});

describe('attributes', () => {
  it('re-render on change: theme and locale', async () => {
    serve({ 'GET /api/trade/profit-summary': () => ok(summary) });
    const { element, shadow } = mount('qt-profit-card', { token: 't', theme: 'dark' });
    await shadow.findByText('+1,234.50');
    const root = () => element.shadowRoot!.querySelector('.qt')!;
    expect(root()).toHaveAttribute('data-theme', 'dark');
    expect(shadow.getByRole('heading')).toHaveTextContent('已实现收益');

    element.setAttribute('theme', 'light');
    await waitFor(() => expect(root()).toHaveAttribute('data-theme', 'light'));
    element.setAttribute('locale', 'en-US');
    expect(await shadow.findByRole('heading')).toHaveTextContent('Realized profit');
    await shadow.findByText('+1,234.50');
    expect(root()).toHaveAttribute('lang', 'en-US');
  });

  it('falls back to the default when an attribute is removed: no token, the dashboard session', async () => {
    localStorage.setItem('accessToken', 'dashboard-token');
    const server = serve({ 'GET /api/wallet/balances': () => ok(balances) });
    const { element, shadow } = mount('qt-wallet-balance', { token: 'partner-token', locale: 'en-US', refresh: '0' });
    await shadow.findByText('Activation cards');
    element.removeAttribute('token');
    await waitFor(() => expect(server.requests).toHaveLength(2));
    expect(server.requests.map((r) => r.headers.Authorization)).toEqual(['Bearer partner-token', 'Bearer dashboard-token']);
    element.removeAttribute('locale');
    expect(await shadow.findByText('激活卡')).toBeInTheDocument();
  });

  it('reads typed attributes: a limit that is not a number shows the default count', async () => {
    const many = Array.from({ length: 12 }, (_, i) => task(`t${i}`, `C${i}/USDT`));
    const server = serve({ 'GET /api/trade/list': (request) => ok({ list: many.slice(0, Number(new URL(request.url, 'http://localhost').searchParams.get('pageSize'))), total: 12 }) });
    const { shadow } = mount('qt-task-list', { token: 't', limit: 'lots' });
    await shadow.findByText('C0/USDT');
    expect(shadow.getAllByRole('button')).toHaveLength(10);
    expect(new URL(server.requests[0]!.url, 'http://localhost').searchParams.get('pageSize')).toBe('10');
  });

  it('re-renders with a new limit', async () => {
    const tasks = [task('t1', 'BTC/USDT'), task('t2', 'ETH/USDT'), task('t3', 'SOL/USDT')];
    serve({ 'GET /api/trade/list': (request) => ok({ list: tasks.slice(0, Number(new URL(request.url, 'http://localhost').searchParams.get('pageSize'))), total: 3 }) });
    const { element, shadow } = mount('qt-task-list', { token: 't', limit: '1' });
    await shadow.findByText('BTC/USDT');
    expect(shadow.getAllByRole('button')).toHaveLength(1);
    element.setAttribute('limit', '3');
    expect(await shadow.findByText('SOL/USDT')).toBeInTheDocument();
    expect(shadow.getAllByRole('button')).toHaveLength(3);
  });
});

describe('as React components', () => {
  it('render in the dashboard without a custom element', async () => {
    serve({ 'GET /api/trade/profit-summary': () => ok(summary) });
    render(<ProfitCard token="t" locale="en-US" refresh={0} />);
    expect(await screen.findByText('+1,234.50')).toBeInTheDocument();
  });

  it('call their event props; a handler returning false stops the navigation', async () => {
    serve({ 'GET /api/trade/list': () => ok({ list: [task('t9', 'DOGE/USDT')], total: 1 }) });
    const onClick = vi.fn(() => false);
    render(<TaskList token="t" refresh={0} dashboardUrl={window.location.origin} {...{ 'onQt-task-click': onClick }} />);
    fireEvent.click(await screen.findByText('DOGE/USDT'));
    expect(onClick).toHaveBeenCalledWith({ id: 't9' });
    expect(window.location.hash).toBe('');
  });
});

describe('widget texts', () => {
  it('agree with their count in English', async () => {
    const { createTranslator } = await import('./i18n');
    const t = createTranslator('en-US');
    expect(t('widgets.cyclesToday', { count: 1 })).toBe('1 cycle closed today');
    expect(t('widgets.cyclesToday', { count: 2 })).toBe('2 cycles closed today');
    expect(createTranslator('zh-CN')('widgets.cyclesToday', { count: 1 })).toBe('今日完成 1 轮');
  });
});
