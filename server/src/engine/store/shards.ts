/**
 * Several engine processes on one PostgreSQL (design section 3): the tasks
 * are split into SHARD_COUNT shards by exchange account, and each shard, like
 * the simulated market, is leased by one process at a time in the table
 * `engine_leases`, on PostgreSQL's own primitives:
 * - a process takes free or expired leases with `FOR UPDATE SKIP LOCKED`, so
 *   two processes never take the same one, and each new holder raises the
 *   lease's token;
 * - it renews its leases every RENEW_MS; a lease not renewed expires after
 *   TTL_MS, and the others take it at their next round (a dead process's
 *   shards move within TTL_MS + RENEW_MS, under 15 s);
 * - the live processes (heartbeats in `engine_nodes`) share the shards
 *   evenly: one holding more than its share gives the rest back;
 * - every transaction of the engine first checks, under a share lock, that
 *   the leases of the shards it writes for are still its own with the same
 *   token (the fence): a process that lost a lease (a long pause, a network
 *   split) cannot write for it any more, and a new holder waits for a
 *   transaction in flight to end.
 * No consensus of our own: the database's row locks decide.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { SHARD_COUNT, type Fence } from './journal';

export const TTL_MS = 8_000;
export const RENEW_MS = 2_000;
const MARKET = 'market';
const shardName = (shard: number) => `shard:${shard}`;
const shardNumber = (name: string) => Number(name.slice('shard:'.length));

/** A write for a shard this process no longer holds: refused. */
export class FencedError extends Error {
  constructor(shards: number[]) {
    super(`the leases of shards ${shards.join(', ')} are no longer this process's`);
    this.name = 'FencedError';
  }
}

export interface LeaseEvents {
  /** Shards taken: load their tasks. */
  acquired(shards: number[]): Promise<void>;
  /** Shards given back or lost: stop driving their tasks. */
  lost(shards: number[]): Promise<void>;
  /** This process now runs the simulated market, or stopped running it. */
  market(held: boolean): Promise<void>;
  /** The live engine processes, counted at each round (they share the server's exchange rate budgets). */
  processes?(count: number): void;
}

export interface LeaseOptions {
  db: Db;
  log: FastifyBaseLogger;
  events: LeaseEvents;
  ttlMs?: number;
  renewMs?: number;
}

