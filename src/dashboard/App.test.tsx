import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WIZARD_STORAGE_KEY, defaultWizardDraft } from '../api/defaults';
import { createI18nProvider } from '../i18n/i18nProvider';
import zhCN from '../i18n/messages/zh-CN';
import { ok, unauthorized } from '../testing/fakeServer';
import { findHeading, identityRoute, renderApp, signIn } from '../testing/renderApp';
import { guestRoutes, protectedRoutes } from './App';
import { resetWizardNavigationTracker } from './trade/wizard/navigation';
import { wizardDraft } from './trade/wizard/draftStore';

const identity = identityRoute;
const pair = (symbol: string) => ({ id: symbol, symbol, base: symbol.split('/')[0], quote: 'USDT', price: '100', change24h: '1.5', quoteVolume24h: '1000000', minCost: '5', tickSize: '0.01', amountStep: '0.00001' });
const market = {
  ...identity,
  'GET /api/trade/pairs': () => ok({ list: ['BTC/USDT', 'ETH/USDT', 'SOL/USDT'].map(pair), total: 3 }),
  'GET /api/trade/hot-pairs': () => ok([pair('BTC/USDT')]),
};

const titleOf = (key: string) => {
  const [group, name] = key.split('.') as [keyof typeof zhCN, string];
  return String((zhCN[group] as Record<string, string>)[name]);
};
const samplePath = (path: string) => path.replace(':id', 'a0000000-0000-4000-8000-000000000042').replace(':date', '2026-11-20');

beforeEach(async () => {
  const provider = await createI18nProvider();
  if (provider.getLocale() !== 'zh-CN') await provider.changeLocale('zh-CN');
  localStorage.clear();
  wizardDraft.reset();
  resetWizardNavigationTracker();
});
afterEach(() => vi.unstubAllGlobals());

describe('route table', () => {
  it('registers every protected route of the spec at its exact path', () => {
    expect(protectedRoutes.map((r) => r.path).sort()).toEqual(
      [
        '/trade', '/strategy', '/profile', '/article', '/article/:id', '/strategy/add', '/strategy/edit/:id',
        '/trade/add', '/trade/detail/:id', '/trade/order-history', '/trade/all-order-history', '/trade/pair-select',
        '/exchange', '/exchange/add', '/exchange/edit/:id', '/profile/edit', '/profile/activate', '/profile/member-level',
        '/profile/fuel', '/profile/security', '/profile/profit-detail', '/profile/daily-profit-detail/:date',
        '/profile/profit-rank', '/profile/invite', '/profile/community', '/profile/wallet', '/profile/wallet/recharge',
        '/profile/wallet/withdraw', '/profile/wallet/transfer', '/profile/wallet/exchange',
        '/profile/wallet/points-transfer', '/profile/wallet/usdt-records', '/profile/wallet/card-records',
        '/profile/wallet/points-records', '/profile/notification-channels', '/notifications',
      ].sort(),
    );
    expect(guestRoutes.map((r) => r.path)).toEqual(['/auth/login', '/auth/register', '/auth/forgot-password']);
    expect(new Set(protectedRoutes.map((r) => r.titleKey)).size).toBe(protectedRoutes.length);
  });

  // One app, moved through every route as its links do (the route sweep loads each one in Chromium, in
  // every language and at both widths): each page shows its own title and marks its section with its key.
  it('renders every protected route with its own title for a signed-in user', async () => {
    signIn();
    const app = await renderApp('/', identity);
    await findHeading('首页');
    for (const { path, titleKey } of protectedRoutes.filter((r) => r.path !== '/profile/daily-profit-detail/:date')) {
      await app.goTo(samplePath(path));
      const heading = await findHeading(titleOf(titleKey)).catch((error: Error) => {
        throw new Error(`${path}: no heading ${titleOf(titleKey)} (${titleKey})\n${error.message}`);
      });
      expect(heading, path).toBeInTheDocument();
      expect(app.pathname(), path).toBe(samplePath(path));
      expect(document.querySelector(`[data-title-key="${titleKey}"]`), path).not.toBeNull();
    }
  }, 60_000);

  it('passes the date of /profile/daily-profit-detail/:date to its title', async () => {
    signIn();
    await renderApp('/profile/daily-profit-detail/2026-11-20', identity);
    expect(await findHeading('2026-11-20 收益')).toBeInTheDocument();
  });

  it('passes the taskId query of /trade/order-history to the page as its id', async () => {
    signIn();
    await renderApp('/trade/order-history?taskId=a0000000-0000-4000-8000-000000000077', identity);
    await findHeading('任务订单');
    expect(document.querySelector('[data-task-id="a0000000-0000-4000-8000-000000000077"]')).not.toBeNull();
  });

  it('renders the home page at /', async () => {
    signIn();
    await renderApp('/', identity);
    expect(await findHeading('首页')).toBeInTheDocument();
  });

  it('shows the not-found page for any other path', async () => {
    signIn();
    const app = await renderApp('/no/such/page', identity);
    expect(await findHeading('页面不存在')).toBeInTheDocument();
    expect(app.pathname()).toBe('/no/such/page');
  });

  it('shows the not-found page to a guest without waiting for an identity it does not have', async () => {
    const app = await renderApp('/no/such/page');
    expect(await findHeading('页面不存在')).toBeInTheDocument();
    // No identity is asked again and again: the app bar stops loading at once.
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull(), { timeout: 1500 });
    expect(app.server.requests).toHaveLength(0);
  });
});

