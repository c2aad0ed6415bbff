import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../testing/fakeServer';
import { identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { wizardDraft } from './wizard/draftStore';

const pair = (symbol: string) => ({ id: symbol, symbol, base: symbol.split('/')[0], quote: 'USDT', price: '100', change24h: '1.5', quoteVolume24h: '1000000', minCost: '5', tickSize: '0.01', amountStep: '0.00001' });

beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

describe('the pair selection page', () => {
  it('keeps “已选 N 个” in a solid bar with the done button, not floating over the pair list', { timeout: 60_000 }, async () => {
    wizardDraft.update({ selectedApi: 'e0000000-0000-4000-8000-000000000001' });
    await renderApp('/trade/pair-select', {
      ...identityRoute,
      'GET /api/trade/pairs': () => ok({ list: ['BTC/USDT', 'ETH/USDT', 'SOL/USDT'].map(pair), total: 3 }),
      'GET /api/trade/hot-pairs': () => ok([pair('BTC/USDT')]),
    });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'ETH/USDT' }, { timeout: 20_000 }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'SOL/USDT' }));
    const bar = document.querySelector<HTMLElement>('[data-section="pair-selection"]')!;
    expect(bar).not.toBeNull();
    expect(within(bar).getByRole('status')).toHaveTextContent('已选 2 个');
    expect(within(bar).getByRole('button', { name: '完成' })).toBeInTheDocument();
    // The bar itself is opaque (the rows scroll under it, not through it).
    const background = getComputedStyle(bar).backgroundColor;
    expect(background).not.toBe('');
    expect(background).not.toBe('transparent');
    expect(background).not.toBe('rgba(0, 0, 0, 0)');
  });
});
