import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { okRange } from '../../testing/fakeServer';
import { renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { asRole, deposit, settings, user, withdrawal } from './consoleFixtures';

// The operator console's lists, each column header a user may sort by (the other console tests: Console.test.tsx).

type App = Awaited<ReturnType<typeof renderApp>>;
const adminCalls = (app: App) => app.server.requests.filter((r) => r.path.startsWith('/api/admin/'));

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

describe('sortable columns', () => {
  const article = {
    id: 'art1',
    published: true,
    publishedAt: '2026-11-22T00:00:00.000Z',
    translations: [{ locale: 'zh-CN', title: '公告一', summary: '', body: '<p>x</p>' }],
    createdAt: '2026-11-22T00:00:00.000Z',
    updatedAt: '2026-11-22T00:00:00.000Z',
  };
  const entry = { id: 'a1', operatorId: 'u1', operatorEmail: 'op@example.com', action: 'user.edit', targetType: 'user', targetId: 'u2', data: {}, createdAt: '2026-11-22T00:00:00.000Z' };
  const delivery = {
    id: '41',
    userId: 'u2',
    userEmail: 'bob@example.com',
    channel: 'webhook',
    kind: 'trade.fill',
    events: 1,
    status: 'dead',
    attempts: 8,
    lastError: 'HTTP 500',
    createdAt: '2026-11-22T00:00:00.000Z',
    nextAttemptAt: '2026-11-22T01:00:00.000Z',
    lastAttemptAt: '2026-11-22T00:58:00.000Z',
    sentAt: null,
  };
  const lists: [string, string, object][] = [
    ['users', 'bob@example.com', user],
    ['deposits', '0xabc', deposit],
    ['withdrawals', 'TYdest', withdrawal],
    ['articles', '公告一', article],
    ['levels', '10,000.00', { id: 1, ...settings.levels[1]! }],
    ['audit', 'op@example.com', entry],
    ['notification-deliveries', 'HTTP 500', delivery],
  ];

  // Every column header the console lets an operator sort by asks for an order the server offers (the test network refuses others).
  it.each(lists)('/admin/%s sorts only by fields the server sorts by', async (resource, shown, record) => {
    const app = await renderApp(`/admin/${resource}`, { ...asRole('operator'), [`GET /api/admin/${resource}`]: okRange(resource, [record]) });
    await screen.findAllByText(shown);
    const headers = [...document.querySelectorAll<HTMLElement>('thead .MuiTableSortLabel-root')];
    expect(headers.length).toBeGreaterThan(0);
    // What is checked is the request each header sends, not how a pointer reaches it: a plain click event
    // (user-event's pointer sequence, focus and hover styles re-render the list once more per header in jsdom).
    for (const header of headers) {
      const before = adminCalls(app).length;
      fireEvent.click(header);
      await waitFor(() => expect(adminCalls(app).length).toBeGreaterThan(before));
    }
  });
});
