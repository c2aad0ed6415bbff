import { configure, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminDeposit } from '../../api/admin';
import { ok, okRange, type RecordedRequest } from '../../testing/fakeServer';
import { enterText, findHeading, renderApp, startSignedInZhCN, pageUser } from '../../testing/renderApp';
import { asRole, deposit, settings, user, withdrawal } from './consoleFixtures';

type App = Awaited<ReturnType<typeof renderApp>>;
const bodies = (app: App, path: string, method = 'POST') => app.server.requests.filter((r) => r.path === path && r.method === method).map((r) => r.body);
/** The JSON parameters of a console list request (ra-data-simple-rest's sort, range and filter). */
const listParams = (request: RecordedRequest) => Object.fromEntries([...new URL(request.url, 'http://x').searchParams].map(([key, value]) => [key, JSON.parse(value)]));
const adminCalls = (app: App) => app.server.requests.filter((r) => r.path.startsWith('/api/admin/'));
// Each list's sortable headers: Console.sort.test.tsx; articles: Console.articles.test.tsx.

// The console is a separate chunk loaded on first use: give the first page time.
configure({ asyncUtilTimeout: 10000 });
// Forms of many inputs re-render on every key: slow in jsdom on a busy machine.
vi.setConfig({ testTimeout: 60000 });

let session = 0;
beforeEach(async () => {
  await startSignedInZhCN();
  // The page's authProvider remembers the identity per access token: a new token per test, a new role.
  localStorage.setItem('accessToken', `console-access-${++session}`);
});
afterEach(() => vi.unstubAllGlobals());

describe('who sees the operator console', () => {
  it('an ordinary user has no console menu group and no console routes', async () => {
    const app = await renderApp('/admin/users', { ...asRole('user'), 'GET /api/admin/users': okRange('users', [user]) });
    expect(await findHeading('页面不存在')).toBeInTheDocument();
    expect(document.querySelector('[data-section="operator-menu"]')).toBeNull();
    expect(screen.queryByRole('menuitem', { name: '用户管理' })).toBeNull();
    // The four tabs are still there.
    for (const tab of ['首页', '交易', '策略', '我的']) expect(screen.getAllByRole('menuitem', { name: tab }).length).toBeGreaterThan(0);
    expect(adminCalls(app)).toHaveLength(0);
  });

  it('an operator gets the menu group and the console pages', async () => {
    const app = await renderApp('/admin/users', {
      ...asRole('operator'),
      'GET /api/admin/users': okRange('users', [user]),
    });
    const group = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-section="operator-menu"]');
      expect(el).not.toBeNull();
      return el!;
    });
    expect(within(group).getByText('运营后台')).toBeInTheDocument();
    for (const name of ['用户管理', '充值审核', '提现审核', '文章管理', '会员等级', '系统设置', '操作日志']) {
      expect(within(group).getByRole('menuitem', { name })).toHaveAttribute('href', expect.stringMatching(/^\/admin\//));
    }
    expect(await screen.findByText('bob@example.com')).toBeInTheDocument();
    expect(screen.getByText('120.50')).toBeInTheDocument();
    const [first] = adminCalls(app);
    expect(first!.path).toBe('/api/admin/users');
    // ra-data-simple-rest's dialect: sort, range and filter as JSON.
    expect(listParams(first!)).toEqual({ sort: ['createdAt', 'DESC'], range: [0, 19], filter: {} });
    expect(first!.headers.Authorization).toMatch(/^Bearer console-access-/);
  });

  it('filters users by search text', async () => {
    const app = await renderApp('/admin/users', { ...asRole('operator'), 'GET /api/admin/users': okRange('users', [user]) });
    await screen.findByText('bob@example.com');
    await enterText(screen.getByPlaceholderText('邮箱或昵称'), 'bob');
    await waitFor(
      () => {
        const last = adminCalls(app).filter((r) => r.path === '/api/admin/users').at(-1)!;
        expect(listParams(last).filter).toEqual({ q: 'bob' });
      },
      { timeout: 5000 },
    );
  });

  it('edits a user: only the changed fields are sent', async () => {
    const app = await renderApp('/admin/users/u2', {
      ...asRole('operator'),
      'GET /api/admin/users/u2': () => ok(user),
      'PUT /api/admin/users/u2': (req) => ok({ ...user, ...req.body }),
      'GET /api/admin/users': okRange('users', [user]),
    });
    const disabled = await screen.findByRole('switch', { name: '已禁用' });
    await pageUser.click(disabled);
    await pageUser.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(bodies(app, '/api/admin/users/u2', 'PUT')).toEqual([{ disabled: true }]));
  });
});

