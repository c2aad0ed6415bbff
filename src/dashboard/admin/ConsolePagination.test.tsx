import { configure, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { okRange } from '../../testing/fakeServer';
import { renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { asRole, user } from './consoleFixtures';

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
    await renderApp('/admin/users', { ...asRole('operator'), 'GET /api/admin/users': okRange('users', [user]) });
    await screen.findByText('bob@example.com');
    expect(screen.getByText('每页行数：')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: /每页行数/ })).toHaveTextContent('20');
  });
});
