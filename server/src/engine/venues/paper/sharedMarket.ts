/**
 * One simulated market for every process on one PostgreSQL. The process that
 * holds the market lease (store/shards.ts) runs the walk (or the replay) and
 * publishes each tick's tickers in `paper_prices`; every other process (the
 * other engines, API-only processes) mirrors them, so all of them fill paper
 * orders and show prices from the same market. A process that takes the
 * lease over continues from the published prices and replay position.
 * With the embedded database there is one process: it simply leads.
 */
import { sql } from 'kysely';
import type { DecimalString } from '../../../../../src/api/types';
import type { Db } from '../../../db/database';
import { createMarket, type BestPrices, type PaperMarket, type PaperTicker, type ReplayOptions, type ReplayStatus, type SimulatedMarket } from './market';

interface Published {
  ticker: PaperTicker;
  marketMs: number;
  replay: ReplayStatus | null;
}

/** The market as the last published tickers tell it: no walk of its own. */
const createMirror = (markets: readonly PaperMarket[], startMs: number) => {
  const bySymbol = new Map(markets.map((spec) => [spec.symbol, spec]));
  const tickers = new Map<string, PaperTicker>();
  let now = startMs;
  let replay: ReplayStatus | null = null;
  const tickerOf = (symbol: string): PaperTicker => {
    const ticker = tickers.get(symbol);
    if (!ticker) throw new RangeError(`no published price for ${symbol} yet`);
    return ticker;
  };
  const market: SimulatedMarket = {
    markets,
    replay: null,
    market: (symbol) => bySymbol.get(symbol),
    tick: () => undefined,
    now: () => now,
    price: (symbol) => tickerOf(symbol).last,
    prices: () => Object.fromEntries([...tickers].map(([symbol, ticker]) => [symbol, ticker.last])),
    bestPrices: (symbol): BestPrices => {
      const { last, bid, ask } = tickerOf(symbol);
      return { last, bid, ask };
    },
    ticker: tickerOf,
    // A mirror has no candles of its own (they are read from the database): the current price as one.
    candle: (symbol) => {
      const { last } = tickerOf(symbol);
      return { time: Math.floor(now / 60_000) * 60_000, open: last, high: last, low: last, close: last, volume: '0' };
    },
  };
  return {
    market,
    apply(rows: Published[]) {
      for (const row of rows) {
        tickers.set(row.ticker.symbol, row.ticker);
        now = Math.max(now, row.marketMs);
        if (row.replay) replay = row.replay;
      }
    },
    has: () => tickers.size > 0,
    replay: () => replay,
  };
};

export interface SharedMarketOptions {
  seed: number;
  markets: readonly PaperMarket[];
  replay?: Omit<ReplayOptions, 'resume'>;
  /** A market to lead with (tests); default: a new walk or replay. */
  market?: SimulatedMarket;
}

