import { afterEach, describe, expect, it } from 'vitest';
import { hashPath, startJourney, storage, type Journey } from './harness';

/**
 * Account journeys in real Chromium against the real server and the built
 * dashboard: register with the code from the outbox, log out, log in with
 * remember me on and off, reset a forgotten password, a transparent refresh
 * of an expired access token, and the guard rules.
 */
const PASSWORD = 'Sturdy-Passw0rd!';
let journey: Journey | undefined;
afterEach(async () => {
  await journey?.close();
  journey = undefined;
});

const registerThroughUi = async (j: Journey, email: string, texts: { sendCode: string; submit: string; home: string }) => {
  const { page } = j;
  await page.goto(j.url('/auth/register'));
  await page.locator('input[name="email"]').fill(email);
  await page.getByRole('button', { name: texts.sendCode }).click();
  await expect.poll(() => j.server.outbox().length, { timeout: 10000 }).toBeGreaterThan(0);
  await page.locator('input[name="captcha"]').fill(j.server.lastCode(email));
  await page.locator('input[name="nickname"]').fill('小明');
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('input[name="secondPassword"]').fill(PASSWORD);
  await page.getByRole('button', { name: texts.submit, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: texts.home }).waitFor();
};

const logoutThroughUi = async (j: Journey, names: { menu: RegExp; logout: RegExp }) => {
  await j.page.getByRole('button', { name: names.menu }).click();
  await j.page.getByRole('menuitem', { name: names.logout }).click();
  await j.page.locator('input[name="password"]').waitFor();
};

const loginThroughUi = async (j: Journey, email: string, password: string, remember: boolean) => {
  const { page } = j;
  await page.goto(j.url('/auth/login'));
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  const box = page.locator('input[name="rememberMe"]');
  if ((await box.isChecked()) !== remember) await box.click();
  await page.locator('button[type="submit"]').click();
};

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

  it('resets a forgotten password with the mailed code', async () => {
    journey = await startJourney({ viewport: 'phone', locale: 'zh-CN' });
    const j = journey;
    await registerThroughUi(j, 'forgetful@example.com', { sendCode: '发送验证码', submit: '注册', home: '首页' });
    await logoutThroughUi(j, { menu: /个人资料/, logout: /退出登录/ });

    await j.page.goto(j.url('/auth/forgot-password'));
    await j.page.locator('input[name="email"]').fill('forgetful@example.com');
    const mailsBefore = j.server.outbox().length;
    await j.page.getByRole('button', { name: '发送验证码' }).click();
    await expect.poll(() => j.server.outbox().length, { timeout: 10000 }).toBe(mailsBefore + 1);
    await j.page.getByRole('button', { name: /秒后重发/ }).waitFor();
    await j.page.locator('input[name="captcha"]').fill(j.server.lastCode('forgetful@example.com'));
    await j.page.locator('input[name="newPassword"]').fill('Brand-New-Passw0rd');
    await j.page.locator('input[name="confirmPassword"]').fill('Brand-New-Passw0rd');
    await j.shot('forgot-zh-CN-375');
    await j.page.getByRole('button', { name: '重置密码' }).click();
    await j.page.getByText('密码已修改，请使用新密码登录。').waitFor();
    expect(hashPath(j.page)).toBe('/auth/login');

    await loginThroughUi(j, 'forgetful@example.com', PASSWORD, true);
    await j.page.getByText('密码错误').waitFor();
    await loginThroughUi(j, 'forgetful@example.com', 'Brand-New-Passw0rd', true);
    await j.page.getByRole('heading', { level: 1, name: '首页' }).waitFor();
  });

  it('refreshes an expired access token transparently mid-session', async () => {
    journey = await startJourney({ viewport: 'desktop', locale: 'zh-CN', config: { accessTokenTtlSeconds: 5 } });
    const j = journey;
    await registerThroughUi(j, 'patient@example.com', { sendCode: '发送验证码', submit: '注册', home: '首页' });
    const before = await storage(j.page);
    await j.page.goto('about:blank');
    await j.page.waitForTimeout(6500);
    const refreshes: number[] = [];
    j.page.on('response', (response) => {
      if (response.url().endsWith('/api/user/refresh')) refreshes.push(response.status());
    });
    // The expired token is still in storage: the guard lets the page open, the first call gets 401, one refresh cures it.
    await j.page.goto(j.url('/profile'));
    await j.page.getByRole('heading', { level: 1, name: '我的' }).waitFor();
    await expect.poll(() => refreshes).toEqual([200]);
    const after = await storage(j.page);
    expect(after.localAccess).not.toBe(before.localAccess);
    expect(after.localRefresh).not.toBe(before.localRefresh);
    expect(hashPath(j.page)).toBe('/profile');
  });

  it('applies the guard: protected pages need a session, a refresh token alone is refreshed, guests pages send members home', async () => {
    journey = await startJourney({ viewport: 'desktop', locale: 'zh-CN' });
    const j = journey;
    await j.page.goto(j.url('/trade'));
    await j.page.locator('input[name="password"]').waitFor();
    expect(hashPath(j.page)).toBe('/auth/login');

    await j.page.goto(j.url('/no/such/page'));
    await j.page.getByRole('heading', { level: 1, name: '页面不存在' }).waitFor();

    await registerThroughUi(j, 'guarded@example.com', { sendCode: '发送验证码', submit: '注册', home: '首页' });
    await j.page.goto(j.url('/auth/register'));
    await expect.poll(() => hashPath(j.page)).toBe('/');

    // Only a refresh token left (the app opened later): the guard refreshes and lets the user in.
    await j.page.evaluate(() => localStorage.removeItem('accessToken'));
    await j.page.goto('about:blank');
    await j.page.goto(j.url('/strategy'));
    await j.page.getByRole('heading', { level: 1, name: '策略' }).waitFor();
    expect((await storage(j.page)).localAccess).toEqual(expect.any(String));

    // A refresh token the server no longer accepts: cleared, and off to the login page.
    await j.page.evaluate(() => {
      localStorage.removeItem('accessToken');
      localStorage.setItem('refreshToken', 'revoked-or-made-up-refresh-token');
    });
    await j.page.goto('about:blank');
    await j.page.goto(j.url('/profile/wallet'));
    await j.page.locator('input[name="password"]').waitFor();
    expect(hashPath(j.page)).toBe('/auth/login');
    expect(await storage(j.page)).toMatchObject({ localAccess: null, localRefresh: null });
  });
});
