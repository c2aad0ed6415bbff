import { sql } from 'kysely';
import type { Db } from '../db/database';

/**
 * The simulator's minute candles (`paper_candles`) are kept for a bounded
 * period (PAPER_MINUTES_DAYS, default 7 days); older minutes are rolled up
 * into hourly candles (`paper_candles_hourly`, migration 026) and deleted,
 * in one transaction, so the minute table stops growing and the charts keep
 * 1h and 1d candles for all of the history. The engine runs this now and
 * then (enginePlugin.ts); one process at a time (an advisory lock), and at
 * most `MAX_DAYS_A_RUN` days of minutes a run, so a first run over a long
 * history does not hold the database for long.
 */
export const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const MAX_DAYS_A_RUN = 30;
/** Every process asks the same lock, so only one rolls up at a time. */
const ROLLUP_LOCK = 260_026;

/** Rolls up the minutes older than `keepDays` (whole hours only); answers the minutes removed (0 when another process is at it). */
export const rollUpCandles = async (db: Db, keepDays: number, nowMs = Date.now()): Promise<number> => {
  const cutoff = Math.floor((nowMs - keepDays * DAY_MS) / HOUR_MS) * HOUR_MS;
  return db.transaction().execute(async (trx) => {
    const { rows: locked } = await sql<{ got: boolean }>`select pg_try_advisory_xact_lock(${ROLLUP_LOCK}) as got`.execute(trx);
    if (!locked[0]?.got) return 0;
    const { rows: oldest } = await sql<{ first: string | null }>`select min(minute)::text as first from paper_candles`.execute(trx);
    if (oldest[0]?.first == null) return 0;
    const until = Math.min(cutoff, Math.floor(Number(oldest[0].first) / HOUR_MS) * HOUR_MS + MAX_DAYS_A_RUN * DAY_MS);
    if (until <= Number(oldest[0].first)) return 0;
    // An hour rolled up before and met again (minutes written late): its extremes and volume merge, its close is the later one.
    await sql`
      insert into paper_candles_hourly as h (symbol, hour, open, high, low, close, volume)
      select symbol, (minute / ${HOUR_MS}::bigint) * ${HOUR_MS}::bigint, (array_agg(open order by minute))[1], max(high), min(low),
             (array_agg(close order by minute desc))[1], sum(volume)
      from paper_candles where minute < ${until}::bigint
      group by 1, 2
      on conflict (symbol, hour) do update
        set high = greatest(h.high, excluded.high), low = least(h.low, excluded.low), close = excluded.close, volume = h.volume + excluded.volume`.execute(trx);
    const removed = await sql`delete from paper_candles where minute < ${until}::bigint`.execute(trx);
    return Number(removed.numAffectedRows ?? 0);
  });
};
