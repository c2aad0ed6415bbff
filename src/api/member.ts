/**
 * Membership, activation, fuel, invites, community, profit pages, profile and
 * security, as their calls answer them. Levels, prices and rates are
 * configured by operators (GET answers carry the values in force).
 */
import type { DecimalString } from './types';

/** One membership level and what it needs and gives. Level 0 is every new user's. */
export interface MemberLevel {
  level: number;
  /** Activated direct invitees needed. */
  minDirect: number;
  /** Activated members in the whole team (every depth) needed. */
  minTeam: number;
  /** Realized trading volume of the team (sum of closed cycles' buy cost, USDT) needed. */
  minTeamVolume: DecimalString;
  /** Discount on the fuel rate, percent (10 = pay 90 % of the base rate). */
  fuelDiscountPercent: DecimalString;
  /** Tasks the user may have at most (not finished). */
  taskLimit: number;
}

export interface TeamStats {
  direct: number;
  directActivated: number;
  team: number;
  teamActivated: number;
  teamVolume: DecimalString;
}

/** GET /api/member/status */
export interface MemberStatus {
  level: number;
  activated: boolean;
  activatedAt: string | null;
  levels: MemberLevel[];
  team: TeamStats;
  /** The next level and how far the user is (null at the top). */
  next: { level: MemberLevel; direct: number; team: number; teamVolume: DecimalString } | null;
  /** Prices of activation (GET answers them so the activate page can show them). */
  activation: { cardPrice: DecimalString; usdtPrice: DecimalString };
}

/** POST /api/member/activate -> MemberStatus; 11003 when the chosen payment is not there, 10007 when already activated. */
export interface ActivatePayload {
  method: 'card' | 'usdt';
  idempotencyKey: string;
}

/** GET /api/member/fuel */
export interface FuelStatus {
  balance: DecimalString;
  /** Base share of each closed cycle's realized profit charged in fuel, percent. */
  baseRatePercent: DecimalString;
  /** After the level's discount. */
  ratePercent: DecimalString;
  chargedTotal: DecimalString;
  /** Tasks that finished their cycle and opened no new one for lack of fuel. */
  pausedTasks: number;
}

/** GET /api/invite/info */
export interface InviteInfo {
  inviteCode: string;
  /** Path of the register page with the code, to append to the dashboard's origin: `/#/auth/register?inviteCode=...`. */
  registerPath: string;
  direct: number;
  team: number;
  /** Points credited to the inviter when a direct invitee activates. */
  rewardPoints: DecimalString;
}

/** A row of GET /api/invite/community?scope=direct|team&page&pageSize -> Page<CommunityMember> & {counts}. */
export interface CommunityMember {
  id: string;
  /** Masked email (a***@example.com) and nickname. */
  email: string;
  nickname: string;
  level: number;
  activated: boolean;
  /** 1 for a direct invitee, 2 for theirs, ... */
  depth: number;
  runningTasks: number;
  joinedAt: string;
  lastActiveAt: string | null;
}

export interface CommunityPage {
  list: CommunityMember[];
  total: number;
  direct: number;
  team: number;
}

/** GET /api/profit/summary?timeZone&days=30 */
export interface ProfitOverview {
  timeZone: string;
  today: string;
  total: DecimalString;
  todayProfit: DecimalString;
  last7Days: DecimalString;
  last30Days: DecimalString;
  cycles: number;
  /** One point a day, oldest first, days without profit as "0". */
  daily: { date: string; profit: DecimalString; cycles: number }[];
}

/** A row of GET /api/profit/daily?timeZone&page&pageSize -> Page<DailyProfit> (days with closed cycles, newest first). */
export interface DailyProfit {
  date: string;
  profit: DecimalString;
  cycles: number;
}

/** GET /api/profit/daily-detail?date&timeZone */
export interface DailyProfitDetail {
  date: string;
  profit: DecimalString;
  cycles: ClosedCycle[];
}

export interface ClosedCycle {
  id: string;
  taskId: string;
  symbol: string;
  exchangeName: string;
  cycle: number;
  buyCost: DecimalString;
  sellProceeds: DecimalString;
  realizedProfit: DecimalString;
  fuelCharged: DecimalString;
  closedAt: string;
}

/** GET /api/profit/rank?period=day|all&timeZone&limit */
export interface ProfitRank {
  period: 'day' | 'all';
  date: string;
  list: { rank: number; name: string; profit: DecimalString; self: boolean }[];
  /** The caller's own place (null when they have no profit in the period). */
  me: { rank: number; profit: DecimalString } | null;
}

/** POST /api/user/profile -> User. avatar: a data URL (image/png|jpeg|webp, at most 48 KB) or null to remove it. */
export interface ProfileEditPayload {
  nickname: string;
  avatar?: string | null;
}

/** POST /api/user/change-password (signed); ends every other session. */
export interface ChangePasswordPayload {
  oldPassword: string;
  newPassword: string;
  secondPassword: string;
}

/**
 * POST /api/user/change-email (signed; step-up once a factor is on) -> User.
 * `captcha`: the code mailed to the new address (verify-code type
 * `change_email`, asked while signed in); `password`: the current one.
 * Ends every other session and holds money leaving the wallet 24 hours.
 */
export interface ChangeEmailPayload {
  email: string;
  captcha: string;
  password: string;
}

/** GET /api/user/sessions -> UserSession[]; POST /api/user/sessions/revoke {id}. */
export interface UserSession {
  id: string;
  userAgent: string | null;
  ip: string | null;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}
