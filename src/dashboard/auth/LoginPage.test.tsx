import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail } from '../../testing/fakeServer';
import { findHeading, renderApp, startSignedInZhCN } from '../../testing/renderApp';

beforeEach(async () => {
  await startSignedInZhCN();
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('login', () => {
  it('shows a spinner while it waits for the server, and gives the button back after', async () => {
    await renderApp('/auth/login', { 'POST /api/user/login': () => ({ ...fail(10003, 'wrong email or password'), delayMs: 400 }) });
    await findHeading('登录');
    await userEvent.type(screen.getByRole('textbox', { name: /邮箱/ }), 'demo@example.com');
    await userEvent.type(screen.getByLabelText(/密码/, { selector: 'input' }), 'secret-123');
    expect(screen.queryByRole('progressbar')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    const busy = await screen.findByRole('button', { name: /正在登录/ });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('progressbar')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: '登录' })).toBeEnabled());
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
