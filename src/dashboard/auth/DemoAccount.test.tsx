import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO_EMAIL } from '../../api/demo';
import { displayMessage } from '../../dataProvider/ApiError';
import { ok, type Handler } from '../../testing/fakeServer';
import { TEST_USER, findHeading, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { balances, sessions } from '../profile/testData';

/**
 * The shared demo account in the dashboard (README "Run"): one tap on the
 * login page, a banner inside that says what it is and cannot do, and the
 * controls it cannot use replaced by that explanation.
 */

const DEMO_USER = { ...TEST_USER, email: DEMO_EMAIL, nickname: 'Demo' };
const asDemo: Record<string, Handler> = { 'GET /api/user/me': () => ok(DEMO_USER) };
const LOGIN_ANSWER = { accessToken: 'demo-access', refreshToken: 'demo-refresh-token-0000000000', user: DEMO_USER };

afterEach(() => vi.unstubAllGlobals());

/** Where the wallet page's action buttons lead. */
const walletActions = () => [...document.querySelectorAll('[data-section="actions"] a')].map((link) => link.getAttribute('href'));

describe('the login page', () => {
  beforeEach(async () => {
    await startSignedInZhCN();
    localStorage.clear();
    sessionStorage.clear();
  });

  it('offers "体验演示账户" when the server has the demo, and logs in with its published login in one tap', async () => {
    const app = await renderApp('/auth/login', {
      'GET /api/user/demo': () => ok({ email: DEMO_EMAIL, password: 'Demo-Trader-2026' }),
      'POST /api/user/login': () => ok(LOGIN_ANSWER),
      ...asDemo,
      'GET /api/trade/list': () => ok({ list: [], total: 0 }),
    });
    await findHeading('登录');
    await userEvent.click(await screen.findByRole('button', { name: '体验演示账户' }));
    await waitFor(() => expect(app.server.requests.some((r) => r.path === '/api/user/login')).toBe(true));
    const login = app.server.requests.find((r) => r.path === '/api/user/login')!;
    expect(login.body).toMatchObject({ email: DEMO_EMAIL, password: 'Demo-Trader-2026' });
    await waitFor(() => expect(app.pathname()).toBe('/'));
    // A shared account is kept for this tab only.
    expect(localStorage.getItem('refreshToken')).toBeNull();
  });

  it('offers nothing when the server has no demo account', async () => {
    const app = await renderApp('/auth/login', { 'GET /api/user/demo': () => ok(null) });
    await findHeading('登录');
    await waitFor(() => expect(app.server.requests.some((r) => r.path === '/api/user/demo')).toBe(true));
    expect(screen.queryByRole('button', { name: '体验演示账户' })).toBeNull();
  });
});

describe('inside the demo account', () => {
  beforeEach(startSignedInZhCN);
  // The identity is kept per access token: each account here has its own.
  const tokenOf = (account: string) => localStorage.setItem('accessToken', `access-${account}`);
  beforeEach(() => tokenOf('demo'));

  it('says on every page that this is the shared demo and what it cannot do', async () => {
    await renderApp('/profile/wallet', { ...asDemo, 'GET /api/wallet/balances': () => ok(balances), 'GET /api/wallet/deposits': () => ok({ list: [], total: 0 }), 'GET /api/wallet/withdrawals': () => ok({ list: [], total: 0 }) });
    await findHeading('钱包');
    const banner = await waitFor(() => document.querySelector<HTMLElement>('[data-demo-banner]')!);
    expect(banner).toHaveTextContent('你正在使用共享演示账户');
    expect(banner).toHaveTextContent('不能修改密码、邮箱、资料或安全设置');
    // What it cannot do is not offered: no withdrawal, transfer or points transfer.
    await screen.findByRole('link', { name: /充值/ });
    expect(walletActions()).toEqual(['/profile/wallet/recharge', '/profile/wallet/exchange']);
  });

  it('shows no banner to anyone else', async () => {
    tokenOf('trader');
    await renderApp('/profile/wallet', { 'GET /api/user/me': () => ok(TEST_USER), 'GET /api/wallet/balances': () => ok(balances), 'GET /api/wallet/deposits': () => ok({ list: [], total: 0 }), 'GET /api/wallet/withdrawals': () => ok({ list: [], total: 0 }) });
    await findHeading('钱包');
    await screen.findByRole('link', { name: /充值/ });
    expect(walletActions()).toEqual(['/profile/wallet/recharge', '/profile/wallet/withdraw', '/profile/wallet/transfer', '/profile/wallet/exchange', '/profile/wallet/points-transfer']);
    expect(document.querySelector('[data-demo-banner]')).toBeNull();
  });

  it('offers no password or e-mail change and no widget grants on the security page, and still lists its own session', async () => {
    const app = await renderApp('/profile/security', {
      ...asDemo,
      'GET /api/user/sessions': () => ok(sessions.slice(0, 1)),
      'GET /api/user/widget-tokens': () => ok([]),
      'GET /api/security/status': () => ok({ factors: [], recoveryCodesLeft: 0, withdrawalsHeldUntil: null, locked: true, passkeys: [] }),
    });
    await findHeading('安全中心');
    // The password, the e-mail, the second factor, the passkeys, the widget grants and the anti-phishing code: each says the demo keeps them.
    await waitFor(() => expect(document.querySelectorAll('[data-demo-locked]')).toHaveLength(6));
    expect(screen.queryByLabelText(/当前密码/)).toBeNull();
    expect(screen.queryByRole('button', { name: '修改密码' })).toBeNull();
    expect(screen.queryByLabelText(/新邮箱/)).toBeNull();
    expect(screen.queryByRole('button', { name: '修改邮箱' })).toBeNull();
    expect(app.server.requests.some((r) => r.path === '/api/user/widget-tokens')).toBe(false);
    await waitFor(() => expect(app.server.requests.some((r) => r.path === '/api/user/sessions')).toBe(true));
  });

  it('offers no profile edit', async () => {
    await renderApp('/profile/edit', asDemo);
    await findHeading('编辑资料');
    await waitFor(() => expect(document.querySelector('[data-demo-locked]')).not.toBeNull());
    expect(screen.queryByRole('textbox', { name: /昵称/ })).toBeNull();
  });

  it('gives a demo refusal its own text (error.demoAccount, in each locale), other 11005s the catalogue one', () => {
    const refusal = { kind: 'business' as const, code: 11005, data: { reason: 'demo_account' } };
    expect(displayMessage(refusal, (key) => key)).toBe('error.demoAccount');
    expect(displayMessage({ kind: 'business', code: 11005, data: null }, (key) => key)).toBe('error.11005');
  });
});