export const createSharedMarket = (options: SharedMarketOptions) => {
  const mirror = createMirror(options.markets, Date.now());
  const startLead = (): SimulatedMarket => {
    if (options.market) return options.market;
    if (!mirror.has()) {
      return createMarket(options.seed, Date.now(), options.markets, options.replay ? { replay: options.replay } : {});
    }
    // Taking over: the walk continues from the published prices, a replay from its published candle.
    const published = mirror.replay();
    const resume = published && options.replay ? { index: published.played - 1, started: published.started } : undefined;
    return createMarket(options.seed, mirror.market.now(), options.markets, {
      startPrices: mirror.market.prices() as Record<string, DecimalString>,
      ...(options.replay ? { replay: { ...options.replay, ...(resume ? { resume } : {}) } } : {}),
    });
  };
  let lead: SimulatedMarket | null = null;
  const current = () => lead ?? mirror.market;

  /** What the engine and the paper exchange read: the led market, or the mirror. */
  const market: SimulatedMarket = {
    markets: options.markets,
    get replay() {
      return current().replay;
    },
    market: (symbol) => current().market(symbol),
    tick: (seconds) => current().tick(seconds),
    now: () => current().now(),
    price: (symbol) => current().price(symbol),
    prices: () => current().prices(),
    bestPrices: (symbol) => current().bestPrices(symbol),
    ticker: (symbol) => current().ticker(symbol),
    candle: (symbol) => current().candle(symbol),
  };

  return {
    market,
    leads: () => lead !== null,
    /** This process runs the market from now on. */
    lead() {
      lead ??= startLead();
    },
    /** Another process runs it: mirror its prices. */
    follow() {
      lead = null;
    },
    /**
     * What the leader writes of a tick, in one statement: the current
     * minute's candle of every symbol in `paper_candles` (the simulator's
     * history for the charts of every process), and with `publish` every
     * ticker, the clock and the replay's position for the other processes.
     * A symbol without a usable candle or ticker this tick is left as it was
     * (the engine logs its price).
     */
    async record(db: Db, { candles: withCandles, publish }: { candles: boolean; publish: boolean }) {
      if (!lead) return;
      const usable = <T>(read: (symbol: string) => T): T[] =>
        options.markets.flatMap((spec) => {
          try {
            return [read(spec.symbol)];
          } catch {
            return [];
          }
        });
      const candles = withCandles ? usable((symbol) => ({ symbol, ...lead!.candle(symbol) })) : [];
      const tickers = publish ? usable((symbol) => lead!.ticker(symbol)) : [];
      const writeCandles = sql`
        insert into paper_candles (symbol, minute, open, high, low, close, volume)
        select symbol, minute, open::numeric, high::numeric, low::numeric, close::numeric, volume::numeric
        from unnest(${candles.map((c) => c.symbol)}::text[], ${candles.map((c) => c.time)}::bigint[], ${candles.map((c) => c.open)}::text[],
                    ${candles.map((c) => c.high)}::text[], ${candles.map((c) => c.low)}::text[], ${candles.map((c) => c.close)}::text[],
                    ${candles.map((c) => c.volume)}::text[]) as x(symbol, minute, open, high, low, close, volume)
        on conflict (symbol, minute) do update set high = excluded.high, low = excluded.low, close = excluded.close, volume = excluded.volume`;
      const replay = lead.replay?.status() ?? null;
      const writePrices = sql`
        insert into paper_prices (symbol, ticker, market_ms, replay, updated_at)
        select symbol, ticker::jsonb, ${lead.now()}, ${replay ? JSON.stringify(replay) : null}::jsonb, now()
        from unnest(${tickers.map((t) => t.symbol)}::text[], ${tickers.map((t) => JSON.stringify(t))}::text[]) as x(symbol, ticker)
        on conflict (symbol) do update set ticker = excluded.ticker, market_ms = excluded.market_ms, replay = excluded.replay, updated_at = now()`;
      if (candles.length > 0 && tickers.length > 0) {
        // One round trip a tick: the candles as a data-modifying WITH of the prices' insert.
        await sql`with candles as (${writeCandles} returning 1) ${writePrices}`.execute(db);
      } else if (candles.length > 0) await writeCandles.execute(db);
      else if (tickers.length > 0) await writePrices.execute(db);
    },
    /** A follower reads the leader's last tick; answers whether there was one. */
    async refresh(db: Db): Promise<boolean> {
      const rows = await db.selectFrom('paper_prices').select(['ticker', 'market_ms', 'replay']).execute();
      mirror.apply(rows.map((row) => ({ ticker: row.ticker as unknown as PaperTicker, marketMs: Number(row.market_ms), replay: (row.replay as unknown as ReplayStatus | null) ?? null })));
      return rows.length > 0;
    },
    /** The replay's progress as the leader last published it (a follower's view). */
    publishedReplay: () => (lead ? (lead.replay?.status() ?? null) : mirror.replay()),
  };
};

export type SharedMarket = ReturnType<typeof createSharedMarket>;
