import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, type TestServer } from '../server/test/harness';
import { PASSWORD, loginThroughUi, logoutThroughUi, registerThroughUi } from './accountSteps';
import { hashPath, startJourney, startJourneyServer, storage, type Journey } from './harness';

/**
 * Account journeys in real Chromium against the real server and the built
 * dashboard (registering and logging in: accounts.test.ts): reset a forgotten
 * password with the mailed code, a transparent refresh of an expired access
 * token, and the guard rules. Registering through the form is proven there and
 * in the first journey here; the others register through the API.
 */
/** A user registered through the API, signed in (remember me) in the storage of the page, which stays on the login page. */
const signedIn = async (j: Journey, email: string) => {
  const session = await registerUser(j.server, { email });
  await j.page.goto(j.url('/auth/login'));
  await j.page.evaluate(
    ([access, refresh]) => {
      localStorage.setItem('accessToken', access!);
      localStorage.setItem('refreshToken', refresh!);
    },
    [session.accessToken, session.refreshToken],
  );
};

let journey: Journey | undefined;
afterEach(async () => {
  await journey?.close();
  journey = undefined;
});

describe('accounts in the browser: token refresh', () => {
  it('refreshes an expired access token transparently mid-session', async () => {
    journey = await startJourney({ viewport: 'desktop', locale: 'zh-CN', config: { accessTokenTtlSeconds: 5 } });
    const j = journey;
    await signedIn(j, 'patient@example.com');
    const before = await storage(j.page);
    await j.page.goto('about:blank');
    // Until the server refuses the stored access token: expired (5 s after it was issued).
    await expect
      .poll(async () => (await j.server.call('GET', '/api/user/me', undefined, { token: before.localAccess! })).status, { timeout: 15_000, interval: 200 })
      .toBe(401);
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
});

// One server for the journeys of the default configuration, each with a user of its own (started after the
// token journey's server has closed: the file's PGlite follows the schema of the server started last).
describe('accounts in the browser: recovery and the guard', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startJourneyServer();
  });
  afterAll(() => server?.close());

  it('resets a forgotten password with the mailed code', async () => {
    journey = await startJourney({ viewport: 'phone', locale: 'zh-CN', server });
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

  it('applies the guard: protected pages need a session, a refresh token alone is refreshed, guests pages send members home', async () => {
    journey = await startJourney({ viewport: 'desktop', locale: 'zh-CN', server });
    const j = journey;
    await j.page.goto(j.url('/trade'));
    await j.page.locator('input[name="password"]').waitFor();
    expect(hashPath(j.page)).toBe('/auth/login');

    await j.page.goto(j.url('/no/such/page'));
    await j.page.getByRole('heading', { level: 1, name: '页面不存在' }).waitFor();

    await signedIn(j, 'guarded@example.com');
    await j.page.goto('about:blank');
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
