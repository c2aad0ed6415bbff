import { configure, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { okRange } from '../../testing/fakeServer';
import { renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { asRole, user as consoleUser } from './consoleFixtures';

const operator = asRole('operator');
// A whole thousand, which a raw decimal shows as '1000'.
const user = { ...consoleUser, usdt: '1000' };

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
