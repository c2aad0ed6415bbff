import { sql } from 'kysely';
import { SIMULATOR } from '../../../../src/api/exchange';
import { TIMEFRAME_MS, type Gate, type StrategyConditions, type Timeframe } from '../../../../src/api/conditions';
import type { TaskWaiting } from '../../../../src/api/trade';
import type { Candle } from '../core/candles';
import { describeGroup, evaluateGate, hasConditions, type GateResult, type GateSignals } from '../core/conditions';
import { indicatorKeysOf, type IndicatorKey, type IndicatorReadings, type Side, SymbolIndicators } from '../core/indicators';
import type { ExchangeClient } from '../venues/exchangeClient';
import { reportDown, reportUp } from './episodes';
import type { EngineContext, LiveTask } from './context';

const MINUTE_MS = 60_000;
/** History asked of an exchange per timeframe at the start: enough for the longest period (MAX_INDICATOR_PERIOD) with room. */
const WARM_LIMIT = 500;
/** Minutes of the simulator's history read at the start (its minute table keeps 7 days; older hours come from the hourly one). */
const WARM_MINUTES = 7 * 24 * 60;

const timeframeOfKey = (key: IndicatorKey): Timeframe => (key.startsWith('bb:') ? key.split(':')[3] : key.split(':')[2]) as Timeframe;

/**
 * The indicators of one symbol on one venue, shared by every task whose
 * strategy has conditions on it (issue 29): one SymbolIndicators per
 * timeframe, so that each can be warmed up with its own candles (an
 * exchange's 1h candles for RSI(14,1h), not 900 minutes), all fed the same
 * closed minutes from then on. Read through one IndicatorReadings.
 */
class SharedIndicators implements IndicatorReadings {
  #frames = new Map<Timeframe, SymbolIndicators>();
  #byKey = new Map<IndicatorKey, SymbolIndicators>();
  #minute: number | null = null;
  #close: string | null = null;

  get minute() {
    return this.#minute;
  }

  get close() {
    return this.#close;
  }

