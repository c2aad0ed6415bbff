import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StrategyConditions } from '../../../../src/api/conditions';
import type { Candle } from '../core/candles';
import { initialCycleState } from '../core/decide';
import { ExchangeClientError, type ExchangeClient } from '../venues/exchangeClient';
import type { EngineContext, LiveTask } from './context';
import { createOutages } from './outages';
import { createSignals } from './signals';

/**
 * The indicators of real exchanges' tasks (issue 29): one feed per exchange
 * and symbol, shared by its tasks, warmed up with each timeframe's own
 * candles, then one 1-minute read per minute whoever asks; a failed read is
 * the exchange's outage, not a task's failure.
 */
const MINUTE = 60_000;
const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 20, 12, 0, 0);

const conditions: StrategyConditions = { start: { mode: 'all', conditions: [{ kind: 'rsi', period: 14, timeframe: '1h', op: 'below', value: '30' }] } };

/** Candles falling by 1 each, so RSI is 0 once warmed up. */
const falling = (timeframeMs: number, count: number, endOpen: number): Candle[] =>
  Array.from({ length: count }, (_, i) => {
    const close = String(1000 - (i + 1));
    return { time: endOpen - (count - 1 - i) * timeframeMs, open: close, high: close, low: close, close, volume: '1' };
  });

describe('signals of a real exchange', () => {
  let reads: Array<{ timeframe: string; limit: number }>;
  let failing: boolean;
  let client: ExchangeClient;
  let engine: EngineContext;
  const log = Fastify({ logger: false }).log;

  const task = (id: string): LiveTask =>
    ({
      id,
      userId: 'u',
      accountId: `account-${id}`,
      exchange: 'binance',
      priceSource: null,
      shard: 0,
      symbol: 'BTC/USDT',
      params: { firstOrderAmount: '10', firstOrderMultiple: false, cycleCount: 9999, replenishStatus: 'replenish_open', running: true },
      strategy: { levels: [], takeProfitPercent: '1', takeProfitCallbackPercent: '0', replenishCallbackPercent: '0', stopLossPercent: null, cooldownSeconds: 0, conditions },
      state: initialCycleState(),
      finished: false,
      attention: null,
      real: true,
      dirty: false,
      retryAfter: 0,
      backoffUntilTick: 0,
      failures: 0,
      exchangeCancels: 0,
      fuelWaitUntil: null,
    }) as LiveTask;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START + 5_000);
    reads = [];
    failing = false;
    client = {
      fetchOHLCV: async (_symbol: string, timeframe: string, limit: number) => {
        reads.push({ timeframe, limit });
        if (failing) throw new ExchangeClientError({ kind: 'transient', reason: 'unreachable', retryable: true } as never, 'down');
        // The last candle is still open: the feed keeps only closed ones.
        if (timeframe === '1h') return falling(HOUR, 30, Math.floor(Date.now() / HOUR) * HOUR);
        return falling(MINUTE, 3, Math.floor(Date.now() / MINUTE) * MINUTE);
      },
    } as unknown as ExchangeClient;
    const tasks = new Map<string, LiveTask>();
    engine = {
      options: {},
      log,
      tasks,
      outages: createOutages(log),
      clients: { exchangeOf: () => 'binance' },
      market: { replay: null, now: () => START },
      now: () => START,
      journal: async () => undefined,
      fenceFor: () => undefined,
      venues: {},
    } as unknown as EngineContext;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('warms up each timeframe from its own candles, then reads one minute per minute for all the tasks of a symbol', async () => {
    const signals = createSignals(engine);
    const a = task('a');
    const b = task('b');
    await signals.prepareReal(a, client);
    await signals.prepareReal(b, client);
    // One feed; the 1h history once (its open candle left out), one read of minutes this minute.
    expect(signals.counts().feeds).toBe(1);
    expect(reads).toEqual([
      { timeframe: '1h', limit: 500 },
      { timeframe: '1m', limit: 3 },
    ]);
    // RSI(14,1h) is ready at once: the start gate holds for both, evaluated once for the template.
    expect(signals.gatesOf(a)).toMatchObject({ start: true });
    expect(signals.gatesOf(b)).toMatchObject({ start: true });
    expect(signals.counts().gateEvaluations).toBe(1);

    vi.setSystemTime(START + MINUTE + 5_000);
    await signals.prepareReal(a, client);
    await signals.prepareReal(b, client);
    expect(reads.slice(2)).toEqual([{ timeframe: '1m', limit: 3 }]);
  });

  it('takes a failed read as the exchange down, for every task, and reads again the next minute', async () => {
    const signals = createSignals(engine);
    const a = task('a');
    failing = true;
    await expect(signals.prepareReal(a, client)).resolves.toBeUndefined();
    expect(engine.outages.isDown('exchange:binance')).toBe(true);
    expect(a.failures).toBe(0);
    // Nothing warmed up: the gate waits.
    expect(signals.gatesOf(a)).toMatchObject({ start: false });

    failing = false;
    await signals.prepareReal(a, client);
    // Not before the next minute.
    expect(reads).toHaveLength(1);
    vi.setSystemTime(START + MINUTE + 5_000);
    await signals.prepareReal(a, client);
    expect(engine.outages.isDown('exchange:binance')).toBe(false);
    expect(signals.gatesOf(a)).toMatchObject({ start: true });
  });
});
