import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '../../api/notify';
import { eventStream, ok, type Handler } from '../../testing/fakeServer';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';

const TASK = 'a0000000-0000-4000-8000-000000000001';
const fill: Notification = {
  id: '2',
  kind: 'trade.fill',
  taskId: TASK,
  payload: { side: 'buy', level: 0, price: '58480.12', amount: '10', cycle: 1, symbol: 'BTC/USDT' },
  createdAt: '2026-01-10T10:00:00.000Z',
  read: false,
};
const closed: Notification = {
  id: '1',
  kind: 'trade.cycle_closed',
  taskId: TASK,
  payload: { cycle: 3, profit: '1.82', roi: '0.91', seconds: 3600, symbol: 'BTC/USDT' },
  createdAt: '2026-01-10T09:00:00.000Z',
  read: true,
};

const inbox = (items = [fill, closed]) => {
  const unread = () => ({ count: items.filter((item) => !item.read).length });
  const preferences = {
    channels: ['inapp', 'email'],
    list: [{ kind: 'trade.fill', channel: 'email', enabled: false }],
    timing: [
      { kind: 'trade.fill', timing: 'immediate' },
      { kind: 'trade.cycle_closed', timing: 'immediate' },
    ],
  };
  const routes: Record<string, Handler> = {
    ...identityRoute,
    'GET /api/notifications/unread-count': () => ok(unread()),
    'GET /api/notifications': (request) => {
      const query = new URL(request.url, 'http://localhost').searchParams;
      const list = items.filter((item) => (query.get('unread') === 'true' ? !item.read : true) && (query.get('kind') ? item.kind === query.get('kind') : true));
      return ok({ list, total: list.length });
    },
    'POST /api/notifications/read': (request) => {
      const ids = (request.body?.['ids'] as string[] | undefined) ?? items.map((item) => item.id);
      items = items.map((item) => (ids.includes(item.id) ? { ...item, read: true } : item));
      return ok(unread());
    },
    'GET /api/notifications/preferences': () => ok(preferences),
    'PUT /api/notifications/preferences': (request) => {
      const list = request.body?.['list'] as { kind: string; channel: string; enabled: boolean }[] | undefined;
      if (list) preferences.list = list;
      const timing = request.body?.['timing'] as { kind: string; timing: string }[] | undefined;
      if (timing) preferences.timing = preferences.timing.map((t) => timing.find((change) => change.kind === t.kind) ?? t);
      return ok(preferences);
    },
  };
  return routes;
};

beforeEach(async () => {
  localStorage.clear();
  await startSignedInZhCN();
});
afterEach(() => vi.unstubAllGlobals());

