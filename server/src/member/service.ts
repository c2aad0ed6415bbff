import Big from 'big.js';
import { sql } from 'kysely';
import { ErrorCode } from '../../../src/api/errors';
import type { ActivatePayload, CommunityMember, CommunityPage, FuelStatus, InviteInfo, MemberStatus } from '../../../src/api/member';
import type { Db } from '../db/database';
import type { EngineFacade } from '../engine/facade';
import { fail } from '../http/errors';
import { readSettings } from '../settings';
import { balanceOf, once, post, requireBalance, system, user, type Move } from '../wallet/ledger';
import { effectiveFuelRate } from './fuel';
import { levelRule, refreshLevel, refreshUplineLevels, sortedLevels, teamCte, teamStats } from './levels';

/**
 * Membership (status, activation, fuel) and invitations (info, community):
 * what the calls of routes.ts do, with no HTTP in sight.
 */

/** a***@example.com: the first character of the local part, then the domain. */
export const maskEmail = (email: string): string => {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${[...email.slice(0, at)][0]}***${email.slice(at)}`;
};

/** The caller's membership: level (computed from the team, never below the stored one), team, next level, prices. */
export const memberStatus = async (db: Db, userId: string): Promise<MemberStatus> => {
  const settings = await readSettings(db);
  const levels = sortedLevels(settings.levels);
  const { level, stats } = await refreshLevel(db, userId, levels);
  const row = await db.selectFrom('users').select(['activated', 'activated_at']).where('id', '=', userId).executeTakeFirstOrThrow();
  const nextRule = levels.find((l) => l.level > level) ?? null;
  return {
    level,
    activated: row.activated,
    activatedAt: row.activated_at ? new Date(row.activated_at).toISOString() : null,
    levels,
    team: stats,
    next: nextRule ? { level: nextRule, direct: stats.directActivated, team: stats.teamActivated, teamVolume: stats.teamVolume } : null,
    activation: { cardPrice: new Big(settings.activationCardPrice).toFixed(), usdtPrice: new Big(settings.activationUsdtPrice).toFixed() },
  };
};

/**
 * Activates the account with a card or USDT, once per idempotency key: the
 * price paid, the fuel gift credited, the inviter rewarded, all in one
 * transaction; then the uplines' levels (their teams just grew). Answers the
 * membership now. `onUplineError` hears an upline refresh that failed (the
 * activation itself is done either way).
 */
export const activate = async (db: Db, userId: string, body: ActivatePayload, onUplineError: (error: unknown) => void): Promise<MemberStatus> => {
  const result = await once(db, { userId, key: body.idempotencyKey, call: 'POST /api/member/activate', request: { method: body.method } }, async (trx) => {
    // The user's row locked: two activations cannot both pass the check.
    const me = await trx.selectFrom('users').select(['activated', 'inviter_id']).where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
    if (me.activated) fail(ErrorCode.ALREADY_EXISTS, 'the account is already activated', { field: 'activated' });
    const settings = await readSettings(trx);
    const asset = body.method === 'card' ? 'CARD' : 'USDT';
    const price = new Big(body.method === 'card' ? settings.activationCardPrice : settings.activationUsdtPrice);
    const gift = new Big(settings.activationFuelGift);
    const moves: Move[] = [];
    if (price.gt(0)) {
      await requireBalance(trx, user(userId, asset), price.toFixed());
      moves.push({ from: user(userId, asset), to: system('activation', asset), amount: price.toFixed() });
    }
    if (gift.gt(0)) moves.push({ from: system('fuel', 'FUEL'), to: user(userId, 'FUEL'), amount: gift.toFixed() });
    if (moves.length > 0) {
      await post(trx, { kind: 'activation', userId, moves, memo: { method: body.method, price: price.toFixed(), asset, fuelGift: gift.toFixed() } });
    }
    await trx.updateTable('users').set({ activated: true, activated_at: sql`now()` }).where('id', '=', userId).execute();
    const reward = new Big(settings.inviteRewardPoints);
    if (me.inviter_id && reward.gt(0)) {
      await post(trx, {
        kind: 'invite_reward',
        userId: me.inviter_id,
        moves: [{ from: system('rewards', 'POINTS'), to: user(me.inviter_id, 'POINTS'), amount: reward.toFixed() }],
        memo: { invitee: userId },
      });
    }
    return memberStatus(trx, userId);
  });
  // The uplines' teams grew: their levels now, not at their next visit.
  try {
    await refreshUplineLevels(db, userId, (await readSettings(db)).levels);
  } catch (error) {
    onUplineError(error);
  }
  return result;
};

/** Fuel balance, base and discounted rates, total charged, and how many tasks wait for fuel. */
export const fuelStatus = async (db: Db, engine: Pick<EngineFacade, 'fuelWaiting'>, userId: string): Promise<FuelStatus> => {
  const settings = await readSettings(db);
  const level = await db.selectFrom('users').select('level').where('id', '=', userId).executeTakeFirstOrThrow();
  const rule = levelRule(settings.levels, level.level);
  const charged = await db
    .selectFrom('cycles')
    .select(sql<string>`coalesce(sum(fuel_charged), 0)::text`.as('total'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return {
    balance: await balanceOf(db, user(userId, 'FUEL')),
    baseRatePercent: new Big(settings.fuelRatePercent).toFixed(),
    ratePercent: effectiveFuelRate(settings.fuelRatePercent, rule?.fuelDiscountPercent ?? '0'),
    chargedTotal: new Big(charged.total).toFixed(),
    pausedTasks: await engine.fuelWaiting(userId),
  };
};

/** Invite code, register path, team size and the reward per activated invitee. */
export const inviteInfo = async (db: Db, userId: string): Promise<InviteInfo> => {
  const me = await db.selectFrom('users').select('invite_code').where('id', '=', userId).executeTakeFirstOrThrow();
  const stats = await teamStats(db, userId);
  const settings = await readSettings(db);
  return {
    inviteCode: me.invite_code,
    registerPath: `/#/auth/register?inviteCode=${encodeURIComponent(me.invite_code)}`,
    direct: stats.direct,
    team: stats.team,
    rewardPoints: new Big(settings.inviteRewardPoints).toFixed(),
  };
};

