import { configure, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminUser } from '../../api/admin';
import { ok, okRange, type Handler } from '../../testing/fakeServer';
import { TEST_USER, renderApp, startSignedInZhCN } from '../../testing/renderApp';

const operator: Record<string, Handler> = { 'GET /api/user/me': () => ok({ ...TEST_USER, role: 'operator' }) };
const user: AdminUser = {
  id: 'u2',
  email: 'bob@example.com',
  nickname: 'Bob',
  role: 'user',
  level: 1,
  activated: true,
  disabled: false,
  inviterEmail: null,
  usdt: '1000',
  createdAt: '2026-11-01T08:00:00.000Z',
};

// The console is a separate chunk loaded on first use: give the first page time.
configure({ asyncUtilTimeout: 10000 });
vi.setConfig({ testTimeout: 60000 });

let session = 0;
beforeEach(async () => {
  await startSignedInZhCN();
  localStorage.setItem('accessToken', `figures-access-${++session}`);
});

describe("the console's figures", () => {
  it("shows a user's USDT in the one number format, as the deposits show theirs ('1,000.00', not '1000')", async () => {
    await renderApp('/admin/users', { ...operator, 'GET /api/admin/users': okRange('users', [user]) });
    expect(await screen.findByText('bob@example.com')).toBeInTheDocument();
    expect(await screen.findByText('1,000.00')).toBeInTheDocument();
    expect(screen.queryByText('1000')).toBeNull();
  });
});