describe('notifications', () => {
  it('counts the unread in the bell, lists them with a link to the task, marks them read', async () => {
    const { server } = await renderApp('/notifications', inbox());
    await findHeading('通知');
    expect(await screen.findByRole('button', { name: '通知，1 条未读' })).toBeInTheDocument();
    expect(await screen.findByText('BTC/USDT 第 1 档买入：10.00 USDT，价格 58,480.12')).toBeInTheDocument();
    expect(screen.getByText('BTC/USDT 第 3 轮完成：+1.82 USDT（+0.91%）')).toBeInTheDocument();
    const links = screen.getAllByRole('link', { name: '查看任务' });
    expect(links[0]).toHaveAttribute('href', expect.stringContaining(`/trade/detail/${TASK}`));

    await userEvent.click(screen.getByRole('button', { name: '标为已读' }));
    await waitFor(() => expect(screen.getByRole('button', { name: '通知，0 条未读' })).toBeInTheDocument());
    expect(server.requests.find((r) => r.path === '/api/notifications/read')?.body).toEqual({ ids: ['2'] });
    expect(screen.queryByRole('button', { name: '标为已读' })).toBeNull();
  });

  it("says a paper account fell back to simulated prices and came back, with a link to the accounts", async () => {
    const account = { accountId: 'b0000000-0000-4000-8000-000000000001', account: '模拟一号', source: 'binance', sourceName: 'Binance' };
    const notices: Notification[] = [
      { id: '4', kind: 'trade.paper_live', taskId: null, payload: account, createdAt: '2026-01-10T12:00:00.000Z', read: false },
      { id: '3', kind: 'trade.paper_fallback', taskId: null, payload: { ...account, since: '2026-01-10T11:00:00.000Z' }, createdAt: '2026-01-10T11:01:00.000Z', read: true },
    ];
    await renderApp('/notifications', inbox(notices));
    expect(await screen.findByText('模拟账户「模拟一号」已恢复 Binance 实时行情')).toBeInTheDocument();
    expect(screen.getByText('模拟账户「模拟一号」改按模拟行情交易：无法连接 Binance')).toBeInTheDocument();
    expect(screen.getByText(/^模拟账户改按模拟行情 · /)).toBeInTheDocument();
    for (const text of ['模拟账户「模拟一号」已恢复 Binance 实时行情', '模拟账户「模拟一号」改按模拟行情交易：无法连接 Binance']) {
      const item = within(screen.getByText(text).closest('li')!);
      expect(item.getByRole('link', { name: 'API 列表' })).toHaveAttribute('href', expect.stringMatching(/\/exchange$/));
      expect(item.queryByRole('link', { name: '查看任务' })).toBeNull();
    }
  });

  it('filters by unread, and changes a preference', async () => {
    const { server } = await renderApp('/notifications', inbox());
    await findHeading('通知');
    await screen.findByText('BTC/USDT 第 3 轮完成：+1.82 USDT（+0.91%）');
    await userEvent.click(screen.getByRole('switch', { name: '仅未读' }));
    await waitFor(() => expect(screen.queryByText('BTC/USDT 第 3 轮完成：+1.82 USDT（+0.91%）')).toBeNull());
    expect(screen.getByText('BTC/USDT 第 1 档买入：10.00 USDT，价格 58,480.12')).toBeInTheDocument();

    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['', '站内', '邮件', '发送时机（站外）']);
    const fillByMail = within(table).getByRole('checkbox', { name: '订单成交 · 邮件' });
    expect(fillByMail).not.toBeChecked();
    await userEvent.click(fillByMail);
    await waitFor(() => expect(within(table).getByRole('checkbox', { name: '订单成交 · 邮件' })).toBeChecked());
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({ list: [{ kind: 'trade.fill', channel: 'email', enabled: true }] });
  });

  it('gathers a kind into the hourly digest; security kinds always go at once', async () => {
    const { server } = await renderApp('/notifications', inbox());
    const table = await screen.findByRole('table');
    const cycles = await within(table).findByRole('combobox', { name: '一轮完成 · 发送时机（站外）' });
    expect(cycles).toHaveTextContent('立即');
    // A security kind has no choice: it says "at once".
    const login = within(table).getByRole('rowheader', { name: '新设备登录' }).closest('tr')!;
    expect(within(login).queryByRole('combobox')).toBeNull();
    expect(within(login).getByText('立即')).toBeInTheDocument();

    await userEvent.click(cycles);
    await userEvent.click(await screen.findByRole('option', { name: '每小时摘要' }));
    await waitFor(() => expect(within(table).getByRole('combobox', { name: '一轮完成 · 发送时机（站外）' })).toHaveTextContent('每小时摘要'));
    expect(server.requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([{ timing: [{ kind: 'trade.cycle_closed', timing: 'hourly' }] }]);
    expect(within(table).getByRole('combobox', { name: '订单成交 · 发送时机（站外）' })).toHaveTextContent('立即');
  });

  it('updates the bell and the inbox from the live stream, without waiting for the poll', async () => {
    const stream = eventStream();
    const items = [fill, closed];
    const routes = inbox(items);
    const { server } = await renderApp('/notifications', { ...routes, 'GET /api/notifications/stream': () => stream.answer() });
    await findHeading('通知');
    expect(await screen.findByRole('button', { name: '通知，1 条未读' })).toBeInTheDocument();
    await waitFor(() => expect(stream.opened()).toBe(1));
    const asked = server.requests.filter((r) => r.path === '/api/notifications').length;

    // A deposit credited elsewhere: the stream says the count changed.
    items.unshift({ id: '3', kind: 'wallet.deposit_credited', taskId: null, payload: { amount: '25', asset: 'USDT' }, createdAt: '2026-01-10T11:00:00.000Z', read: false });
    stream.send('unread', { count: 2 });
    expect(await screen.findByRole('button', { name: '通知，2 条未读' }, { timeout: 2_000 })).toBeInTheDocument();
    expect(await screen.findByText('充值到账：25.00 USDT', {}, { timeout: 2_000 })).toBeInTheDocument();
    expect(server.requests.filter((r) => r.path === '/api/notifications').length).toBeGreaterThan(asked);
    // The stream carried the count: the bell did not ask for it again.
    expect(server.requests.filter((r) => r.path === '/api/notifications/unread-count')).toHaveLength(1);
    expect(server.requests.find((r) => r.path === '/api/notifications/stream')?.headers['Authorization']).toMatch(/^Bearer /);
  });

  it('says which channel a fault turned off and how to fix it, with a link to the channels', async () => {
    const off: Notification = { id: '4', kind: 'user.channel_disabled', taskId: null, payload: { channel: 'telegram' }, createdAt: '2026-01-10T12:00:00.000Z', read: false };
    const channels = { telegram: { linked: false, linkedAt: '2026-01-01T00:00:00.000Z', disabledReason: 'telegram 403: Forbidden: bot was blocked by the user' }, push: { publicKey: 'BPk', subscriptions: 0 }, webhook: { url: 'https://hooks.example/qt', enabled: false, disabledReason: 'webhook answered 410 (gone)' } };
    await renderApp('/notifications', { ...inbox([off, fill]), 'GET /api/notifications/channels': () => ok(channels) });
    await findHeading('通知');
    const telegram = await screen.findByText('Telegram 通知已关闭：机器人无法联系你的会话（可能已被屏蔽）。请解除屏蔽后重新绑定 Telegram。', { selector: '[data-channel-off] *' });
    expect(within(telegram.closest('[data-channel-off]') as HTMLElement).getByRole('link', { name: '通知渠道' })).toHaveAttribute('href', expect.stringContaining('/profile/notification-channels'));
    expect(screen.getByText('Webhook 已关闭：该地址回复已不存在。请保存可用的地址。', { selector: '[data-channel-off] *' })).toBeInTheDocument();
    // The inbox's own line for it, with the same way to fix it; the raw reason is never shown.
    const line = screen.getByText('Telegram 通知已关闭：机器人无法联系你的会话（可能已被屏蔽）。请解除屏蔽后重新绑定 Telegram。', { selector: 'li *' });
    expect(within(line.closest('li')!).getByRole('link', { name: '通知渠道' })).toBeInTheDocument();
    expect(screen.queryByText(/bot was blocked/)).toBeNull();
  });
});
