import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { computeSign, DEV_SIGN_SECRET } from '../../api/signing';
import { fail, ok, type Handler } from '../../testing/fakeServer';
import { TEST_USER, findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { balances, fuelStatus, memberStatus, overview, sessions } from './testData';

vi.mock('./avatar', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./avatar')>()),
  // jsdom has no canvas: the resize itself is the browser's; the page's use of it is tested here.
  resizeAvatar: vi.fn(async () => 'data:image/webp;base64,UklGRg=='),
}));

const sent = (app: Awaited<ReturnType<typeof renderApp>>, path: string) => app.server.requests.filter((r) => r.path === path).map((r) => r.body);
const section = (name: string) => {
  const element = document.querySelector<HTMLElement>(`[data-section="${name}"]`);
  if (!element) throw new Error(`no section ${name}`);
  return element;
};

/** One input event for a whole text (typing it key by key only makes the test slower). */
/** The element once it is there. */
const element = (selector: string) =>
  waitFor(() => {
    const found = document.querySelector<HTMLElement>(selector);
    expect(found).not.toBeNull();
    return found!;
  });

const paste = async (field: HTMLElement, text: string) => {
  await userEvent.click(field);
  await userEvent.paste(text);
};

beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

describe('/profile', () => {
  const routes = (extra: Record<string, Handler> = {}): Record<string, Handler> => ({
    ...identityRoute,
    'GET /api/wallet/balances': () => ok(balances),
    'GET /api/profit/summary': () => ok(overview()),
    ...extra,
  });

  it('shows who I am, my balances and profit, and links to every page of the area', async () => {
    const app = await renderApp('/profile', routes());
    await findHeading('我的');
    const identity = within(await waitFor(() => section('identity')));
    expect(await identity.findByText('Demo')).toBeInTheDocument();
    expect(identity.getByText('trader@example.com')).toBeInTheDocument();
    expect(identity.getByText('V0')).toBeInTheDocument();
    expect(identity.getByText('已激活')).toBeInTheDocument();
    expect(document.querySelector('[data-avatar="initials"]')).toHaveTextContent('DE');

    await waitFor(() => expect(document.querySelector('[data-stat="balance-USDT"]')).toHaveTextContent('1,250.50'));
    expect(document.querySelector('[data-stat="balance-CARD"]')).toHaveTextContent('激活卡2');
    expect(document.querySelector('[data-stat="total"]')).toHaveTextContent('+123.45');
    expect(document.querySelector('[data-stat="today"]')).toHaveTextContent('-1.50');

    const links = within(section('links'));
    for (const [name, href] of [
      ['编辑资料', '/profile/edit'],
      ['安全中心', '/profile/security'],
      ['激活账户', '/profile/activate'],
      ['会员等级', '/profile/member-level'],
      ['燃料', '/profile/fuel'],
      ['收益明细', '/profile/profit-detail'],
      ['收益排行', '/profile/profit-rank'],
      ['邀请好友', '/profile/invite'],
      ['我的社区', '/profile/community'],
      ['钱包', '/profile/wallet'],
      ['USDT 记录', '/profile/wallet/usdt-records'],
      ['API 列表', '/exchange'],
      ['公告', '/article'],
    ]) {
      expect(links.getByRole('link', { name: name! })).toHaveAttribute('href', href);
    }
    expect(links.getByText('退出登录')).toBeInTheDocument();
    // The profit is asked for the browser's days.
    const summary = app.server.requests.find((r) => r.path === '/api/profit/summary');
    expect(new URL(summary!.url, 'http://localhost').searchParams.get('timeZone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('a user not activated yet is asked to activate; a failed part shows its error and the rest still shows', async () => {
    await renderApp(
      '/profile',
      routes({ 'GET /api/user/me': () => ok({ ...TEST_USER, activated: false }), 'GET /api/wallet/balances': () => fail(20002) }),
    );
    await findHeading('我的');
    const identity = within(await waitFor(() => section('identity')));
    expect(await identity.findByText('未激活')).toBeInTheDocument();
    expect(identity.getByRole('link', { name: '去激活' })).toHaveAttribute('href', '/profile/activate');
    expect(await within(section('balances')).findByText('未启用')).toBeInTheDocument();
    expect(within(section('balances')).getByRole('button', { name: '重试' })).toBeInTheDocument();
    await waitFor(() => expect(document.querySelector('[data-stat="total"]')).toHaveTextContent('+123.45'));
  });
});

describe('/profile/edit', () => {
  it('saves the nickname and a new avatar, then shows them (identity refreshed)', async () => {
    let user = { ...TEST_USER };
    const app = await renderApp('/profile/edit', {
      'GET /api/user/me': () => ok(user),
      'GET /api/wallet/balances': () => ok(balances),
      'GET /api/profit/summary': () => ok(overview()),
      'POST /api/user/profile': (request) => {
        user = { ...user, ...(request.body as object) };
        return ok(user);
      },
    });
    const nickname = await screen.findByLabelText(/昵称/, undefined, { timeout: 5000 });
    expect(nickname).toHaveValue('Demo');
    const file = new File(['x'], 'me.png', { type: 'image/png' });
    await userEvent.upload(screen.getByLabelText('选择图片'), file);
    await waitFor(() => expect(document.querySelector('[data-avatar="image"] img')).toHaveAttribute('src', 'data:image/webp;base64,UklGRg=='));
    await userEvent.clear(nickname);
    await paste(nickname, 'Trader Joe');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('资料已保存。')).toBeInTheDocument();
    expect(sent(app, '/api/user/profile')).toEqual([{ nickname: 'Trader Joe', avatar: 'data:image/webp;base64,UklGRg==' }]);
    await findHeading('我的');
    expect(await within(section('identity')).findByText('Trader Joe')).toBeInTheDocument();
  });

  it('removes the avatar and refuses a one-letter nickname without calling', async () => {
    const app = await renderApp('/profile/edit', {
      'GET /api/user/me': () => ok({ ...TEST_USER, avatar: 'data:image/png;base64,AAAA' }),
      'POST /api/user/profile': (request) => ok({ ...TEST_USER, ...(request.body as object) }),
    });
    const nickname = await screen.findByLabelText(/昵称/, undefined, { timeout: 5000 });
    await userEvent.click(screen.getByRole('button', { name: '移除头像' }));
    expect(document.querySelector('[data-avatar="initials"]')).not.toBeNull();
    await userEvent.clear(nickname);
    await userEvent.type(nickname, 'D');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(nickname).toHaveAttribute('aria-invalid', 'true'));
    expect(sent(app, '/api/user/profile')).toHaveLength(0);
    await userEvent.type(nickname, 'a');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(sent(app, '/api/user/profile')).toEqual([{ nickname: 'Da', avatar: null }]));
  });
});