  /** Starts computing keys; answers the timeframes that are new (to be warmed up). */
  addKeys(keys: readonly IndicatorKey[]): Timeframe[] {
    const added: Timeframe[] = [];
    for (const key of keys) {
      if (this.#byKey.has(key)) continue;
      const timeframe = timeframeOfKey(key);
      let frame = this.#frames.get(timeframe);
      if (!frame) {
        frame = new SymbolIndicators();
        this.#frames.set(timeframe, frame);
        added.push(timeframe);
      }
      frame.addKeys([key]);
      this.#byKey.set(key, frame);
    }
    return added;
  }

  /** History for one timeframe (closed minutes, or a coarser candle as its last minute), oldest first. */
  warm(timeframe: Timeframe, candles: ReadonlyArray<Pick<Candle, 'time' | 'close'>>) {
    this.#frames.get(timeframe)!.warm(candles);
    const last = candles[candles.length - 1];
    if (last && (this.#minute === null || last.time > this.#minute)) {
      this.#minute = last.time;
      this.#close = last.close;
    }
  }

  /** A closed minute, to every timeframe. */
  push(candle: Pick<Candle, 'time' | 'close'>) {
    if (this.#minute !== null && candle.time <= this.#minute) return;
    for (const frame of this.#frames.values()) frame.push(candle);
    this.#minute = candle.time;
    this.#close = candle.close;
  }

  value(key: IndicatorKey) {
    return this.#byKey.get(key)?.value(key) ?? null;
  }

  side(key: IndicatorKey): Side | null {
    return this.#byKey.get(key)?.side(key) ?? null;
  }

  previousSide(key: IndicatorKey): Side | null {
    return this.#byKey.get(key)?.previousSide(key) ?? null;
  }
}

interface Feed {
  key: string;
  symbol: string;
  indicators: SharedIndicators;
  /** Timeframes added and not warmed up yet. */
  cold: Timeframe[];
  /** The simulator: the current minute as last seen (its close so far), pushed once the minute is over. */
  seen: { time: number; close: string } | null;
  /** Exchanges: the wall-clock minute of the last candle read (one read per minute and feed). */
  readMinute: number;
  reading: Promise<void> | null;
  /** Per template's conditions: their gates at the feed's last minute, shared by the template's tasks. */
  evaluations: WeakMap<StrategyConditions, Evaluation>;
}

/** A task's gates at one minute of its feed. */
interface Evaluation {
  minute: number | null;
  conditions: StrategyConditions;
  results: Partial<Record<Gate, GateResult>>;
  signals: GateSignals;
}

/**
 * The runner's signal conditions (issue 29): the shared indicators per
 * (venue, symbol), created only for tasks whose strategy has conditions, fed
 * closed minutes (the simulator's prices, the replayed candles, or an
 * exchange's `fetchOHLCV`, one read per minute and symbol, in the exchange's
 * shared request budget), warmed up from history at the start; and each
 * task's gates, evaluated at most once per closed minute.
 */
export const createSignals = (engine: EngineContext) => {
  const feeds = new Map<string, Feed>();
  const evaluations = new WeakMap<LiveTask, Evaluation>();
  /** What each task's waiting status was last worked out from. */
  const waited = new WeakMap<LiveTask, { evaluation: Evaluation | undefined; state: LiveTask['state']; params: LiveTask['params']; finished: boolean }>();
  let gateEvaluations = 0;
  const unwritten = new Set<LiveTask>();
  /** A gate's text, once per group object. */
  const texts = new WeakMap<object, string>();
  const textOf = (group: NonNullable<StrategyConditions['start']>) => {
    let text = texts.get(group);
    if (text === undefined) texts.set(group, (text = describeGroup(group)));
    return text;
  };

  const replayed = (feed: Feed) => feed.key === `${SIMULATOR}|${engine.market.replay?.symbol}` && engine.options.replay !== undefined;
  const isSimulator = (feed: Feed) => feed.key.startsWith(`${SIMULATOR}|`);

  /** Each task's feed, found again while its conditions and venue stay the same (asked for every task at every turn). */
  const taskFeeds = new WeakMap<LiveTask, { conditions: StrategyConditions; venue: string; feed: Feed }>();
  const feedOf = (task: LiveTask): Feed | null => {
    const conditions = task.strategy.conditions;
    if (!conditions || !hasConditions(conditions)) return null;
    const venue = task.real ? task.exchange : engine.venues.venueFor(task).key;
    const known = taskFeeds.get(task);
    if (known && known.conditions === conditions && known.venue === venue) return known.feed;
    const key = `${venue}|${task.symbol}`;
    let feed = feeds.get(key);
    if (!feed) {
      feed = { key, symbol: task.symbol, indicators: new SharedIndicators(), cold: [], seen: null, readMinute: 0, reading: null, evaluations: new WeakMap() };
      feeds.set(key, feed);
    }
    feed.cold.push(...feed.indicators.addKeys(indicatorKeysOf(conditions)));
    taskFeeds.set(task, { conditions, venue, feed });
    return feed;
  };

  /** The replayed candles closed by now (those before the one on show), or only the last `last` of them. */
  const replayClosed = (last?: number) => {
    const candles = engine.options.replay!.candles;
    const current = engine.market.replay!.status().played - 1;
    return candles.slice(last === undefined ? 0 : Math.max(0, current - last), Math.max(0, current));
  };

  /** The simulator's history of a symbol: hourly candles (for timeframes of an hour or more) before its kept minutes. */
  const simulatorHistory = async (feed: Feed, timeframes: readonly Timeframe[]) => {
    const minutes = await sql<{ t: string; close: string }>`
      select minute::text as t, close::text as close from (
        select minute, close from paper_candles where symbol = ${feed.symbol} and minute < ${Math.floor(engine.now() / MINUTE_MS) * MINUTE_MS}::bigint
        order by minute desc limit ${WARM_MINUTES}) m order by minute`.execute(engine.db);
    const first = minutes.rows[0] ? Number(minutes.rows[0].t) : Math.floor(engine.now() / MINUTE_MS) * MINUTE_MS;
    const hours = timeframes.some((tf) => TIMEFRAME_MS[tf] >= 3_600_000)
      ? await sql<{ t: string; close: string }>`
          select hour::text as t, close::text as close from (
            select hour, close from paper_candles_hourly where symbol = ${feed.symbol} and hour < ${first}::bigint order by hour desc limit ${WARM_LIMIT * 24}) h order by hour`.execute(engine.db)
      : { rows: [] };
    return {
      hours: hours.rows.map((row) => ({ time: Number(row.t), close: row.close })),
      minutes: minutes.rows.map((row) => ({ time: Number(row.t), close: row.close })),
    };
  };

  /** Warms up the timeframes just added: from the replay, the simulator's stored candles, or the exchange's. */
  const warm = async (feed: Feed, client: ExchangeClient | null) => {
    const timeframes = [...feed.cold];
    if (timeframes.length === 0) return;
    /** A timeframe is warm once its history is in (a failed read leaves it cold, to be read again). */
    const warmed = (tf: Timeframe) => feed.cold.splice(feed.cold.indexOf(tf), 1);
    if (replayed(feed)) {
      // The minute before the first candle closed at its open (as the backtest takes it: a running market's last minute), then the candles played.
      const { candles, interval } = engine.options.replay!;
      const closed = [{ time: candles[0]!.time - interval, close: candles[0]!.open }, ...replayClosed()];
      for (const tf of timeframes) {
        feed.indicators.warm(tf, closed);
        warmed(tf);
      }
      return;
    }
    if (isSimulator(feed) || !client) {
      const { hours, minutes } = await simulatorHistory(feed, timeframes);
      for (const tf of timeframes) {
        if (TIMEFRAME_MS[tf] >= 3_600_000) feed.indicators.warm(tf, hours);
        feed.indicators.warm(tf, minutes);
        warmed(tf);
      }
      return;
    }
    const now = Date.now();
    for (const tf of timeframes) {
      const ms = TIMEFRAME_MS[tf];
      // Closed candles only: the one still open is fed minute by minute.
      const candles = (await client.fetchOHLCV(feed.symbol, tf, WARM_LIMIT)).filter((candle) => candle.time + ms <= now);
      // A coarse candle enters as its last minute: it closes its own bucket.
      feed.indicators.warm(tf, candles.map((candle) => ({ time: candle.time + ms - MINUTE_MS, close: candle.close })));
      warmed(tf);
    }
  };

  /** An exchange's closed minutes since the last read: one read per minute and feed, whoever asks. */
  const readExchange = async (feed: Feed, client: ExchangeClient, exchangeId: string) => {
    const minute = Math.floor(Date.now() / MINUTE_MS);
    if (feed.readMinute === minute) return feed.reading ?? undefined;
    feed.readMinute = minute;
    feed.reading = (async () => {
      try {
        await warm(feed, client);
        const candles = await client.fetchOHLCV(feed.symbol, '1m', 3);
        for (const candle of candles) if (candle.time + MINUTE_MS <= minute * MINUTE_MS) feed.indicators.push(candle);
        await reportUp(engine, exchangeId);
      } catch (error) {
        // Shared by every task on the symbol: an outage of the exchange (reported once), never a task's failure; read again next minute.
        const shared = engine.outages.sharedCause(error, exchangeId);
        if (shared) await reportDown(engine, shared, error);
        else engine.log.warn({ err: error, symbol: feed.symbol, exchange: exchangeId }, 'candles could not be read; the conditions keep their last readings');
      } finally {
        feed.reading = null;
      }
    })();
    return feed.reading;
  };

  return {
    /** Paper feeds: the simulator's minutes (and the replay's candles) as they close; called once a tick, after the market moved. */
    onTick() {
      for (const feed of feeds.values()) {
        if (!isSimulator(feed)) continue;
        if (replayed(feed)) {
          for (const candle of replayClosed(2)) feed.indicators.push(candle);
          continue;
        }
        const minute = Math.floor(engine.now() / MINUTE_MS) * MINUTE_MS;
        if (feed.seen && feed.seen.time < minute) feed.indicators.push(feed.seen);
        feed.seen = { time: minute, close: engine.market.price(feed.symbol) };
      }
    },

    /** Before paper tasks decide: their feeds exist and are warmed up (history read once). */
    async preparePaper(tasks: readonly LiveTask[]) {
      for (const task of tasks) {
        // Paper tasks read their venue's prices; real ones their exchange's (prepareReal).
        const feed = feedOf(task);
        if (!feed) continue;
        if (isSimulator(feed)) {
          if (feed.cold.length > 0) await warm(feed, null);
          continue;
        }
        // A live public market: its exchange's candles, as for a real account.
        const live = engine.venues.venueFor(task).live;
        if (live) await readExchange(feed, live.client, live.exchangeId);
      }
    },

    /** Before a real task decides: its exchange's closed minutes (one read per minute and symbol). */
    async prepareReal(task: LiveTask, client: ExchangeClient) {
      const feed = feedOf(task);
      if (feed) await readExchange(feed, client, engine.clients.exchangeOf(task.accountId) ?? task.exchange);
    },

    /**
     * The task's gates as decide() takes them, evaluated once per closed
     * minute of its feed; undefined for a task without conditions (the old
     * path, at the old cost).
     */
    gatesOf(task: LiveTask): GateSignals | undefined {
      const conditions = task.strategy.conditions;
      if (!conditions || !hasConditions(conditions)) return undefined;
      const feed = feedOf(task)!;
      const minute = feed.indicators.minute;
      const known = evaluations.get(task);
      if (known && known.minute === minute && known.conditions === conditions) return known.signals;
      // Tasks of one template on one feed share its evaluation: once per minute for all of them.
      let evaluation = feed.evaluations.get(conditions);
      if (!evaluation || evaluation.minute !== minute) {
        const results: Evaluation['results'] = {};
        for (const gate of ['start', 'replenish', 'close'] as const) {
          const group = conditions[gate];
          if (!group) continue;
          results[gate] = evaluateGate(group, feed.indicators);
          gateEvaluations += 1;
        }
        const signals: GateSignals = {
          start: results.start?.holds ?? true,
          replenish: results.replenish?.holds ?? true,
          close: results.close?.holds ?? false,
        };
        evaluation = { minute, conditions, results, signals };
        feed.evaluations.set(conditions, evaluation);
      }
      evaluations.set(task, evaluation);
      return evaluation.signals;
    },

    /**
     * What the task waits for now (after its decision), written with its
     * state when the gate or a reading changed (once a minute at most).
     */
    updateWaiting(task: LiveTask) {
      const evaluation = evaluations.get(task);
      // Nothing it reads changed since the last time: the same gates, the same state (a new object on every change), the same settings.
      const last = waited.get(task);
      if (last && last.evaluation === evaluation && last.state === task.state && last.params === task.params && last.finished === task.finished) return;
      waited.set(task, { evaluation, state: task.state, params: task.params, finished: task.finished });
      let waiting: TaskWaiting | null = null;
      if (evaluation && task.params.running && !task.finished && !task.state.pendingOrder) {
        const { results } = evaluation;
        const { phase } = task.state;
        const open = phase === 'open';
        const levelLeft = task.params.replenishStatus === 'replenish_open' && task.state.levelsFilled < task.strategy.levels.length;
        const gate: Gate | null =
          !open && phase !== 'finished' && results.start && !results.start.holds
            ? 'start'
            : open && levelLeft && results.replenish && !results.replenish.holds
              ? 'replenish'
              : open && results.close && !results.close.holds
                ? 'close'
                : null;
        if (gate) {
          const since = task.waiting?.gate === gate ? task.waiting.since : new Date(engine.now()).toISOString();
          waiting = { gate, since, readings: results[gate]!.readings, text: textOf(evaluation.conditions[gate]!) };
        }
      }
      const before = task.waiting ?? null;
      const same = before === waiting || (before !== null && waiting !== null && JSON.stringify(before) === JSON.stringify(waiting));
      if (same) return;
      task.waiting = waiting;
      // Written with the next flush of states (every FLUSH_EVERY_TICKS), not in the tick's own commit.
      unwritten.add(task);
    },

    /** The tasks whose waiting status changed since the last flush; the flush writes them. */
    takeUnwritten() {
      const tasks = [...unwritten];
      unwritten.clear();
      return tasks;
    },

    /** When a task with conditions must decide again although its price stays quiet: when the next minute has closed. */
    nextMinute(task: LiveTask): number | undefined {
      if (!hasConditions(task.strategy.conditions)) return undefined;
      return (Math.floor(engine.now() / MINUTE_MS) + 1) * MINUTE_MS;
    },

    /** Whether the task's start gate held at its last evaluation (a task between cycles waits for the next minute otherwise). */
    startHolds: (task: LiveTask) => evaluations.get(task)?.signals.start ?? true,

    /** Counts for the bench and the status: feeds (venue and symbol) and gate evaluations so far. */
    counts: () => ({ feeds: feeds.size, gateEvaluations }),
  };
};

export type Signals = ReturnType<typeof createSignals>;