export const newOwnerId = () => `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

export const createLeases = ({ db, log, events, ttlMs = TTL_MS, renewMs = RENEW_MS }: LeaseOptions) => {
  const owner = newOwnerId();
  /** Held leases: name -> token. */
  const held = new Map<string, string>();
  let timer: NodeJS.Timeout | null = null;
  let round: Promise<void> = Promise.resolve();
  let stopped = false;
  const ttl = sql.lit(`${ttlMs} milliseconds`);

  const heldShards = () => [...held.keys()].filter((name) => name !== MARKET).map(shardNumber).sort((a, b) => a - b);

  /** Takes up to `limit` free or expired leases among `names`; answers the ones taken. */
  const take = async (names: string[], limit: number): Promise<{ name: string; token: string }[]> => {
    if (limit <= 0 || names.length === 0) return [];
    const taken = await sql<{ name: string; token: string }>`
      with free as (
        select name from engine_leases
        where name = any(${names}::text[]) and (owner is null or expires_at < now())
        order by name limit ${limit} for update skip locked)
      update engine_leases set owner = ${owner}, token = engine_leases.token + 1, expires_at = now() + ${ttl}::interval
      from free where engine_leases.name = free.name
      returning engine_leases.name, engine_leases.token::text as token`.execute(db);
    return taken.rows;
  };

  const once = async () => {
    if (stopped) return;
    await sql`
      insert into engine_nodes (owner, seen_at) values (${owner}, now())
      on conflict (owner) do update set seen_at = now()`.execute(db);
    // Renew what is still ours; what expired meanwhile may be someone else's now.
    const renewed = await sql<{ name: string; token: string }>`
      update engine_leases set expires_at = now() + ${ttl}::interval
      where owner = ${owner} and expires_at > now()
      returning name, token::text as token`.execute(db);
    const still = new Map(renewed.rows.map((row) => [row.name, row.token]));
    const lost = [...held].filter(([name, token]) => still.get(name) !== token).map(([name]) => name);
    for (const name of lost) held.delete(name);
    if (lost.includes(MARKET)) await events.market(false);
    const lostShards = lost.filter((name) => name !== MARKET).map(shardNumber);
    if (lostShards.length > 0) {
      log.warn({ shards: lostShards }, 'shard leases lost');
      await events.lost(lostShards);
    }

    const live = await sql<{ n: number }>`select count(*)::int as n from engine_nodes where seen_at > now() - ${ttl}::interval`.execute(db);
    events.processes?.(Math.max(1, live.rows[0]?.n ?? 1));
    const share = Math.ceil(SHARD_COUNT / Math.max(1, live.rows[0]?.n ?? 1));
    const mine = heldShards();
    if (mine.length > share) {
      // A process joined: give it the shards beyond this one's share (stop driving them first).
      const extra = mine.slice(share);
      await events.lost(extra);
      for (const shard of extra) held.delete(shardName(shard));
      await sql`
        update engine_leases set owner = null, expires_at = 'epoch'
        where owner = ${owner} and name = any(${extra.map(shardName)}::text[])`.execute(db);
      log.info({ shards: extra }, 'shards given back to balance the processes');
    } else if (mine.length < share) {
      const wanted = Array.from({ length: SHARD_COUNT }, (_, shard) => shardName(shard)).filter((name) => !held.has(name));
      const taken = await take(wanted, share - mine.length);
      for (const row of taken) held.set(row.name, row.token);
      if (taken.length > 0) {
        const shards = taken.map((row) => shardNumber(row.name));
        log.info({ shards }, 'shards taken');
        await events.acquired(shards);
      }
    }
    if (!held.has(MARKET)) {
      const [market] = await take([MARKET], 1);
      if (market) {
        held.set(MARKET, market.token);
        log.info('this process now runs the simulated market');
        await events.market(true);
      }
    }
  };

  /** One round at a time; a failed round is logged and the next one tries again. */
  const next = () => {
    round = round.then(once).catch((error: unknown) => log.error({ err: error }, 'lease round failed'));
    return round;
  };

  /** Checks, under a share lock, that the leases of `shards` are still this process's, with the same tokens. */
  const fence: Fence = async (trx, shards) => {
    if (shards.size === 0) return;
    const names = [...shards].map(shardName);
    const rows = await sql<{ name: string; token: string }>`
      select name, token::text as token from engine_leases
      where owner = ${owner} and expires_at > now() and name = any(${names}::text[])
      for share`.execute(trx);
    const valid = new Map(rows.rows.map((row) => [row.name, row.token]));
    // A shard this process no longer holds in memory is stale too, whoever holds it in the
    // database: a tick still in flight when the round noticed the loss ends refused.
    const stale = [...shards].filter((shard) => {
      const token = held.get(shardName(shard));
      return token === undefined || valid.get(shardName(shard)) !== token;
    });
    if (stale.length > 0) throw new FencedError(stale);
  };

  return {
    owner,
    fence,
    /** Shards this process drives now. */
    shards: heldShards,
    holdsShard: (shard: number) => held.has(shardName(shard)),
    holdsMarket: () => held.has(MARKET),
    /** The first round (the caller waits for its shards), then one every renewMs. */
    async start() {
      await next();
      timer = setInterval(() => void next(), renewMs);
      timer.unref();
    },
    /** Runs a round now (tests). */
    round: next,
    /** Gives every lease back at once (a clean stop): the others take them at their next round. */
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await round;
      await sql`update engine_leases set owner = null, expires_at = 'epoch' where owner = ${owner}`.execute(db);
      await sql`delete from engine_nodes where owner = ${owner}`.execute(db);
      held.clear();
    },
    /** The cluster as the leases table sees it, for the engine status. */
    async view() {
      const leases = await db.selectFrom('engine_leases').select(['name', 'owner', 'token', 'expires_at']).orderBy('name').execute();
      const nodes = await sql<{ owner: string; seen_at: Date }>`select owner, seen_at from engine_nodes where seen_at > now() - ${ttl}::interval order by owner`.execute(db);
      return {
        self: owner,
        nodes: nodes.rows.map((node) => ({
          owner: node.owner,
          seenAt: new Date(node.seen_at).toISOString(),
          shards: leases.filter((l) => l.owner === node.owner && l.name !== MARKET && new Date(l.expires_at) > new Date()).map((l) => shardNumber(l.name)),
          market: leases.some((l) => l.owner === node.owner && l.name === MARKET && new Date(l.expires_at) > new Date()),
        })),
        unheldShards: leases.filter((l) => l.name !== MARKET && (l.owner === null || new Date(l.expires_at) <= new Date())).map((l) => shardNumber(l.name)),
      };
    },
  };
};

export type Leases = ReturnType<typeof createLeases>;
