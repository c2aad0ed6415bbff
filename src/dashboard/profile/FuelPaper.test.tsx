import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../testing/fakeServer';
import { renderApp, startSignedInZhCN, TEST_USER } from '../../testing/renderApp';
import { fuelStatus } from './testData';

beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

/** The colour a stat's figure is drawn in. */
const figureColor = (name: string) => getComputedStyle(document.querySelector(`[data-stat="${name}"] > div:nth-child(2)`)!).color;

describe('/profile/fuel for a user whose bots need no fuel', () => {
  it('before activation: no red zero and no warning that bots will stop, but that they use none', async () => {
    await renderApp('/profile/fuel', {
      'GET /api/user/me': () => ok({ ...TEST_USER, activated: false }),
      'GET /api/member/fuel': () => ok(fuelStatus({ balance: '0', chargedTotal: '0' })),
      'GET /api/wallet/records': () => ok({ list: [], total: 0 }),
    });
    expect(await screen.findByText(/账户激活前，你的机器人都在模拟账户上交易，不消耗燃料，也不会因为没有燃料而停止。/, undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByText(/燃料用完后/)).toBeNull();
    expect(document.querySelector('[data-stat="balance"]')).toHaveTextContent('0.00');
    expect(figureColor('balance')).toBe(figureColor('charged'));
  });

  it('after activation: an empty balance is red and the page says tasks stop opening cycles', async () => {
    await renderApp('/profile/fuel', {
      'GET /api/user/me': () => ok({ ...TEST_USER, activated: true }),
      'GET /api/member/fuel': () => ok(fuelStatus({ balance: '0', chargedTotal: '0' })),
      'GET /api/wallet/records': () => ok({ list: [], total: 0 }),
    });
    expect(await screen.findByText(/燃料用完后/, undefined, { timeout: 10_000 })).toBeInTheDocument();
    await waitFor(() => expect(figureColor('balance')).not.toBe(figureColor('charged')));
    expect(document.querySelector('[data-state="no-fuel-needed"]')).toBeNull();
  });
});
