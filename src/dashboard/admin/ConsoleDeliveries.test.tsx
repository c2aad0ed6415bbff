import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminNotificationDelivery, NotificationDeliveryCount } from '../../api/admin';
import { ok, okRange, type RecordedRequest } from '../../testing/fakeServer';
import { renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { asRole } from './consoleFixtures';

type App = Awaited<ReturnType<typeof renderApp>>;
const listParams = (request: RecordedRequest) => Object.fromEntries([...new URL(request.url, 'http://x').searchParams].map(([key, value]) => [key, JSON.parse(value)]));
const calls = (app: App, method: string, path: string) => app.server.requests.filter((r) => r.method === method && r.path === path);

// The console is a separate chunk loaded on first use: give the first page time.
configure({ asyncUtilTimeout: 10000 });
vi.setConfig({ testTimeout: 60000 });

/** A phone: every `max-width` media query matches (MUI's `down()` breakpoints). */
const asPhone = () =>
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query.includes('max-width'),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));

const dead: AdminNotificationDelivery = {
  id: '41',
  userId: 'u2',
  userEmail: 'bob@example.com',
  channel: 'webhook',
  kind: 'trade.cycle_closed',
  events: 3,
  status: 'dead',
  attempts: 8,
  lastError: 'HTTP 500 Internal Server Error',
  createdAt: '2026-11-26T08:00:00.000Z',
  nextAttemptAt: '2026-11-26T09:00:00.000Z',
  lastAttemptAt: '2026-11-26T08:58:00.000Z',
  sentAt: null,
};

/** The outbox as a fake server: the list by its status filter, the counts, a retry that moves the dead one back to pending. */
const outbox = () => {
  const records = [{ ...dead }];
  const counts = (): NotificationDeliveryCount[] => [
    { channel: 'email', pending: 0, sent: 12, dead: 0 },
    { channel: 'webhook', pending: records.filter((r) => r.status === 'pending').length, sent: 4, dead: records.filter((r) => r.status === 'dead').length },
  ];
  return {
    ...asRole('operator'),
    'GET /api/admin/notification-deliveries': (req: RecordedRequest) => {
      const { status } = listParams(req).filter ?? {};
      return okRange('notification-deliveries', records.filter((r) => !status || r.status === status))(req);
    },
    'GET /api/admin/notification-counts': () => ok(counts()),
    'PUT /api/admin/notification-deliveries/41': () => {
      Object.assign(records[0]!, { status: 'pending', attempts: 0 });
      return ok(records[0]);
    },
  };
};

let session = 0;
beforeEach(async () => {
  await startSignedInZhCN();
  localStorage.setItem('accessToken', `deliveries-access-${++session}`);
});
afterEach(() => vi.unstubAllGlobals());

describe('the outbox’s dead letters in the console', () => {
  it('lists the dead deliveries with their counts per channel, and retries one', async () => {
    const app = await renderApp('/admin/notification-deliveries', outbox());
    expect(await screen.findByText('bob@example.com')).toBeInTheDocument();
    const [first] = calls(app, 'GET', '/api/admin/notification-deliveries');
    expect(listParams(first!)).toEqual({ sort: ['createdAt', 'DESC'], range: [0, 19], filter: { status: 'dead' } });
    const row = screen.getByText('bob@example.com').closest('tr')!;
    for (const text of ['Webhook', '一轮完成 另 2 条', '8', 'HTTP 500 Internal Server Error', '已失败']) expect(within(row).getByText(text)).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['入队时间', '用户', '渠道', '类型', '尝试次数', '最后尝试', '最后错误', '状态', '操作']);
    const counts = screen.getByRole('region', { name: '各渠道投递' });
    expect(within(counts).getByText('邮件').closest('[data-channel]')).toHaveTextContent('待发送 0已发送 12已失败 0');
    expect(counts.querySelector('[data-channel="webhook"]')).toHaveTextContent('待发送 0已发送 4已失败 1');

    await userEvent.click(within(row).getByRole('button', { name: '重试' }));
    await waitFor(() => expect(calls(app, 'PUT', '/api/admin/notification-deliveries/41').map((r) => r.body)).toEqual([{ status: 'pending' }]));
    expect(await screen.findByText('已重新排队，下一轮即发送')).toBeInTheDocument();
    // Reloaded: the retried message has left the dead letters, and the counts say it is pending.
    await waitFor(() => expect(screen.queryByText('bob@example.com')).toBeNull());
    await waitFor(() => expect(counts.querySelector('[data-channel="webhook"]')).toHaveTextContent('待发送 1已发送 4已失败 0'));
  });

  it('at phone width shows each dead delivery as a card with its retry', async () => {
    asPhone();
    const app = await renderApp('/admin/notification-deliveries', outbox());
    const card = (await screen.findByText('bob@example.com')).closest<HTMLElement>('[data-delivery]')!;
    expect(card).toHaveTextContent('Webhook · 一轮完成 另 2 条');
    expect(card).toHaveTextContent('HTTP 500 Internal Server Error');
    expect(document.querySelector('table')).toBeNull();
    await userEvent.click(within(card).getByRole('button', { name: '重试' }));
    await waitFor(() => expect(calls(app, 'PUT', '/api/admin/notification-deliveries/41')).toHaveLength(1));
  });
});
