/** The wallet pages' fake server answers and helpers, shared by their test files. */
import { screen, within } from '@testing-library/react';
import type { Deposit, LedgerRecord, WalletBalances, WalletConfig, Withdrawal } from '../../api/wallet';
import { ok, type Handler, type RecordedRequest } from '../../testing/fakeServer';
import { enterText, identityRoute, renderApp, pageUser } from '../../testing/renderApp';
export const balances: WalletBalances = {
  balances: [
    { asset: 'USDT', available: '1234.5', held: '21' },
    { asset: 'CARD', available: '2', held: '0' },
    { asset: 'POINTS', available: '88.25', held: '0' },
    { asset: 'FUEL', available: '10', held: '0' },
  ],
};

export const config: WalletConfig = {
  depositNetwork: 'TRC20',
  withdrawFee: '1',
  withdrawMin: '10',
  transferMin: '1',
  swapRates: [
    { from: 'USDT', to: 'FUEL', rate: '1' },
    { from: 'USDT', to: 'CARD', rate: '0.01' },
    { from: 'POINTS', to: 'FUEL', rate: '0.5' },
  ],
};

export const ADDRESS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
export const OUT = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
export const HASH = '0xabababababababababababababababababababababababababababababababab';

export const deposit: Deposit = {
  id: 'd-1',
  asset: 'USDT',
  amount: '100',
  address: ADDRESS,
  txHash: '0xfeed',
  status: 'pending',
  reason: null,
  createdAt: '2026-03-02T08:00:00.000Z',
  decidedAt: null,
};
export const withdrawal: Withdrawal = {
  id: 'w-1',
  asset: 'USDT',
  amount: '20',
  fee: '1',
  address: 'TXYZ-out',
  status: 'rejected',
  reason: 'address on a blocked list',
  createdAt: '2026-03-01T08:00:00.000Z',
  decidedAt: '2026-03-01T09:00:00.000Z',
};

export const record = (id: string, extra: Partial<LedgerRecord> = {}): LedgerRecord => ({
  id,
  transactionId: `tx-${id}`,
  asset: 'USDT',
  kind: 'transfer_out',
  amount: '-12.5',
  balanceAfter: '987.5',
  detail: { counterparty: 'b***@example.com' },
  createdAt: '2026-03-03T10:00:00.000Z',
  ...extra,
});

export const page = <T,>(list: T[], total = list.length) => ok({ list, total });

export const wallet = (extra: Record<string, Handler> = {}): Record<string, Handler> => ({
  ...identityRoute,
  'GET /api/wallet/balances': () => ok(balances),
  'GET /api/wallet/config': () => ok(config),
  'GET /api/wallet/deposit-address': () => ok({ asset: 'USDT', network: 'TRC20', address: ADDRESS }),
  'GET /api/wallet/deposits': () => page([deposit]),
  'GET /api/wallet/withdrawals': () => page([withdrawal]),
  'GET /api/wallet/addresses': () => ok({ whitelist: false, list: [] }),
  ...extra,
});

export type App = Awaited<ReturnType<typeof renderApp>>;
export const sent = (app: App, method: string, path: string) => app.server.requests.filter((r) => r.method === method && r.path === path);
export const bodies = (app: App, path: string) => sent(app, 'POST', path).map((r) => r.body!);
export const queryOf = (request: RecordedRequest) => Object.fromEntries(new URL(request.url, 'http://localhost').searchParams);
export const KEY = /^[0-9a-f]{32}$/;

/** Answers one after another (the last one repeats). */
export const answers = (...list: ReturnType<Handler>[]): Handler => {
  let n = 0;
  return () => list[Math.min(n++, list.length - 1)]!;
};
/** A gateway error page instead of an envelope: the answer is lost. */
export const badGateway = () => ({ status: 502, body: 'bad gateway' });

export const amountInput = () => screen.getByRole('textbox', { name: /^数量/ });
export const spendInput = () => screen.getByRole('textbox', { name: /^支付/ });



/** The open confirmation of a transfer: types the login password and confirms. */
export const confirmWithPassword = async (password = 'Right-Password-1') => {
  const dialog = within(await screen.findByRole('dialog'));
  await enterText(dialog.getByLabelText(/^登录密码/), password);
  await pageUser.click(dialog.getByRole('button', { name: '确认转账' }));
};
