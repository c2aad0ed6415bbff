import type { ExchangeAccount } from '../api/exchange';

/** Exchange accounts as the server answers them, for the page tests: a paper account on the simulator and an OKX account. */
export const paperAccount: ExchangeAccount = {
  id: '00000000-0000-4000-8000-00000000000a',
  exchange: 'paper',
  name: '练手账户',
  apiKeyHint: null,
  paperBalances: { USDT: '10000' },
  prices: { source: 'simulator', live: false, fallbackSince: null },
  createdAt: '2026-03-01T08:00:00.000Z',
  updatedAt: '2026-03-01T08:00:00.000Z',
};
export const okxAccount: ExchangeAccount = {
  id: '00000000-0000-4000-8000-00000000000b',
  exchange: 'okx',
  name: 'OKX main',
  apiKeyHint: 'abcd****wxyz',
  paperBalances: null,
  prices: null,
  createdAt: '2026-03-02T08:00:00.000Z',
  updatedAt: '2026-03-02T08:00:00.000Z',
};
