import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import zhCN from '../i18n/messages/zh-CN';
import { ok, unauthorized } from '../testing/fakeServer';
import { findHeading, identityRoute, renderApp, signIn } from '../testing/renderApp';
import { guestRoutes } from './App';
import { createI18nProvider } from '../i18n/i18nProvider';
import { resetApp, restoreGlobals } from './appTestKit';

const identity = identityRoute;

const titleOf = (key: string) => {
  const [group, name] = key.split('.') as [keyof typeof zhCN, string];
  return String((zhCN[group] as Record<string, string>)[name]);
};

beforeEach(resetApp);
afterEach(restoreGlobals);

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

describe('notifications', () => {
  it('stay 5000 ms by default', async () => {
    signIn();
    await renderApp('/trade/add', identity);
    // The wizard's area loads lazily: its heading first, with the time a loaded machine needs.
    await findHeading('添加交易对');
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
