import { sql } from 'kysely';
import type { Db } from '../db/database';
import { tooManyAttempts } from '../http/errors';

export interface Limit {
  /** At most `max` events per `windowSeconds`. */
  max: number;
  windowSeconds: number;
}

/**
 * Counters kept in the database, so every process sharing it enforces the
 * same limits. `check` refuses with 10009 (and the seconds to wait) once a
 * key has reached a limit; `hit` records an event.
 */
export const createThrottle = (db: Db) => {
  const retryAfter = async (key: string, limits: readonly Limit[]): Promise<number> => {
    let wait = 0;
    for (const limit of limits) {
      const row = await db
        .selectFrom('throttle_events')
        .select([sql<number>`count(*)::int`.as('count'), sql<Date | null>`min(created_at)`.as('oldest')])
        .where('key', '=', key)
        .where('created_at', '>', sql<Date>`now() - make_interval(secs => ${limit.windowSeconds})`)
        .executeTakeFirstOrThrow();
      if (row.count >= limit.max && row.oldest) {
        const oldest = new Date(row.oldest).getTime();
        wait = Math.max(wait, Math.ceil((oldest + limit.windowSeconds * 1000 - Date.now()) / 1000));
      }
    }
    return Math.max(wait, wait > 0 ? 1 : 0);
  };

  return {
    async check(key: string, limits: readonly Limit[]): Promise<void> {
      const wait = await retryAfter(key, limits);
      if (wait > 0) tooManyAttempts(wait);
    },
    async hit(key: string): Promise<void> {
      await db.insertInto('throttle_events').values({ key }).execute();
    },
    async clear(key: string): Promise<void> {
      await db.deleteFrom('throttle_events').where('key', '=', key).execute();
    },
    async purge(olderThanSeconds = 86_400): Promise<void> {
      await db
        .deleteFrom('throttle_events')
        .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`)
        .execute();
    },
  };
};
export type Throttle = ReturnType<typeof createThrottle>;
