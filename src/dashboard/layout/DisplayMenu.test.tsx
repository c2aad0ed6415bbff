import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WIZARD_STORAGE_KEY, defaultWizardDraft } from '../../api/defaults';
import { ok } from '../../testing/fakeServer';
import { wizardDraft } from '../trade/wizard/draftStore';
import { findHeading, identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';

const pair = (symbol: string, change24h: string) => ({ id: symbol, symbol, base: symbol.split('/')[0], quote: 'USDT', price: '58480.123', change24h, quoteVolume24h: '1000000', minCost: '5', tickSize: '0.01', amountStep: '0.00001' });
const market = {
  ...identityRoute,
  'GET /api/trade/pairs': () => ok({ list: [pair('BTC/USDT', '1.5'), pair('ETH/USDT', '-0.2218')], total: 2 }),
  'GET /api/trade/hot-pairs': () => ok([]),
};

const colorOf = (text: string) => getComputedStyle(screen.getByText(text)).color;
const RED = 'rgb(220, 38, 38)';
const GREEN = 'rgb(22, 163, 74)';

beforeEach(async () => {
  localStorage.clear();
  await startSignedInZhCN();
  // The pair list asks for the pairs of the wizard's exchange account.
  sessionStorage.setItem(WIZARD_STORAGE_KEY, JSON.stringify({ ...defaultWizardDraft(), selectedApi: 'e0000000-0000-4000-8000-000000000001' }));
  wizardDraft.reload();
});
afterEach(() => vi.unstubAllGlobals());

describe('display settings', () => {
  it('colours changes red up in Chinese by default, switches to green up and keeps the choice', async () => {
    await renderApp('/trade/pair-select', market);
    await findHeading('选择交易对');
    // Shared format: sign, two decimals at most, no space before %.
    expect(await screen.findByText('+1.5%')).toBeInTheDocument();
    expect(colorOf('+1.5%')).toBe(RED);
    expect(colorOf('-0.22%')).toBe(GREEN);
    expect(screen.getAllByText(/58,480\.12/).length).toBeGreaterThan(0);

    await userEvent.click(screen.getByRole('button', { name: '显示设置' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: '绿涨红跌' }));
    await waitFor(() => expect(colorOf('+1.5%')).toBe(GREEN));
    expect(colorOf('-0.22%')).toBe(RED);
    expect(localStorage.getItem('priceColors')).toBe('green-up');
  });

  it('switches to dark mode and remembers it under its own key (react-admin empties its store on logout)', async () => {
    await renderApp('/trade/pair-select', market);
    await findHeading('选择交易对');
    await userEvent.click(screen.getByRole('button', { name: '显示设置' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: '深色' }));
    await waitFor(() => expect(localStorage.getItem('themeMode')).toBe('dark'));
    // Dark palette: the lighter red for a rise (红涨绿跌).
    await waitFor(() => expect(colorOf('+1.5%')).toBe('rgb(248, 113, 113)'));
  });
});
