import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { computeSign, DEV_SIGN_SECRET } from '../../api/signing';
import { fail, ok, type Handler } from '../../testing/fakeServer';
import { TEST_USER, enterText, identityRoute, pageUser, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { sessions } from './testData';

/** The "修改邮箱" section of /profile/security (README "E-mail change"). */
beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

const routes = (extra: Record<string, Handler> = {}): Record<string, Handler> => ({
  ...identityRoute,
  'GET /api/user/sessions': () => ok(sessions),
  'GET /api/user/widget-tokens': () => ok([]),
  'GET /api/security/status': () => ok({ factors: [], recoveryCodesLeft: 0, withdrawalsHeldUntil: null, locked: false, passkeys: [] }),
  'POST /api/user/verify-code': () => ok({ expiresIn: 600, resendAfter: 60 }),
  ...extra,
});

/** The section once it shows the signed-in user's address. */
const openSection = async () => {
  const section = await waitFor(
    () => {
      const element = document.querySelector<HTMLElement>('[data-section="change-email"]');
      if (!element || !element.textContent?.includes('当前邮箱：trader@example.com')) throw new Error('the e-mail section is not there yet');
      return element;
    },
    { timeout: 10_000 },
  );
  return within(section);
};

const fields = (section: ReturnType<typeof within>) => ({
  email: section.getByLabelText(/^新邮箱/),
  code: section.getByLabelText(/^邮箱验证码/),
  password: section.getByLabelText(/^登录密码/),
});

const changeRequests = (app: Awaited<ReturnType<typeof renderApp>>) => app.server.requests.filter((r) => r.path === '/api/user/change-email');

describe('/profile/security: change e-mail', () => {
  it('mails a code to the new address (signed in, with a countdown), then changes the e-mail with a signed call', async () => {
    let me = TEST_USER;
    const app = await renderApp(
      '/profile/security',
      routes({
        'GET /api/user/me': () => ok(me),
        'POST /api/user/change-email': () => {
          me = { ...TEST_USER, email: 'new@example.com' };
          return ok(me);
        },
      }),
    );
    const section = await openSection();
    expect(section.getByText('修改邮箱', { selector: 'h2' })).toBeInTheDocument();
    expect(section.getByText(/提现和转账暂停 24 小时，原邮箱会收到通知/)).toBeInTheDocument();
    const { email, code, password } = fields(section);

    // No address yet: said, nothing sent.
    await pageUser.click(section.getByText('发送验证码'));
    expect(await screen.findByText('请先填写有效的邮箱')).toBeInTheDocument();
    expect(app.server.requests.filter((r) => r.path === '/api/user/verify-code')).toHaveLength(0);

    await enterText(email, ' New@Example.com ');
    await pageUser.click(section.getByText('发送验证码'));
    await waitFor(() => expect(section.getByText('60 秒后重发')).toBeInTheDocument());
    const codeRequest = app.server.requests.find((r) => r.path === '/api/user/verify-code')!;
    const { uuid, timestamp, sign, ...codeFields } = codeRequest.body as Record<string, unknown>;
    expect(codeFields).toEqual({ email: 'New@Example.com', type: 'change_email' });
    expect(sign).toBe(computeSign('POST', '/api/user/verify-code', codeFields, uuid as string, timestamp as number, DEV_SIGN_SECRET));
    // Asked while signed in: the code is bound to this user.
    expect(codeRequest.headers['Authorization']).toBe('Bearer access-1');

    await enterText(code, '123456');
    await enterText(password, 'Sturdy-Passw0rd!');
    await pageUser.click(section.getByText('修改邮箱', { selector: 'button' }));
    // The toasts come one after another: this one waits for those of the code.
    expect(await screen.findByText('邮箱已改为 new@example.com，其他设备已全部退出登录；提现和转账暂停 24 小时。', undefined, { timeout: 15_000 })).toBeInTheDocument();
    const [request] = changeRequests(app);
    const { uuid: id, timestamp: at, sign: signed, ...sent } = request!.body as Record<string, unknown>;
    expect(sent).toEqual({ email: 'New@Example.com', captcha: '123456', password: 'Sturdy-Passw0rd!' });
    expect(signed).toBe(computeSign('POST', '/api/user/change-email', sent, id as string, at as number, DEV_SIGN_SECRET));
    expect(request!.headers['X-Second-Factor']).toBeUndefined();
    // The page shows the new address and the emptied form.
    await waitFor(() => expect(section.getByText('当前邮箱：new@example.com')).toBeInTheDocument());
    expect(fields(section).password).toHaveValue('');
  });

  it('asks for the second factor when one is on and sends the call again with it', async () => {
    const moved = { ...TEST_USER, email: 'new@example.com' };
    const app = await renderApp(
      '/profile/security',
      routes({
        'POST /api/user/change-email': (request) =>
          request.headers['X-Second-Factor'] === '654321' ? ok(moved) : fail(11100, 'this call needs a second factor', { kinds: ['totp'] }),
      }),
    );
    const section = await openSection();
    const { email, code, password } = fields(section);
    await enterText(email, 'new@example.com');
    await enterText(code, '123456');
    await enterText(password, 'Sturdy-Passw0rd!');
    await pageUser.click(section.getByText('修改邮箱', { selector: 'button' }));
    const dialog = within(
      await waitFor(() => {
        const element = document.querySelector<HTMLElement>('[data-step-up]');
        if (!element) throw new Error('no step-up dialog yet');
        return element;
      }),
    );
    expect(dialog.getByText('请输入身份验证器当前显示的 6 位验证码。')).toBeInTheDocument();
    expect(changeRequests(app)).toHaveLength(1);
    await enterText(dialog.getByLabelText(/^验证码/), '654321');
    await pageUser.click(dialog.getByText('确认'));
    expect(await screen.findByText(/邮箱已改为 new@example.com/, undefined, { timeout: 5000 })).toBeInTheDocument();
    const requests = changeRequests(app);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.headers['X-Second-Factor']).toBe('654321');
    expect(requests[1]!.body).toMatchObject({ email: 'new@example.com', captcha: '123456', password: 'Sturdy-Passw0rd!' });
  });

  it('shows each refusal at its field: a wrong code, a wrong password, an address already taken', async () => {
    const answers = [
      fail(10101, 'wrong verification code', { attemptsLeft: 4 }),
      fail(11002, 'the current password is incorrect', { field: 'password' }),
      fail(10007, 'this email is already registered', { field: 'email' }),
    ];
    const app = await renderApp('/profile/security', routes({ 'POST /api/user/change-email': () => answers.shift()! }));
    const section = await openSection();
    const { email, code, password } = fields(section);
    await enterText(email, 'taken@example.com');
    await enterText(code, '000000');
    await enterText(password, 'Wrong-Passw0rd!');
    const submit = () => pageUser.click(section.getByText('修改邮箱', { selector: 'button' }));

    await submit();
    await waitFor(() => expect(fields(section).code).toHaveAttribute('aria-invalid', 'true'));
    expect(section.getByText('验证码错误')).toBeInTheDocument();

    await submit();
    await waitFor(() => expect(fields(section).password).toHaveAttribute('aria-invalid', 'true'));
    expect(section.getByText('密码错误')).toBeInTheDocument();

    await submit();
    await waitFor(() => expect(fields(section).email).toHaveAttribute('aria-invalid', 'true'));
    expect(section.getByText('此邮箱已被其他账户使用')).toBeInTheDocument();
    expect(changeRequests(app)).toHaveLength(3);
    // Nothing changed: the page still shows the old address.
    expect(section.getByText('当前邮箱：trader@example.com')).toBeInTheDocument();
  });
});
