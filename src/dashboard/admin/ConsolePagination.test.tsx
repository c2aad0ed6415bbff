import { configure, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminUser } from '../../api/admin';
import { ok, okRange } from '../../testing/fakeServer';
import { TEST_USER, renderApp, startSignedInZhCN } from '../../testing/renderApp';

const user: AdminUser = {
  id: 'u2',
  email: 'bob@example.com',
  nickname: 'Bob',
  role: 'user',
  level: 1,
  activated: true,
  disabled: false,
  inviterEmail: null,
  usdt: '120.5',
  createdAt: '2026-11-01T08:00:00.000Z',
};

// The console is a separate chunk loaded on first use.
configure({ asyncUtilTimeout: 15000 });
vi.setConfig({ testTimeout: 60000 });

beforeEach(async () => {
  await startSignedInZhCN();
  localStorage.setItem('accessToken', 'console-pagination');
});
afterEach(() => vi.unstubAllGlobals());

describe('the operator console’s pagination', () => {
  it('shows the rows per page the list uses (20), not an empty select', async () => {
    await renderApp('/admin/users', { 'GET /api/user/me': () => ok({ ...TEST_USER, role: 'operator' }), 'GET /api/admin/users': okRange('users', [user]) });
    await screen.findByText('bob@example.com');
    expect(screen.getByText('每页行数：')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: /每页行数/ })).toHaveTextContent('20');
  });
});
