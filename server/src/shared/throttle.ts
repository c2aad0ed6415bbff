import { sql } from 'kysely';
import type { Db } from '../db/database';
import { tooManyAttempts } from '../http/errors';

/** How long a refusal is repeated from memory before the database is asked again. */
const BLOCK_MS = 1000;
const BLOCKED_KEYS_MAX = 10_000;
/** How often a process deletes the counters of ended windows. */
const PURGE_EVERY_MS = 10 * 60_000;

export interface Limit {
  /** At most `max` attempts per `windowSeconds` (a window starts at its first attempt). */
  max: number;
  windowSeconds: number;
}

/** The limits that apply to one key, e.g. `login:ip:203.0.113.7`. */
export interface Rule {
  key: string;
  limits: readonly Limit[];
}

/** Slots taken by `take`: an attempt that must not count gives its slots back. */
export interface Reservation {
  /** Gives back this attempt's slots of the given keys (all keys when none are given). */
  release(keys?: readonly string[]): Promise<void>;
  /** Keeps the slots of the given keys (all when none are given) counted: the attempt is no longer in flight. */
  settle(keys?: readonly string[]): Promise<void>;
}

interface Slot {
  key: string;
  windowSeconds: number;
  /** The window the slot was counted in, as the database prints it (microseconds kept). */
  windowStart: string;
}

/**
 * Counters kept in the database, so every process sharing it enforces the
 * same limits. `take` reserves one attempt under every limit of every rule
 * BEFORE the work it guards, in one statement: a counter only counts while
 * its window has room (INSERT ... ON CONFLICT DO UPDATE ... WHERE, which locks
 * the row and re-reads it), so concurrent requests never pass all at once.
 * When a limit is full, nothing stays counted and the call is refused with
 * 10009 and the seconds until that window ends.
 */