describe('deposits and withdrawals', () => {
  it('confirms a pending deposit after asking', async () => {
    let status: AdminDeposit['status'] = 'pending';
    const app = await renderApp('/admin/deposits', {
      ...asRole('operator'),
      'GET /api/admin/deposits': (req) => okRange('deposits', listParams(req).filter.status === status ? [{ ...deposit, status }] : [])(req),
      'PUT /api/admin/deposits/d1': () => {
        status = 'confirmed';
        return ok({ ...deposit, status });
      },
    });
    await screen.findByText('bob@example.com');
    expect(listParams(adminCalls(app)[0]!).filter).toEqual({ status: 'pending' });
    await pageUser.click(screen.getByRole('button', { name: '确认到账' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('确认为 bob@example.com 入账 100 USDT 吗？');
    expect(bodies(app, '/api/admin/deposits/d1', 'PUT')).toHaveLength(0);
    await pageUser.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(bodies(app, '/api/admin/deposits/d1', 'PUT')).toEqual([{ status: 'confirmed' }]));
    expect(await screen.findByText('充值已确认，已为用户入账')).toBeInTheDocument();
    // Reloaded: the decided deposit has left the pending queue.
    await waitFor(() => expect(screen.queryByRole('button', { name: '确认到账' })).toBeNull());
    expect(screen.queryByText('bob@example.com')).toBeNull();
  });

  it('rejects a pending withdrawal only with a reason', async () => {
    const app = await renderApp('/admin/withdrawals', {
      ...asRole('operator'),
      'GET /api/admin/withdrawals': okRange('withdrawals', [withdrawal]),
      'PUT /api/admin/withdrawals/w1': (req) => ok({ ...withdrawal, ...req.body }),
    });
    await screen.findByText('TYdest');
    await pageUser.click(screen.getByRole('button', { name: '驳回' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('金额和手续费将退回用户');
    // No reason: nothing is sent.
    await pageUser.click(within(dialog).getByRole('button', { name: '驳回' }));
    expect(await within(dialog).findByText('必填')).toBeInTheDocument();
    expect(bodies(app, '/api/admin/withdrawals/w1', 'PUT')).toHaveLength(0);
    await enterText(within(dialog).getByRole('textbox', { name: /原因/ }), '地址不在白名单');
    await pageUser.click(within(dialog).getByRole('button', { name: '驳回' }));
    await waitFor(() => expect(bodies(app, '/api/admin/withdrawals/w1', 'PUT')).toEqual([{ status: 'rejected', reason: '地址不在白名单' }]));
  });

  it('approves a withdrawal with an optional transaction hash', async () => {
    const app = await renderApp('/admin/withdrawals', {
      ...asRole('operator'),
      'GET /api/admin/withdrawals': okRange('withdrawals', [withdrawal]),
      'PUT /api/admin/withdrawals/w1': () => ok({ ...withdrawal, status: 'approved' }),
    });
    await screen.findByText('TYdest');
    await pageUser.click(screen.getByRole('button', { name: '通过' }));
    const dialog = await screen.findByRole('dialog');
    await pageUser.click(within(dialog).getByRole('button', { name: '通过' }));
    await waitFor(() => expect(bodies(app, '/api/admin/withdrawals/w1', 'PUT')).toEqual([{ status: 'approved' }]));
  });
});

describe('decisions refused by the server', () => {
  it('shows the catalogue text of the refusal and keeps the row', async () => {
    const app = await renderApp('/admin/deposits', {
      ...asRole('operator'),
      'GET /api/admin/deposits': okRange('deposits', [deposit]),
      'PUT /api/admin/deposits/d1': () => ({ body: { code: 10008, message: 'the deposit is already confirmed', data: { status: 'confirmed' } } }),
    });
    await screen.findByText('bob@example.com');
    await pageUser.click(screen.getByRole('button', { name: '确认到账' }));
    await pageUser.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确认' }));
    expect(await screen.findByText('无效')).toBeInTheDocument();
    expect(bodies(app, '/api/admin/deposits/d1', 'PUT')).toEqual([{ status: 'confirmed' }]);
    expect(screen.getByText('bob@example.com')).toBeInTheDocument();
  });
});

describe('member levels', () => {
  const levels = settings.levels.map((l) => ({ id: l.level, ...l }));

  it('lists the levels and edits one: only the changed fields are sent, decimals as strings', async () => {
    const app = await renderApp('/admin/levels/1', {
      ...asRole('operator'),
      'GET /api/admin/levels': okRange('levels', levels),
      'GET /api/admin/levels/1': () => ok(levels[1]),
      'PUT /api/admin/levels/1': (req) => ok({ ...levels[1], ...req.body }),
    });
    const volume = await screen.findByRole('textbox', { name: /团队业绩/ });
    expect(volume).toHaveValue('10000');
    await pageUser.clear(volume);
    await enterText(volume, '12000.5');
    const limit = screen.getByRole('spinbutton', { name: /任务上限/ });
    await pageUser.clear(limit);
    await enterText(limit, '12');
    // The top level may be removed; the form shows the button only there.
    expect(await screen.findByRole('button', { name: '删除' })).toBeInTheDocument();
    await pageUser.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(bodies(app, '/api/admin/levels/1', 'PUT')).toEqual([{ minTeamVolume: '12000.5', taskLimit: 12 }]));
    await waitFor(() => expect(app.pathname()).toBe('/admin/levels'));
    expect(await screen.findByText('10,000.00')).toBeInTheDocument();
  });

  it('adds a level on top and offers no removal below the top', async () => {
    const app = await renderApp('/admin/levels/create', {
      ...asRole('operator'),
      'GET /api/admin/levels': okRange('levels', levels),
      'POST /api/admin/levels': (req) => ok({ id: 2, level: 2, ...req.body }),
    });
    const field = (name: RegExp) => screen.findByRole(name.source.includes('团队业绩') || name.source.includes('燃料') ? 'textbox' : 'spinbutton', { name });
    const values: [RegExp, string][] = [
      [/直推人数/, '5'],
      [/团队人数/, '30'],
      [/团队业绩/, '50000'],
      [/燃料折扣/, '15'],
      [/任务上限/, '40'],
    ];
    for (const [name, value] of values) {
      await enterText(await field(name), value);
    }
    await pageUser.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(bodies(app, '/api/admin/levels')).toEqual([{ minDirect: 5, minTeam: 30, minTeamVolume: '50000', fuelDiscountPercent: '15', taskLimit: 40 }]),
    );
  });

  it('offers no removal for a level below the top', async () => {
    const three = [...levels, { ...levels[1]!, id: 2, level: 2, minDirect: 5 }];
    await renderApp('/admin/levels/1', {
      ...asRole('operator'),
      'GET /api/admin/levels': okRange('levels', three),
      'GET /api/admin/levels/1': () => ok(three[1]),
    });
    await screen.findByRole('textbox', { name: /团队业绩/ });
    await waitFor(() => expect(screen.getByRole('button', { name: '保存' })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
  });
});

describe('settings', () => {
  it('saves only what changed', async () => {
    const app = await renderApp('/admin/settings', {
      ...asRole('operator'),
      'GET /api/admin/settings': () => ok(settings),
      'POST /api/admin/settings/edit': (req) => ok({ ...settings, ...req.body }),
    });
    await findHeading('系统设置');
    const fee = await screen.findByRole('textbox', { name: /提现手续费/ });
    expect(fee).toHaveValue('1');
    await pageUser.clear(fee);
    await enterText(fee, '2.5');
    await pageUser.click(screen.getByRole('button', { name: '保存修改' }));
    await waitFor(() => expect(bodies(app, '/api/admin/settings/edit')).toEqual([{ withdrawFee: '2.5' }]));
    expect(await screen.findByText('设置已保存')).toBeInTheDocument();
  });

  it('refuses a malformed amount without sending anything', async () => {
    const app = await renderApp('/admin/settings', { ...asRole('operator'), 'GET /api/admin/settings': () => ok(settings) });
    const min = await screen.findByRole('textbox', { name: /最低提现/ });
    await pageUser.clear(min);
    await enterText(min, '1e3');
    await pageUser.click(screen.getByRole('button', { name: '保存修改' }));
    expect(await screen.findByText('请输入非负数，例如 10 或 0.5')).toBeInTheDocument();
    expect(bodies(app, '/api/admin/settings/edit')).toHaveLength(0);
  });
});

describe('engine', () => {
  it("shows the engine's pace, a shared outage, its tasks in trouble, refused prices and a replay's progress", async () => {
    await renderApp('/admin/engine', {
      ...asRole('operator'),
      'GET /api/engine/status': () =>
        ok({
          running: true,
          startedAt: '2026-11-24T08:00:00.000Z',
          ticks: 43_210,
          tickMs: 1000,
          lastTickAt: '2026-11-24T10:00:00.000Z',
          lastTickMs: 12,
          maxTickMs: 340,
          lagMs: 0,
          failedTicks: 1234,
          // The database took no writes for a while: one outage, no task paused for it.
          outages: [{ dependency: 'database', exchange: null, since: '2026-11-24T09:58:00.000Z', failedTicks: 1234, message: 'cannot execute UPDATE in a read-only transaction' }],
          marketTime: '2023-03-05T12:00:00.000Z',
          tasks: { loaded: 12, running: 10, attention: 2, failing: 1 },
          unusablePrices: ['ETH/USDT'],
          replay: { symbol: 'BTC/USDT', total: 30240, played: 7500, candleTime: '2023-03-05T12:00:00.000Z', started: true, done: false },
          // One process on the embedded database: no cluster.
          cluster: null,
        }),
    });
    await findHeading('交易引擎');
    const health = await screen.findByRole('region', { name: '运行状况' });
    expect(within(health).getByText('运行正常')).toBeInTheDocument();
    expect(within(health).getByText('12 毫秒 / 340 毫秒')).toBeInTheDocument();
    expect(within(health).getByText('43,210')).toBeInTheDocument();
    expect(screen.getByText(/^数据库自 .+ 起无法写入（1,234 次失败）。没有任务被暂停，恢复后继续运行。$/).closest('[data-outage]')).toHaveAttribute('data-outage', 'database');
    const tasks = screen.getByRole('region', { name: '任务' });
    expect(within(tasks).getByText('需要处理').nextSibling).toHaveTextContent('2');
    expect(within(tasks).getByText('以下交易对的价格无效（为 0、负数或非数字），已拒绝：ETH/USDT。相关任务等待中。')).toBeInTheDocument();
    const replay = screen.getByRole('region', { name: '历史 K 线回放' });
    expect(within(replay).getByText('回放中')).toBeInTheDocument();
    expect(within(replay).getByText('7,500 / 30,240')).toBeInTheDocument();
  });
});
