/** Answers of the profile area's calls, for the page tests' fake server. */
import type { CommunityPage, DailyProfitDetail, FuelStatus, InviteInfo, MemberStatus, ProfitOverview, ProfitRank, UserSession } from '../../api/member';
import type { WalletBalances } from '../../api/wallet';

export const balances: WalletBalances = {
  balances: [
    { asset: 'USDT', available: '1250.5', held: '0' },
    { asset: 'CARD', available: '2', held: '0' },
    { asset: 'POINTS', available: '300', held: '0' },
    { asset: 'FUEL', available: '12.5', held: '0' },
  ],
};

const levels = [
  { level: 0, minDirect: 0, minTeam: 0, minTeamVolume: '0', fuelDiscountPercent: '0', taskLimit: 5 },
  { level: 1, minDirect: 3, minTeam: 10, minTeamVolume: '10000', fuelDiscountPercent: '10', taskLimit: 10 },
  { level: 2, minDirect: 10, minTeam: 50, minTeamVolume: '100000', fuelDiscountPercent: '20', taskLimit: 20 },
];

export const memberStatus = (extra: Partial<MemberStatus> = {}): MemberStatus => ({
  level: 0,
  activated: false,
  activatedAt: null,
  levels,
  team: { direct: 4, directActivated: 2, team: 9, teamActivated: 5, teamVolume: '2500' },
  next: { level: levels[1]!, direct: 2, team: 5, teamVolume: '2500' },
  activation: { cardPrice: '1', usdtPrice: '100' },
  ...extra,
});

export const fuelStatus = (extra: Partial<FuelStatus> = {}): FuelStatus => ({
  balance: '12.5',
  baseRatePercent: '20',
  ratePercent: '18',
  chargedTotal: '40.25',
  pausedTasks: 0,
  ...extra,
});

export const sessions: UserSession[] = [
  {
    id: 'd0000000-0000-4000-8000-000000000002',
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
    ip: '10.0.0.1',
    createdAt: '2026-03-01T08:00:00.000Z',
    lastSeenAt: '2026-03-02T08:00:00.000Z',
    current: true,
  },
  {
    id: 'd0000000-0000-4000-8000-000000000001',
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    ip: '10.0.0.2',
    createdAt: '2026-02-20T08:00:00.000Z',
    lastSeenAt: '2026-02-28T08:00:00.000Z',
    current: false,
  },
];

const day = (date: string, profit: string, cycles: number) => ({ date, profit, cycles });

export const overview = (extra: Partial<ProfitOverview> = {}): ProfitOverview => ({
  timeZone: 'UTC',
  today: '2026-03-05',
  total: '123.45',
  todayProfit: '-1.5',
  last7Days: '20.1',
  last30Days: '88',
  cycles: 42,
  daily: [day('2026-03-01', '5.5', 2), day('2026-03-02', '0', 0), day('2026-03-03', '-2.25', 1), day('2026-03-04', '10', 3), day('2026-03-05', '-1.5', 1)],
  ...extra,
});

export const dayDetail: DailyProfitDetail = {
  date: '2026-03-04',
  profit: '10',
  cycles: [
    {
      id: 'c1',
      taskId: 'a0000000-0000-4000-8000-000000000011',
      symbol: 'BTC/USDT',
      exchangeName: 'Paper',
      cycle: 7,
      buyCost: '100',
      sellProceeds: '106',
      realizedProfit: '6',
      fuelCharged: '1.2',
      closedAt: '2026-03-04T10:00:00.000Z',
    },
    {
      id: 'c2',
      taskId: 'a0000000-0000-4000-8000-000000000012',
      symbol: 'ETH/USDT',
      exchangeName: 'OKX main',
      cycle: 2,
      buyCost: '50',
      sellProceeds: '54',
      realizedProfit: '4',
      fuelCharged: '0.8',
      closedAt: '2026-03-04T12:00:00.000Z',
    },
  ],
};

export const rank = (period: 'day' | 'all'): ProfitRank => ({
  period,
  date: '2026-03-05',
  list: [
    { rank: 1, name: 'a***@example.com', profit: period === 'day' ? '50' : '5000', self: false },
    { rank: 2, name: 'D***o', profit: period === 'day' ? '20' : '2000', self: true },
    { rank: 3, name: 'c***@example.com', profit: '10', self: false },
  ],
  me: { rank: 2, profit: period === 'day' ? '20' : '2000' },
});

export const inviteInfo: InviteInfo = {
  inviteCode: 'ABC123',
  registerPath: '/#/auth/register?inviteCode=ABC123',
  direct: 4,
  team: 9,
  rewardPoints: '50',
};

export const community = (scope: 'direct' | 'team', total = 2): CommunityPage => ({
  list: [
    {
      id: 'm1',
      email: 'b***@example.com',
      nickname: 'Bob',
      level: 1,
      activated: true,
      depth: 1,
      runningTasks: 3,
      joinedAt: '2026-01-10T08:00:00.000Z',
      lastActiveAt: '2026-03-01T08:00:00.000Z',
    },
    ...(scope === 'team'
      ? [
          {
            id: 'm2',
            email: 'c***@example.com',
            nickname: 'Carol',
            level: 0,
            activated: false,
            depth: 2,
            runningTasks: 0,
            joinedAt: '2026-02-10T08:00:00.000Z',
            lastActiveAt: null,
          },
        ]
      : []),
  ],
  total: scope === 'team' ? total : 1,
  direct: 1,
  team: 2,
});