export const createThrottle = (db: Db) => {
  /**
   * Keys this process saw refused, and when their window ends. For a moment
   * (BLOCK_MS) a request on such a key is refused without asking the
   * database, so a flood of refused requests costs no query each. Refusing
   * from memory can only refuse more, never let more through.
   */
  const blocked = new Map<string, { until: number; endsAt: number }>();
  const blockedWait = (ids: readonly string[]): number => {
    const now = Date.now();
    let wait = 0;
    for (const id of ids) {
      const entry = blocked.get(id);
      if (!entry) continue;
      if (entry.until <= now) blocked.delete(id);
      else wait = Math.max(wait, Math.ceil((entry.endsAt - now) / 1000));
    }
    return wait;
  };
  const block = (id: string, waitSeconds: number) => {
    if (blocked.size >= BLOCKED_KEYS_MAX) blocked.clear();
    const now = Date.now();
    blocked.set(id, { until: now + Math.min(BLOCK_MS, waitSeconds * 1000), endsAt: now + waitSeconds * 1000 });
  };

  /** Takes slots back (`count`), and out of flight (`pending`) when they were taken in flight. */
  const release = async (slots: readonly Slot[], inFlight: number, count = 1): Promise<void> => {
    if (slots.length === 0) return;
    await sql`
      update throttle_counters as t set count = greatest(t.count - ${count}::int, 0), pending = greatest(t.pending - ${inFlight}::int, 0)
      from (values ${sql.join(slots.map((s) => sql`(${s.key}::text, ${s.windowSeconds}::int, ${s.windowStart}::timestamptz)`))})
        as v(key, window_seconds, window_start)
      where t.key = v.key and t.window_seconds = v.window_seconds and t.window_start = v.window_start`.execute(db);
  };

  const reservation = (slots: readonly Slot[], inFlight: number): Reservation => {
    let open = slots;
    const pick = (keys?: readonly string[]) => {
      const picked = keys ? open.filter((slot) => keys.includes(slot.key)) : open;
      open = open.filter((slot) => !picked.includes(slot));
      return picked;
    };
    return {
      release: (keys) => release(pick(keys), inFlight),
      settle: async (keys) => {
        const picked = pick(keys);
        if (inFlight) await release(picked, inFlight, 0);
      },
    };
  };

  /** Deletes counters whose window has ended (they would start afresh anyway); done by `take` now and then. */
  const purge = async (): Promise<void> => {
    await db
      .deleteFrom('throttle_counters')
      .where('window_start', '<=', sql<Date>`now() - make_interval(secs => window_seconds)`)
      .execute();
  };
  let lastPurge = Date.now();

  const ids = (rules: readonly Rule[]) => rules.flatMap(({ key, limits }) => limits.map(({ windowSeconds }) => `${windowSeconds}:${key}`));

  return {
    /**
     * Forgets the refusals this process remembers (BLOCK_MS), as if a second
     * had passed: for tests that delete the counters between cases.
     */
    forgetRefusals(): void {
      blocked.clear();
    },
    /**
     * Refuses with 10009 at once when this process refused one of these
     * rules within the last second; asks nothing of the database. For a hook
     * that runs before a request costs anything (e.g. before its signature's
     * nonce is stored).
     */
    refuseIfKnownFull(rules: readonly Rule[]): void {
      const wait = blockedWait(ids(rules));
      if (wait > 0) tooManyAttempts(wait);
    },

    /**
     * Reserves one attempt under every limit of every rule, or refuses with
     * 10009. `waitMs`: the attempt counts as in flight until `settle` (it
     * counted) or `release` (it did not); when a limit is full only because
     * of attempts still in flight, wait up to `waitMs` for their outcome
     * instead of refusing (a right password gives its slot back, so
     * concurrent right ones pass one after another; wrong ones still stop
     * at the limit).
     */
    async take(rules: readonly Rule[], options: { waitMs?: number } = {}): Promise<Reservation> {
      const wanted = new Map<string, { key: string; windowSeconds: number; max: number }>();
      for (const { key, limits } of rules) {
        for (const { max, windowSeconds } of limits) {
          const id = `${windowSeconds}:${key}`;
          const seen = wanted.get(id);
          wanted.set(id, { key, windowSeconds, max: Math.min(max, seen?.max ?? max) });
        }
      }
      // One order for every request, so two requests never wait on each other's rows crosswise.
      const rows = [...wanted.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.windowSeconds - b.windowSeconds));
      if (rows.length === 0) return { release: async () => {}, settle: async () => {} };
      const known = blockedWait([...wanted.keys()]);
      if (known > 0) tooManyAttempts(known);
      if (Date.now() - lastPurge > PURGE_EVERY_MS) {
        lastPurge = Date.now();
        await purge();
      }
      const inFlight = options.waitMs !== undefined ? 1 : 0;
      const deadline = Date.now() + (options.waitMs ?? 0);
      for (;;) {
        const { rows: outcome } = await sql<{
          key: string;
          window_seconds: number;
          taken_start: string | null;
          wait: number | null;
          settled_full: boolean | null;
        }>`
          with wanted(key, window_seconds, max_count, ord) as (
            values ${sql.join(rows.map((r, i) => sql`(${r.key}::text, ${r.windowSeconds}::int, ${r.max}::int, ${i}::int)`))}
          ),
          taken as (
            insert into throttle_counters as t (key, window_seconds, window_start, count, pending)
            select key, window_seconds, now(), 1, ${inFlight}::int from wanted order by ord
            on conflict (key, window_seconds) do update
              set count = case when t.window_start <= now() - make_interval(secs => t.window_seconds) then 1 else t.count + 1 end,
                  pending = case when t.window_start <= now() - make_interval(secs => t.window_seconds) then excluded.pending else t.pending + excluded.pending end,
                  window_start = case when t.window_start <= now() - make_interval(secs => t.window_seconds) then now() else t.window_start end
              where t.window_start <= now() - make_interval(secs => t.window_seconds)
                 or t.count < (select w.max_count from wanted w where w.key = t.key and w.window_seconds = t.window_seconds)
            returning t.key, t.window_seconds, t.window_start::text as taken_start
          )
          select w.key, w.window_seconds, k.taken_start,
            ceil(extract(epoch from (c.window_start + make_interval(secs => w.window_seconds) - now())))::int as wait,
            c.count - c.pending >= w.max_count as settled_full
          from wanted w
          left join taken k on k.key = w.key and k.window_seconds = w.window_seconds
          left join throttle_counters c on c.key = w.key and c.window_seconds = w.window_seconds
          order by w.ord`.execute(db);
        const slots: Slot[] = outcome
          .filter((row) => row.taken_start !== null)
          .map((row) => ({ key: row.key, windowSeconds: row.window_seconds, windowStart: row.taken_start! }));
        const refused = outcome.filter((row) => row.taken_start === null);
        if (refused.length === 0) return reservation(slots, inFlight);
        await release(slots, inFlight);
        // Full only with attempts whose outcome is not known yet (or a counter too new to be seen): ask again shortly.
        if (inFlight && Date.now() < deadline && refused.every((row) => row.settled_full !== true)) {
          await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
          continue;
        }
        // A counter another request created after this statement began is not visible to it: wait its whole window.
        const waits = refused.map((row) => Math.max(1, row.wait ?? row.window_seconds));
        refused.forEach((row, i) => block(`${row.window_seconds}:${row.key}`, waits[i]!));
        return tooManyAttempts(Math.max(...waits));
      }
    },

    /** Forgets every count of a key (a password reset ends the lock of the login it proves). */
    async clear(key: string): Promise<void> {
      // Entries are `${windowSeconds}:${key}`.
      for (const id of blocked.keys()) if (id.slice(id.indexOf(':') + 1) === key) blocked.delete(id);
      await db.deleteFrom('throttle_counters').where('key', '=', key).execute();
    },

    purge,
  };
};
export type Throttle = ReturnType<typeof createThrottle>;
