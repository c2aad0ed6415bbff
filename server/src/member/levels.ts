import Big from 'big.js';
import { sql } from 'kysely';
import type { MemberLevel, TeamStats } from '../../../src/api/member';
import type { Db } from '../db/database';

/** Deepest invite level followed (a guard: registration can only attach a new user under an existing one). */
export const MAX_TEAM_DEPTH = 100;

/**
 * The user's team: everyone registered under them at any depth (recursive on
 * users.inviter_id), as a CTE to select from: `team(id, depth)`.
 */
export const teamCte = (userId: string) => sql`
  with recursive team(id, depth) as (
    select id, 1 from users where inviter_id = ${userId}
    union all
    select u.id, team.depth + 1 from users u join team on u.inviter_id = team.id where team.depth < ${MAX_TEAM_DEPTH}
  )`;

/** Members, activated members and the realized volume (closed cycles' buy cost) of the user's direct invitees and whole team. */
export const teamStats = async (db: Db, userId: string): Promise<TeamStats> => {
  const { rows } = await sql<{ direct: number; direct_activated: number; team: number; team_activated: number; team_volume: string }>`
    ${teamCte(userId)}
    select
      (count(*) filter (where team.depth = 1))::int as direct,
      (count(*) filter (where team.depth = 1 and users.activated))::int as direct_activated,
      count(*)::int as team,
      (count(*) filter (where users.activated))::int as team_activated,
      (select coalesce(sum(cycles.buy_cost), 0) from cycles where cycles.user_id in (select id from team))::text as team_volume
    from team join users on users.id = team.id`.execute(db);
  const row = rows[0]!;
  return {
    direct: row.direct,
    directActivated: row.direct_activated,
    team: row.team,
    teamActivated: row.team_activated,
    teamVolume: new Big(row.team_volume).toFixed(),
  };
};

export const sortedLevels = (levels: readonly MemberLevel[]) => [...levels].sort((a, b) => a.level - b.level);

/** The highest configured level whose three requirements the team meets (0 when none). */
export const computedLevel = (levels: readonly MemberLevel[], stats: TeamStats): number => {
  let reached = 0;
  for (const level of sortedLevels(levels)) {
    if (stats.directActivated >= level.minDirect && stats.teamActivated >= level.minTeam && new Big(stats.teamVolume).gte(level.minTeamVolume)) {
      reached = Math.max(reached, level.level);
    }
  }
  return reached;
};

/** The configured level a user's level number stands for: that level, else the highest one below it. */
export const levelRule = (levels: readonly MemberLevel[], level: number): MemberLevel | undefined => {
  const sorted = sortedLevels(levels);
  return [...sorted].reverse().find((l) => l.level <= level) ?? sorted[0];
};

/**
 * The user's level now: the computed one, never below the stored one (an
 * operator may have set it higher). A computed level above the stored one is
 * stored, so later cheap reads (the engine's fuel discount) see it.
 */
export const refreshLevel = async (db: Db, userId: string, levels: readonly MemberLevel[]) => {
  const stats = await teamStats(db, userId);
  const computed = computedLevel(levels, stats);
  const stored = await db.selectFrom('users').select('level').where('id', '=', userId).executeTakeFirstOrThrow();
  const level = Math.max(computed, stored.level);
  if (level !== stored.level) await db.updateTable('users').set({ level }).where('id', '=', userId).execute();
  return { level, stats };
};

/**
 * After a member activates: every upline's level again (their teams just
 * grew), so the engine's fuel discount and the task limit see it at once.
 */
export const refreshUplineLevels = async (db: Db, userId: string, levels: readonly MemberLevel[]) => {
  const { rows } = await sql<{ id: string }>`
    with recursive upline(id, depth) as (
      select inviter_id, 1 from users where id = ${userId} and inviter_id is not null
      union all
      select users.inviter_id, upline.depth + 1 from users join upline on users.id = upline.id
      where users.inviter_id is not null and upline.depth < ${MAX_TEAM_DEPTH}
    )
    select id from upline order by depth`.execute(db);
  for (const row of rows) await refreshLevel(db, row.id, levels);
};
