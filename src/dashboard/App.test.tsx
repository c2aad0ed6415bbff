import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import zhCN from '../i18n/messages/zh-CN';
import { findHeading, identityRoute, renderApp, signIn } from '../testing/renderApp';
import { guestRoutes, protectedRoutes } from './App';
import { resetApp, restoreGlobals } from './appTestKit';

const identity = identityRoute;

const titleOf = (key: string) => {
  const [group, name] = key.split('.') as [keyof typeof zhCN, string];
  return String((zhCN[group] as Record<string, string>)[name]);
};
const samplePath = (path: string) => path.replace(':id', 'a0000000-0000-4000-8000-000000000042').replace(':date', '2026-11-20');

beforeEach(resetApp);
afterEach(restoreGlobals);

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
        '/profile/wallet/points-records', '/profile/wallet/addresses', '/profile/notification-channels', '/notifications',
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