describe('/profile/activate', () => {
  it('offers both ways with their prices and my balances; pays with the method and an idempotency key; 11003 is explained', async () => {
    const app = await renderApp('/profile/activate', {
      ...identityRoute,
      'GET /api/member/status': () => ok(memberStatus()),
      'GET /api/wallet/balances': () => ok(balances),
      'POST /api/member/activate': () => fail(11003, 'insufficient balance'),
    });
    const card = within(await screen.findByRole('button', { name: '用激活卡激活' }, { timeout: 5000 }).then((button) => button.closest<HTMLElement>('[data-method="card"]')!));
    expect(card.getByText('1 张激活卡')).toBeInTheDocument();
    expect(within(document.querySelector<HTMLElement>('[data-method="usdt"]')!).getByText('100.00 USDT')).toBeInTheDocument();
    await waitFor(() => expect(document.querySelector('[data-available="card"]')).toHaveTextContent('当前余额：2 张激活卡'), { timeout: 5000 });

    await userEvent.click(card.getByRole('button', { name: '用激活卡激活' }));
    const dialog = await screen.findByRole('dialog', undefined, { timeout: 5000 });
    expect(dialog).toHaveTextContent('将从钱包扣除 1 张激活卡');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认' }));

    const refused = await waitFor(() => {
      const alert = document.querySelector('[data-state="refused"]');
      expect(alert).not.toBeNull();
      return alert!;
    }, { timeout: 5000 });
    expect(refused).toHaveTextContent('激活卡不足：激活需要 1 张激活卡，您有 2 张激活卡。');
    // The page is hidden from the accessibility tree until the dialog has gone.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 5000 });
    expect(within(refused as HTMLElement).getByRole('link', { name: '去充值' })).toHaveAttribute('href', '/profile/wallet');
    const [body] = sent(app, '/api/member/activate');
    expect(body).toEqual({ method: 'card', idempotencyKey: expect.stringMatching(/^[0-9a-f]{32}$/) });
  });

  it('after paying shows the account activated; 10007 says it already is; an activated account shows its state', async () => {
    let activated = false;
    const app = await renderApp('/profile/activate', {
      'GET /api/user/me': () => ok({ ...TEST_USER, activated }),
      'GET /api/member/status': () => ok(memberStatus({ activated, activatedAt: activated ? '2026-03-01T08:00:00.000Z' : null })),
      'GET /api/wallet/balances': () => ok(balances),
      'POST /api/member/activate': () => {
        activated = true;
        return ok(memberStatus({ activated: true, activatedAt: '2026-03-01T08:00:00.000Z' }));
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: '用 USDT 激活' }, { timeout: 5000 }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确认' }));
    expect(await screen.findByText('账户已激活')).toBeInTheDocument();
    expect(sent(app, '/api/member/activate')[0]).toMatchObject({ method: 'usdt' });
    // The identity is asked again after the payment (level, activated).
    await waitFor(() => expect(app.server.requests.slice(app.server.requests.findIndex((r) => r.path === '/api/member/activate')).some((r) => r.path === '/api/user/me')).toBe(true));
  });

  it('shows 10007 as "already activated"', async () => {
    await renderApp('/profile/activate', {
      ...identityRoute,
      'GET /api/member/status': () => ok(memberStatus()),
      'GET /api/wallet/balances': () => ok(balances),
      'POST /api/member/activate': () => fail(10007),
    });
    await userEvent.click(await screen.findByRole('button', { name: '用 USDT 激活' }, { timeout: 5000 }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(document.querySelector('[data-state="refused"]')).toHaveTextContent('账户已经激活过了。'));
  });

  it('shows the error of the status call', async () => {
    await renderApp('/profile/activate', { ...identityRoute, 'GET /api/member/status': () => fail(99999) });
    expect(await screen.findByText('未知错误')).toBeInTheDocument();
  });
});

describe('/profile/member-level', () => {
  it('shows my level, each level with its requirements and benefits, and my progress to the next', async () => {
    await renderApp('/profile/member-level', { ...identityRoute, 'GET /api/member/status': () => ok(memberStatus({ level: 0 })) });
    await waitFor(() => expect(document.querySelector('[data-progress="direct"]')).not.toBeNull(), { timeout: 5000 });
    expect(screen.getByText('距离 V1')).toBeInTheDocument();
    expect(document.querySelector('[data-progress="direct"]')).toHaveAttribute('data-percent', '66.7');
    expect(document.querySelector('[data-progress="direct"]')).toHaveTextContent('2 / 3');
    expect(document.querySelector('[data-progress="team"]')).toHaveAttribute('data-percent', '50');
    expect(document.querySelector('[data-progress="teamVolume"]')).toHaveAttribute('data-percent', '25');
    const row = within(document.querySelector<HTMLElement>('[data-level-row="2"]')!);
    expect(row.getByText('100,000.00 USDT')).toBeInTheDocument();
    expect(row.getByText('20%')).toBeInTheDocument();
    expect(row.getByText('20')).toBeInTheDocument();
    expect(document.querySelector('[data-level-row="0"]')).toHaveTextContent('当前');
  });

  it('at the top level says so; with no level configured says that', async () => {
    await renderApp('/profile/member-level', { ...identityRoute, 'GET /api/member/status': () => ok(memberStatus({ level: 2, next: null, levels: [] })) });
    expect(await screen.findByText('您已是最高等级。', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('暂未配置会员等级。')).toBeInTheDocument();
  });
});

describe('/profile/fuel', () => {
  it('shows balance, rates, charges, tasks waiting with the explanation, the way to top up and the records', async () => {
    const app = await renderApp('/profile/fuel', {
      ...identityRoute,
      'GET /api/member/fuel': () => ok(fuelStatus({ pausedTasks: 2, balance: '0' })),
      'GET /api/wallet/records': () =>
        ok({ list: [{ id: 'r1', transactionId: 'x1', asset: 'FUEL', kind: 'fuel_charge', amount: '-1.2', balanceAfter: '0', detail: {}, createdAt: '2026-03-01T08:00:00.000Z' }], total: 1 }),
    });
    await waitFor(() => expect(document.querySelector('[data-stat="rate"]')).toHaveTextContent('18%'), { timeout: 5000 });
    expect(document.querySelector('[data-stat="rate"]')).toHaveTextContent('基础费率 20%');
    expect(document.querySelector('[data-stat="charged"]')).toHaveTextContent('40.25');
    expect(document.querySelector('[data-state="paused"]')).toHaveTextContent('有 2 个任务在等待燃料：它们已完成当前一轮，补充燃料之前不会开启新一轮。');
    expect(screen.getAllByRole('link', { name: '用 USDT 兑换燃料' })[0]).toHaveAttribute('href', '/profile/wallet/exchange?from=USDT&to=FUEL');
    expect(await screen.findByText('轮次扣费', undefined, { timeout: 5000 })).toBeInTheDocument();
    const records = app.server.requests.find((r) => r.path === '/api/wallet/records')!;
    expect(new URL(records.url, 'http://localhost').searchParams.get('asset')).toBe('FUEL');
  });

  it('without records or waiting tasks shows neither; a failed call shows its error', async () => {
    await renderApp('/profile/fuel', {
      ...identityRoute,
      'GET /api/member/fuel': () => ok(fuelStatus()),
      'GET /api/wallet/records': () => ok({ list: [], total: 0 }),
    });
    expect(await screen.findByText('暂无燃料记录。')).toBeInTheDocument();
    expect(document.querySelector('[data-state="paused"]')).toBeNull();
  });

  it('shows the error of the fuel call', async () => {
    await renderApp('/profile/fuel', { ...identityRoute, 'GET /api/member/fuel': () => fail(11001) });
    expect(await screen.findByText('用户未激活', undefined, { timeout: 5000 })).toBeInTheDocument();
  });
});

describe('/profile/security', () => {
  const routes = (extra: Record<string, Handler> = {}): Record<string, Handler> => ({
    ...identityRoute,
    'GET /api/user/sessions': () => ok(sessions),
    'GET /api/user/widget-tokens': () => ok([]),
    ...extra,
  });
  const fill = async (old: string, next: string, repeat = next) => {
    await paste(await screen.findByLabelText(/当前密码/, undefined, { timeout: 5000 }), old);
    await paste(screen.getByLabelText(/^新密码/), next);
    await paste(screen.getByLabelText(/确认密码/), repeat);
    await userEvent.click(screen.getByRole('button', { name: '修改密码' }));
  };

  it('changes the password with a signed call and says the other sessions were ended', async () => {
    const app = await renderApp('/profile/security', routes({ 'POST /api/user/change-password': () => ok(null) }));
    await fill('Old-Password-1', 'New-Password-22');
    expect(await screen.findByText('密码已修改，其他设备已全部退出登录。')).toBeInTheDocument();
    const request = app.server.requests.find((r) => r.path === '/api/user/change-password')!;
    const { uuid, timestamp, sign, ...fields } = request.body as Record<string, unknown>;
    expect(fields).toEqual({ oldPassword: 'Old-Password-1', newPassword: 'New-Password-22', secondPassword: 'New-Password-22' });
    expect(sign).toBe(computeSign('POST', '/api/user/change-password', fields, uuid as string, timestamp as number, DEV_SIGN_SECRET));
  });

  it('shows 11002 on the current password; a repeat that differs is refused without calling', async () => {
    const app = await renderApp('/profile/security', routes({ 'POST /api/user/change-password': () => fail(11002, 'password error') }));
    await fill('Old-Password-1', 'New-Password-22', 'New-Password-23');
    expect(await screen.findByText('两次输入的密码不一致')).toBeInTheDocument();
    expect(sent(app, '/api/user/change-password')).toHaveLength(0);
    const repeat = screen.getByLabelText(/确认密码/);
    await userEvent.clear(repeat);
    await paste(repeat, 'New-Password-22');
    await userEvent.click(screen.getByRole('button', { name: '修改密码' }));
    await waitFor(() => expect(screen.getAllByText('密码错误').length).toBeGreaterThanOrEqual(1));
    expect(screen.getByLabelText(/当前密码/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('lists the sessions (device, IP, current marked) and revokes one after confirmation', async () => {
    let list = sessions;
    const app = await renderApp(
      '/profile/security',
      routes({
        'GET /api/user/sessions': () => ok(list),
        'POST /api/user/sessions/revoke': (request) => {
          list = list.filter((s) => s.id !== request.body?.id);
          return ok(null);
        },
      }),
    );
    await waitFor(() => expect(document.querySelector('[data-session="d0000000-0000-4000-8000-000000000001"]')).not.toBeNull());
    const current = within(document.querySelector<HTMLElement>('[data-session="d0000000-0000-4000-8000-000000000002"]')!);
    expect(current.getByText('Chrome · Windows')).toBeInTheDocument();
    expect(current.getByText('本机')).toBeInTheDocument();
    expect(current.queryByRole('button', { name: '退出登录' })).toBeNull();
    const phone = within(document.querySelector<HTMLElement>('[data-session="d0000000-0000-4000-8000-000000000001"]')!);
    expect(phone.getByText('Safari · iPhone')).toBeInTheDocument();
    expect(phone.getByText('IP 10.0.0.2')).toBeInTheDocument();
    await userEvent.click(phone.getByRole('button', { name: '退出登录' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Safari · iPhone（10.0.0.2）需要重新登录。');
    expect(sent(app, '/api/user/sessions/revoke')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(sent(app, '/api/user/sessions/revoke')).toEqual([{ id: 'd0000000-0000-4000-8000-000000000001' }]));
    await waitFor(() => expect(document.querySelector('[data-session="d0000000-0000-4000-8000-000000000001"]')).toBeNull());
  });

  it('allows a site at its address: the embed code first, the token, partner key and curl under "开发者", then lists it', async () => {
    const issued = {
      id: 'd0000000-0000-4000-8000-000000000011',
      name: '合作博客',
      origin: 'https://blog.example',
      embedToken: 'qtw_embed-token-0123456789',
      token: 'eyJ.widget.token',
      key: 'partner-key-0123456789abcdef',
      expiresAt: '2026-11-20T09:00:00.000Z',
    };
    let grants: object[] = [];
    const app = await renderApp(
      '/profile/security',
      routes({
        'GET /api/user/widget-tokens': () => ok(grants),
        'POST /api/user/widget-token': () => {
          grants = [{ id: issued.id, name: '合作博客', origin: issued.origin, createdAt: '2026-11-20T08:00:00.000Z', lastIssuedAt: '2026-11-20T08:00:00.000Z', expiresAt: issued.expiresAt }];
          return ok(issued);
        },
      }),
    );
    // The page is loaded lazily: on a busy machine that may take longer than a second.
    expect(await screen.findByText('尚未授权任何网站。', undefined, { timeout: 10_000 })).toBeInTheDocument();
    const section = within(await element('[data-section="widget-grants"]'));
    // The name and the address are required: nothing is sent without them.
    await userEvent.click(section.getByRole('button', { name: '授权网站' }));
    expect((await section.findAllByText('必填')).length).toBe(2);
    expect(sent(app, '/api/user/widget-token')).toHaveLength(0);

    await paste(section.getByRole('textbox', { name: /网站名称/ }), '  合作博客 ');
    // An address with a path is no site origin: said at the field, nothing sent.
    await paste(section.getByRole('textbox', { name: /网站地址/ }), 'https://blog.example/posts/1');
    await userEvent.click(section.getByRole('button', { name: '授权网站' }));
    expect(await section.findByText('请按 https://blog.example 的格式填写网站地址：协议、域名和端口，不含路径。')).toBeInTheDocument();
    expect(sent(app, '/api/user/widget-token')).toHaveLength(0);

    await userEvent.clear(section.getByRole('textbox', { name: /网站地址/ }));
    await paste(section.getByRole('textbox', { name: /网站地址/ }), 'https://Blog.Example/');
    await userEvent.click(section.getByRole('button', { name: '授权网站' }));
    await waitFor(() => expect(sent(app, '/api/user/widget-token')).toEqual([{ name: '合作博客', origin: 'https://blog.example' }]));
    const shown = within(await element('[data-state="issued"]'));
    // First: copy the embed code, which carries the lasting embed token.
    const buttons = shown.getAllByRole('button');
    expect(buttons[0]).toHaveTextContent('复制嵌入代码');
    const embed = document.querySelector('[data-copy="embed"]');
    expect(embed).toHaveTextContent(`<script src="${window.location.origin}/widgets/qt-widgets.iife.js"></script>`);
    expect(embed).toHaveTextContent(`<qt-profit-card api-base="${window.location.origin}" token="qtw_embed-token-0123456789" locale="zh-CN"></qt-profit-card>`);
    expect(embed).not.toHaveTextContent('eyJ.widget.token');
    expect(shown.getByText(/把它粘贴到 https:\/\/blog\.example 的网页中/)).toBeInTheDocument();
    // The developers' fold holds the short-lived token, the partner key and the curl example.
    const fold = document.querySelector('[data-fold="developer"]') as HTMLElement;
    expect(within(fold).getByRole('button', { name: '开发者' })).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(within(fold).getByRole('button', { name: '开发者' }));
    expect(within(fold).getByRole('button', { name: '开发者' })).toHaveAttribute('aria-expanded', 'true');
    expect(within(fold).getByText(/合作密钥只显示这一次/)).toBeInTheDocument();
    expect(fold.querySelector('[data-copy="widget-token"]')).toHaveTextContent('eyJ.widget.token');
    expect(fold.querySelector('[data-copy="partner-key"]')).toHaveTextContent('partner-key-0123456789abcdef');
    expect(fold.querySelector('[data-copy="renew"]')).toHaveTextContent('"key":"partner-key-0123456789abcdef"');
    expect(await section.findByText('合作博客')).toBeInTheDocument();
    expect(section.getByText('网站 https://blog.example')).toBeInTheDocument();
    expect(section.getByText('嵌入代码长期有效，直到撤销')).toBeInTheDocument();
    // Done: the key and the embed token are gone from the page for good.
    await userEvent.click(shown.getByRole('button', { name: '完成' }));
    expect(screen.queryByText(/partner-key-0123456789abcdef/)).toBeNull();
    expect(screen.queryByText(/qtw_embed-token/)).toBeNull();
    expect(section.getByRole('button', { name: '授权网站' })).toBeInTheDocument();
  });

  it('revokes a partner site after confirmation; the limit is said at the name', async () => {
    let grants = [{ id: 'd0000000-0000-4000-8000-000000000011', name: 'blog.example', origin: 'https://blog.example', createdAt: '2026-11-20T08:00:00.000Z', lastIssuedAt: '2026-11-20T08:30:00.000Z', expiresAt: '2026-11-20T09:30:00.000Z' }];
    const app = await renderApp(
      '/profile/security',
      routes({
        'GET /api/user/widget-tokens': () => ok(grants),
        'POST /api/user/widget-tokens/revoke': (request) => {
          grants = grants.filter((g) => g.id !== request.body?.id);
          return ok(null);
        },
        'POST /api/user/widget-token': () => fail(10005, 'at most 20 widget grants; revoke one first', { field: 'name', max: 20 }),
      }),
    );
    const row = within(await element('[data-widget-grant="d0000000-0000-4000-8000-000000000011"]'));
    expect(row.getByText('blog.example')).toBeInTheDocument();
    await paste(screen.getByRole('textbox', { name: /网站名称/ }), 'another');
    await paste(screen.getByRole('textbox', { name: /网站地址/ }), 'https://another.example');
    await userEvent.click(screen.getByRole('button', { name: '授权网站' }));
    expect((await screen.findAllByText('最多授权 20 个网站，请先撤销一个。')).length).toBeGreaterThanOrEqual(1);

    await userEvent.click(row.getByRole('button', { name: '撤销' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('blog.example 上的小组件将立即停止显示您的数据，其嵌入代码和合作密钥也将失效。');
    expect(sent(app, '/api/user/widget-tokens/revoke')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(sent(app, '/api/user/widget-tokens/revoke')).toEqual([{ id: 'd0000000-0000-4000-8000-000000000011' }]));
    expect(await screen.findByText('尚未授权任何网站。')).toBeInTheDocument();
  });

  it('shows the error of the session list', async () => {
    await renderApp('/profile/security', routes({ 'GET /api/user/sessions': () => fail(11005) }));
    expect(await screen.findByText('未授权')).toBeInTheDocument();
  });
});
