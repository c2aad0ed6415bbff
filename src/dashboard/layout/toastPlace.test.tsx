import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../testing/fakeServer';
import { identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';

beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

describe('a toast', () => {
  it('shows below the app bar, not over it', { timeout: 60_000 }, async () => {
    await renderApp('/strategy/add', {
      ...identityRoute,
      'POST /api/strategy/add': (request) => ok({ ...(request.body as object), id: 'b0000000-0000-4000-8000-000000000051', system: false }),
      'GET /api/strategy/list': () => ok({ list: [], total: 0 }),
      'GET /api/trade/config-templates': () => ok([]),
    });
    await screen.findByRole('heading', { level: 1, name: '新建策略' }, { timeout: 20_000 });
    await userEvent.type(screen.getByRole('textbox', { name: /名称/ }), '提示');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    const toast = await screen.findByText('策略已保存', undefined, { timeout: 10_000 });
    const snackbar = toast.closest('.MuiSnackbar-root') as HTMLElement;
    // The app bar is 56 px high on a phone (48 px from the tablet width up): the toast starts below it.
    await waitFor(() => expect(parseFloat(getComputedStyle(snackbar).top)).toBeGreaterThanOrEqual(56));
  });
});