describe('navigation guard', () => {
  it('protected route with an access token: allowed', async () => {
    signIn(false);
    const app = await renderApp('/strategy', identity);
    expect(await findHeading('策略')).toBeInTheDocument();
    expect(app.server.requests.some((r) => r.path === '/api/user/refresh')).toBe(false);
  });

  it('protected route with only a refresh token: refreshes, then allowed', async () => {
    localStorage.setItem('refreshToken', 'refresh-1.0123456789abcdefgh');
    const app = await renderApp('/profile', {
      ...identity,
      'PUT /api/user/refresh': (req) => {
        expect(req.body?.refreshToken).toBe('refresh-1.0123456789abcdefgh');
        return ok({ accessToken: 'access-2', refreshToken: 'refresh-2.0123456789abcdefgh' });
      },
    });
    expect(await findHeading('我的')).toBeInTheDocument();
    expect(app.server.requests.filter((r) => r.path === '/api/user/refresh')).toHaveLength(1);
    expect(localStorage.getItem('accessToken')).toBe('access-2');
    expect(localStorage.getItem('refreshToken')).toBe('refresh-2.0123456789abcdefgh');
  });

  it('protected route with only a refresh token that fails: tokens cleared, login route', async () => {
    localStorage.setItem('refreshToken', 'refresh-dead.0123456789abcdefgh');
    const app = await renderApp('/profile', { 'PUT /api/user/refresh': () => ({ body: { code: 11005, message: 'revoked', data: null } }) });
    expect(await findHeading('登录')).toBeInTheDocument();
    await waitFor(() => expect(app.pathname()).toBe('/auth/login'));
    expect(localStorage.getItem('refreshToken')).toBeNull();
  });

  it('protected route with neither token: login route', async () => {
    const app = await renderApp('/trade/detail/9');
    expect(await findHeading('登录')).toBeInTheDocument();
    await waitFor(() => expect(app.pathname()).toBe('/auth/login'));
    expect(app.server.requests.filter((r) => r.path.startsWith('/api/trade'))).toHaveLength(0);
  });

  it('guest route with an access token: redirected to /', async () => {
    signIn();
    const app = await renderApp('/auth/register', identity);
    expect(await findHeading('首页')).toBeInTheDocument();
    expect(app.pathname()).toBe('/');
  });

  it.each(guestRoutes)('guest route $path without a token: shown in the auth layout', async ({ path, titleKey }) => {
    const app = await renderApp(path);
    expect(await findHeading(titleOf(titleKey))).toBeInTheDocument();
    expect(app.pathname()).toBe(path);
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('an API 401 mid-session that cannot be refreshed ends on the login route', async () => {
    sessionStorage.setItem('accessToken', 'access-expired');
    const app = await renderApp('/trade/add', { 'GET /api/user/me': () => unauthorized() });
    await waitFor(() => expect(app.server.requests.map((r) => r.path)).toContain('/api/user/me'), { timeout: 5000 });
    await waitFor(() => expect(app.pathname()).toBe('/auth/login'), { timeout: 5000 });
    expect(sessionStorage.getItem('accessToken')).toBeNull();
  });
});

describe('trade wizard draft', () => {
  const stored = () => JSON.parse(sessionStorage.getItem(WIZARD_STORAGE_KEY) ?? 'null');

  it('is saved to session storage under wizard-trade on every change', async () => {
    signIn();
    await renderApp('/trade/add', identity);
    const amount = await screen.findByRole('textbox', { name: /首单金额/ });
    await userEvent.clear(amount);
    await userEvent.type(amount, '25.5');
    expect(stored()).toMatchObject({ firstOrderAmount: '25.5', cycleTimes: 9999, running: true, status: 'replenish_open' });
    await userEvent.click(screen.getByRole('switch', { name: '首单加倍' }));
    expect(stored().firstOrderLeverage).toBe(true);
  });

  it('survives moving between /trade/add and /trade/pair-select, and resets when leaving them', async () => {
    signIn();
    await renderApp('/trade/add', market);
    wizardDraft.update({ selectedApi: 'e0000000-0000-4000-8000-000000000001', selectedPairs: ['BTC/USDT', { id: 'ETH/USDT' }] });
    await userEvent.click(await screen.findByRole('link', { name: '选择交易对' }));
    expect(await findHeading('选择交易对')).toBeInTheDocument();
    expect(await screen.findByRole('checkbox', { name: 'ETH/USDT' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'SOL/USDT' })).not.toBeChecked();
    expect(stored().selectedPairs).toHaveLength(2);

    await userEvent.click(screen.getByRole('menuitem', { name: '交易' }));
    await findHeading('交易任务');
    expect(wizardDraft.get()).toEqual(defaultWizardDraft());
    expect(sessionStorage.getItem(WIZARD_STORAGE_KEY)).toBeNull();
  });

  it('is reset on a first load of another page while pairs are selected', async () => {
    sessionStorage.setItem(WIZARD_STORAGE_KEY, JSON.stringify({ ...defaultWizardDraft(), selectedPairs: ['SOL/USDT'] }));
    wizardDraft.reload();
    signIn();
    await renderApp('/strategy', identity);
    await findHeading('策略');
    await waitFor(() => expect(wizardDraft.get().selectedPairs).toEqual([]));
    expect(sessionStorage.getItem(WIZARD_STORAGE_KEY)).toBeNull();
  });

  it('is kept on a first load of the wizard itself', async () => {
    sessionStorage.setItem(WIZARD_STORAGE_KEY, JSON.stringify({ ...defaultWizardDraft(), selectedApi: 'e0000000-0000-4000-8000-000000000001', selectedPairs: ['SOL/USDT'] }));
    wizardDraft.reload();
    signIn();
    await renderApp('/trade/pair-select', market);
    await findHeading('选择交易对');
    expect(await screen.findByRole('checkbox', { name: 'SOL/USDT' })).toBeChecked();
    expect(stored().selectedPairs).toEqual(['SOL/USDT']);
  });
});

describe('wizard submission', () => {
  it("refuses an incomplete form with '表单未填写完整' and sends nothing", async () => {
    signIn();
    const app = await renderApp('/trade/add', identity);
    await userEvent.click(await screen.findByRole('button', { name: '创建任务' }));
    expect(await screen.findByText('表单未填写完整')).toBeInTheDocument();
    expect(app.server.requests.filter((r) => r.path === '/api/trade/add')).toHaveLength(0);
  });

  it("creates the tasks, toasts '创建交易成功' and clears the draft", async () => {
    signIn();
    wizardDraft.update({ selectedApi: 'e0000000-0000-4000-8000-000000000001', selectedApiName: 'Paper', selectedPairs: ['BTC/USDT', { id: 'ETH/USDT' }], selectedTemplate: 'b0000000-0000-4000-8000-000000000001', templateName: 'Balanced' });
    const app = await renderApp('/trade/add', { ...identity, 'POST /api/trade/add': () => ok([{ id: 'a0000000-0000-4000-8000-000000000011' }, { id: 'a0000000-0000-4000-8000-000000000012' }]) });
    await userEvent.click(await screen.findByRole('button', { name: '创建任务' }));
    expect(await screen.findByText('创建交易成功')).toBeInTheDocument();
    const sent = app.server.requests.find((r) => r.path === '/api/trade/add');
    expect(sent?.body).toEqual({
      exchangeId: 'e0000000-0000-4000-8000-000000000001',
      coinIdList: ['BTC/USDT', 'ETH/USDT'],
      cycleCount: 9999,
      firstOrderAmount: '10',
      firstOrderMultiple: false,
      running: true,
      replenishStatus: 'replenish_open',
      strategyId: 'b0000000-0000-4000-8000-000000000001',
    });
    await waitFor(() => expect(app.pathname()).toBe('/trade'));
    expect(sessionStorage.getItem(WIZARD_STORAGE_KEY)).toBeNull();
  });

  it('shows the localized text of a server error code and keeps the draft', async () => {
    signIn();
    wizardDraft.update({ selectedApi: 'e0000000-0000-4000-8000-000000000001', selectedPairs: ['BTC/USDT'], selectedTemplate: 'b0000000-0000-4000-8000-000000000001' });
    await renderApp('/trade/add', { ...identity, 'POST /api/trade/add': () => ({ body: { code: 14001, message: 'max 3', data: null } }) });
    await userEvent.click(await screen.findByRole('button', { name: '创建任务' }));
    expect(await screen.findByText('每个币种最多 3 个任务')).toBeInTheDocument();
    expect(wizardDraft.get().selectedPairs).toEqual(['BTC/USDT']);
  });
});

describe('notifications', () => {
  it('stay 5000 ms by default', async () => {
    signIn();
    await renderApp('/trade/add', identity);
    const button = await screen.findByRole('button', { name: '创建任务' });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await userEvent.click(button);
      expect(await screen.findByText('表单未填写完整')).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(4800);
      expect(screen.getByText('表单未填写完整')).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(1500);
      await waitFor(() => expect(screen.queryByText('表单未填写完整')).toBeNull());
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('language', () => {
  it('switches from the auth layout, persists under `locale` and survives logout', async () => {
    await renderApp('/auth/login');
    await findHeading('登录');
    await userEvent.click(screen.getByRole('button', { name: '切换语言' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: /English/ }));
    expect(await findHeading('Log in')).toBeInTheDocument();
    expect(localStorage.getItem('locale')).toBe('en-US');
    expect(document.documentElement.lang).toBe('en-US');
  });

  it("starts in the language stored under `locale`, whatever react-admin's own store remembers", async () => {
    await (await createI18nProvider()).changeLocale('zh-TW');
    localStorage.setItem('RaStore.locale', JSON.stringify('en-US'));
    await renderApp('/auth/login');
    expect(await findHeading('登入')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('登入');
    expect(localStorage.getItem('locale')).toBe('zh-TW');
  });
});