export interface CommunityQuery {
  scope: 'direct' | 'team';
  page: number;
  pageSize: number;
}

/** Direct invitees or the whole team, a page of them, emails masked, with both counts. */
export const community = async (db: Db, userId: string, query: CommunityQuery): Promise<CommunityPage> => {
  const { rows } = await sql<{
    id: string;
    email: string;
    nickname: string;
    level: number;
    activated: boolean;
    depth: number;
    created_at: Date;
    running_tasks: number;
    last_active_at: Date | null;
    total: number;
  }>`
    ${teamCte(userId)}
    select users.id, users.email, users.nickname, users.level, users.activated, team.depth, users.created_at,
      (select count(*) from trade_tasks t where t.user_id = users.id and t.running and t.status = 'active')::int as running_tasks,
      (select max(s.last_seen_at) from sessions s where s.user_id = users.id) as last_active_at,
      (count(*) over ())::int as total
    from team join users on users.id = team.id
    where ${query.scope === 'direct' ? sql`team.depth = 1` : sql`true`}
    order by team.depth, users.created_at desc, users.id
    limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`.execute(db);
  const stats = await teamStats(db, userId);
  let total = rows[0]?.total;
  if (total === undefined) total = query.scope === 'direct' ? stats.direct : stats.team;
  return {
    list: rows.map(
      (row): CommunityMember => ({
        id: row.id,
        email: maskEmail(row.email),
        nickname: row.nickname,
        level: row.level,
        activated: row.activated,
        depth: row.depth,
        runningTasks: row.running_tasks,
        joinedAt: new Date(row.created_at).toISOString(),
        lastActiveAt: row.last_active_at ? new Date(row.last_active_at).toISOString() : null,
      }),
    ),
    total,
    direct: stats.direct,
    team: stats.team,
  };
};
