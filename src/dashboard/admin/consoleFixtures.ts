import type { AdminDeposit, AdminUser, AdminWithdrawal, ServiceSettings } from '../../api/admin';
import { ok, type Handler } from '../../testing/fakeServer';
import { TEST_USER } from '../../testing/renderApp';

// Records of the operator console's tests (Console*.test.tsx).

export const asRole = (role: 'user' | 'operator'): Record<string, Handler> => ({ 'GET /api/user/me': () => ok({ ...TEST_USER, role }) });

export const user: AdminUser = {
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

export const deposit: AdminDeposit = {
  id: 'd1',
  asset: 'USDT',
  amount: '100',
  address: 'TXaddr',
  txHash: '0xabc',
  status: 'pending',
  reason: null,
  createdAt: '2026-11-20T08:00:00.000Z',
  decidedAt: null,
  userId: 'u2',
  userEmail: 'bob@example.com',
};

export const withdrawal: AdminWithdrawal = {
  id: 'w1',
  asset: 'USDT',
  amount: '50',
  fee: '1',
  address: 'TYdest',
  status: 'pending',
  reason: null,
  createdAt: '2026-11-20T09:00:00.000Z',
  decidedAt: null,
  userId: 'u2',
  userEmail: 'bob@example.com',
};

export const settings: ServiceSettings = {
  levels: [
    { level: 0, minDirect: 0, minTeam: 0, minTeamVolume: '0', fuelDiscountPercent: '0', taskLimit: 3 },
    { level: 1, minDirect: 3, minTeam: 10, minTeamVolume: '10000', fuelDiscountPercent: '10', taskLimit: 10 },
  ],
  swapRates: [{ from: 'USDT', to: 'POINTS', rate: '10' }],
  withdrawFee: '1',
  withdrawMin: '10',
  transferMin: '1',
  activationCardPrice: '1',
  activationUsdtPrice: '100',
  fuelRatePercent: '20',
  inviteRewardPoints: '50',
  activationFuelGift: '10',
  depositNetwork: 'TRC20',
};

