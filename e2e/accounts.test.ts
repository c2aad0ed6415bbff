import { afterEach, describe, expect, it } from 'vitest';
import { PASSWORD, loginThroughUi, logoutThroughUi, registerThroughUi } from './accountSteps';
import { hashPath, startJourney, storage, type Journey } from './harness';

/**
 * Account journeys in real Chromium against the real server and the built
 * dashboard: register with the code from the outbox, log out, log in with
 * remember me on and off, a language chosen before registering, a wrong
 * password. Recovery, token refresh and the guard: accountRecovery.test.ts.
 */
let journey: Journey | undefined;
afterEach(async () => {
  await journey?.close();
  journey = undefined;
});

describe('accounts in the browser', () => {
  it('registers in zh-CN with the mailed code, logs out, and logs in with remember me on and off', async () => {
    journey = await startJourney({ viewport: 'phone', locale: 'zh-CN' });
    const j = journey;
    await j.page.goto(j.url('/auth/register'));
    await j.page.locator('input[name="email"]').waitFor();
    await j.shot('register-zh-CN-375');

    await registerThroughUi(j, 'xiaoming@example.com', { sendCode: '发送验证码', submit: '注册', home: '首页' });
    expect(j.server.outbox().at(-1)).toContain('Subject: =?UTF-8?');
    expect(await storage(j.page)).toMatchObject({ localAccess: expect.any(String), localRefresh: expect.any(String) });
    await j.shot('home-zh-CN-375');

    await logoutThroughUi(j, { menu: /个人资料/, logout: /退出登录/ });
    expect(hashPath(j.page)).toBe('/auth/login');
    expect(await storage(j.page)).toEqual({ localAccess: null, localRefresh: null, sessionAccess: null, sessionRefresh: null });

    await loginThroughUi(j, 'xiaoming@example.com', PASSWORD, false);
    await j.page.getByRole('heading', { level: 1, name: '首页' }).waitFor();
    // Remember me off: only the access token, and only in session storage.
    expect(await storage(j.page)).toEqual({ localAccess: null, localRefresh: null, sessionAccess: expect.any(String), sessionRefresh: null });

    await logoutThroughUi(j, { menu: /个人资料/, logout: /退出登录/ });
    await loginThroughUi(j, 'xiaoming@example.com', PASSWORD, true);
    await j.page.getByRole('heading', { level: 1, name: '首页' }).waitFor();
    expect(await storage(j.page)).toEqual({ localAccess: expect.any(String), localRefresh: expect.any(String), sessionAccess: null, sessionRefresh: null });

    // Already logged in: the guest page sends the user home instead.
    await j.page.goto(j.url('/auth/login'));
    await expect.poll(() => hashPath(j.page)).toBe('/');
  });

  it('registers in en-US, chosen with the language switcher', async () => {
    journey = await startJourney({ viewport: 'desktop' });
    const j = journey;
    await j.page.goto(j.url('/auth/login'));
    await j.page.getByRole('button', { name: '切换语言' }).click();
    await j.page.getByRole('menuitem', { name: /English/ }).click();
    await j.page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await j.shot('login-en-US-1280');
    expect(await j.page.evaluate(() => localStorage.getItem('locale'))).toBe('en-US');

    await registerThroughUi(j, 'mike@example.com', { sendCode: 'Send code', submit: 'Create account', home: 'Home' });
    expect(j.server.outbox().at(-1)).toContain('Subject: Your Quant Trader sign-up code');
    await j.shot('home-en-US-1280');
    // The language stays chosen after logout.
    await logoutThroughUi(j, { menu: /Profile/, logout: /Logout/ });
    await j.page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
  });

  it('shows a wrong password as a localized toast and keeps the visitor on the login page', async () => {
    journey = await startJourney({ viewport: 'desktop', locale: 'zh-TW' });
    const j = journey;
    await loginThroughUi(j, 'nobody@example.com', 'Wrong-Passw0rd!', true);
    await j.page.getByText('密碼錯誤').waitFor();
    expect(hashPath(j.page)).toBe('/auth/login');
    await j.shot('login-error-zh-TW-1280');
  });
});
