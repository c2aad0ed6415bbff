import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Big from 'big.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { StrategyConditions } from '../../src/api/conditions';
import type { StrategySettings } from '../../src/api/strategy';
import { runBacktest } from '../src/backtest/run';
import { candleInterval, parseCandlesCsv } from '../src/engine/core/candles';
import { PAPER_MARKETS } from '../src/engine/venues/paper/market';
import { adjustBalance, registerUser, startServer, type TestServer } from './harness';
import { SIX_LEVELS } from './ladders';

const SAMPLE = join(import.meta.dirname, '..', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv');
const SYMBOL = 'BTC/USDT';

/** The six-level ladder of the engine's acceptance run, with both callbacks so the trailing paths are compared too. */
const settings: StrategySettings = {
  levels: SIX_LEVELS,
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0.3',
  replenishCallbackPercent: '0.2',
  stopLossPercent: null,
  cooldownSeconds: 60,
};

/**
 * Issue 28's exits: half the position at +1.5 %, the rest at +3 % trailing,
 * the stop moved to the break-even after the first target, a stop 1 % below
 * the second level armed once it filled, and a 12 h time stop. On the 30
 * hours from 13 March 15:20 each of them ends a cycle.
 */
const exitSettings: StrategySettings = {
  ...settings,
  levels: SIX_LEVELS.slice(0, 2),
  takeProfitTargets: [
    { sharePercent: '50', profitPercent: '1.5', trailing: false },
    { sharePercent: '50', profitPercent: '3', trailing: true },
  ],
  breakEven: true,
  stopLossPercent: '1',
  stopLossBase: 'last_level',
  stopLossAfterLastLevel: true,
  timeStopHours: 12,
};

/**
 * Signals (issue 29), on a tight ladder: a cycle starts only while RSI(14,5m)
 * is below 45, and a triggered level buys only on the minute the price
 * crosses back above its SMA(20,1m).
 */
const signalConditions: StrategyConditions = {
  start: { mode: 'all', conditions: [{ kind: 'rsi', period: 14, timeframe: '5m', op: 'below', value: '45' }] },
  replenish: { mode: 'all', conditions: [{ kind: 'ma_cross', average: 'sma', period: 20, timeframe: '1m', side: 'above' }] },
};
const signalSettings: StrategySettings = {
  levels: [
    { dropPercent: '0.3', multiple: '1' },
    { dropPercent: '0.7', multiple: '2' },
    { dropPercent: '1.2', multiple: '3' },
  ],
  takeProfitPercent: '0.5',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0.1',
  stopLossPercent: null,
  cooldownSeconds: 0,
  conditions: signalConditions,
};

const VARIANTS = {
  // Ten days, 6 to 15 March: the fall of the USDC de-peg fills four levels, and the rally closes cycle after cycle.
  callbacks: { settings, firstOrderAmount: '10', name: 'Six levels', from: 7_200, to: 21_600 },
  exits: { settings: exitSettings, firstOrderAmount: '25', name: 'Targets and stops', from: 18_200, to: 20_000 },
  // 7.5 hours of 10 March, 09:00 to 16:30, in the fall of the de-peg: the gates hold back two of five cycles, and five level buys wait for a cross.
  signals: { settings: signalSettings, firstOrderAmount: '10', name: 'RSI start, SMA levels', from: 13_500, to: 13_950 },
};

/**
 * The same recorded candles through the live runner (the paper market's
 * replay: one engine tick per candle, orders on the paper exchange, fills
 * stored in the database) and through the backtest (close model): the same
 * orders at the same prices, amounts and fees, and the same cycles. On
 * PGlite only (backtestReplay.pglite.test.ts): what is compared is the
 * engine's decisions and fills, which no database changes; the engine on
 * PostgreSQL runs its own full-length replay (engineReplay.postgres.test.ts).
 */
export const describeBacktestReplay = (backend: 'pglite' | 'postgres', variant: keyof typeof VARIANTS = 'callbacks') =>
  describe(`the backtest and the live runner on replayed candles (${backend}, ${variant})`, () => {
  const { settings, firstOrderAmount, name, from, to } = VARIANTS[variant];
  let server: TestServer;
  afterEach(async () => server.close());

  it('fill the same orders and close the same cycles', async () => {
    const candles = parseCandlesCsv(readFileSync(SAMPLE, 'utf8')).slice(from, to);
    const interval = candleInterval(candles);

    // The server's paper market replays the candles (PAPER_REPLAY); its engine ticks only when asked.
    server = await startServer(backend, { paperReplay: { file: 'test', symbol: SYMBOL, speed: 'max', candles, interval } });
    const session = await registerUser(server, { email: 'replay@example.com', activated: true });
    await adjustBalance(server, session.user.id, 'FUEL', '1000');
    const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token: session.accessToken });
    const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Replay' })).body.data.id;
    const strategyId = (await call('POST', '/api/strategy/add', { name, ...settings })).body.data.id;
    expect((await call('GET', `/api/strategy/detail/${strategyId}`)).body.data).toMatchObject(settings);
    const created = await call('POST', '/api/trade/add', {
      exchangeId,
      coinIdList: [SYMBOL],
      cycleCount: 9999,
      firstOrderAmount,
      firstOrderMultiple: false,
      running: true,
      replenishStatus: 'replenish_open',
      strategyId,
    });
    expect(created.body).toMatchObject({ code: 0 });
    const taskId = created.body.data[0].id as string;
    const engine = server.app.engine;
    // The engine reads the template's conditions as saved.
    if (settings.conditions) expect(engine.tasks.get(taskId)!.strategy.conditions).toEqual(settings.conditions);

    // The replay waits at the first candle; the first tick starts it and decides on that candle, each next tick plays the next.
    for (let i = 0; i < candles.length; i += 1) await engine.tick();
    expect(engine.market.replay!.status()).toMatchObject({ played: candles.length, done: true });
    await engine.flush();

    const orders = await server.db
      .selectFrom('orders')
      .select(['side', 'reason', 'level', 'cycle', 'price', 'filled', 'cost', 'fee', 'fee_currency', 'status'])
      .where('task_id', '=', taskId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const cycles = await server.db.selectFrom('cycles').select(['cycle', 'realized_profit', 'buy_cost', 'levels_filled', 'exit_reason']).where('task_id', '=', taskId).orderBy('cycle').execute();

    const paper = PAPER_MARKETS.find((m) => m.symbol === SYMBOL)!;
    const backtestInput: Parameters<typeof runBacktest>[0] = {
      // The runner decides from the first candle on, as the backtest does.
      candles,
      interval,
      symbol: SYMBOL,
      settings,
      firstOrderAmount,
      firstOrderMultiple: false,
      cycleCount: 9999,
      market: { feeRate: '0.001', feeAsset: 'received', amountStep: paper.amountStep, minAmount: paper.minAmount, minCost: paper.minCost },
      tickSize: paper.tickSize,
      fill: 'close',
      detail: true,
    };
    const backtest = runBacktest(backtestInput);

    expect(orders.every((o) => o.status === 'closed')).toBe(true);
    expect(orders.length).toBeGreaterThan(variant === 'callbacks' ? 20 : variant === 'signals' ? 8 : 15);
    expect(cycles.length).toBeGreaterThan(variant === 'signals' ? 2 : 5);
    if (variant === 'callbacks') expect(cycles.some((c) => c.levels_filled >= 4)).toBe(true);
    else if (variant === 'signals') {
      // The conditions changed the trading: without them the same candles give other orders.
      const unconditioned = runBacktest({ ...backtestInput, settings: { ...settings, conditions: null } });
      expect(unconditioned.trades.map((t) => `${t.side}${t.level}@${t.price}`)).not.toEqual(backtest.trades.map((t) => `${t.side}${t.level}@${t.price}`));
      expect(cycles.some((c) => c.levels_filled >= 1)).toBe(true);
      // The gates were read from the shared indicators, once per minute, and the waits are in the task's log.
      expect(engine.signalCounts()).toMatchObject({ feeds: 1 });
      expect(engine.signalCounts().gateEvaluations).toBeGreaterThan(candles.length / 2);
      const waits = await server.db.selectFrom('task_events').select('id').where('task_id', '=', taskId).where('kind', '=', 'condition_wait').execute();
      expect(waits.length).toBeGreaterThan(0);
      // What the task waits for is stored with its state, as the task's page reads it.
      const detail = (await call('GET', `/api/trade/detail/${taskId}`)).body.data;
      const { waiting } = await server.db.selectFrom('trade_tasks').select('waiting').where('id', '=', taskId).executeTakeFirstOrThrow();
      expect(detail.waiting).toEqual(waiting);
      if (detail.waiting) expect(detail.waiting.text).toMatch(/RSI\(14,5m\) < 45|SMA\(20,1m\)/);
    } else {
      // Every exit happened: partial sales by target, the last target's, and each stop.
      expect(backtest.trades.filter((t) => t.partial).length).toBeGreaterThan(1);
      expect(backtest.trades.some((t) => t.target === 2)).toBe(true);
      expect(backtest.figures.exits).toMatchObject({ stopLoss: 1, timeStop: 1 });
      expect(backtest.figures.exits!.breakEven).toBeGreaterThan(0);
      // A partial sale is a take-profit order for less than the position, and closes no cycle.
      expect(orders.filter((o) => o.reason === 'take_profit').length).toBeGreaterThan(cycles.filter((c) => c.exit_reason === 'take_profit').length);
      // The task's log names each stop as the backtest counts it (this template's stop loss is measured from the last level).
      const stops = await server.db.selectFrom('task_events').select('data').where('task_id', '=', taskId).where('kind', '=', 'stop_loss').orderBy('id').execute();
      const named = { loss: 'loss_last_level', time: 'time', break_even: 'break_even' } as const;
      expect(stops.map((e) => (e.data as { stop?: string }).stop)).toEqual(backtest.trades.filter((t) => t.stop).map((t) => named[t.stop!]));
    }
    const same = (a: string, b: string) => new Big(a).eq(b);
    expect(backtest.trades).toHaveLength(orders.length);
    backtest.trades.forEach((trade, i) => {
      const order = orders[i]!;
      const where = `order ${i + 1}: ${JSON.stringify(order)} / ${JSON.stringify(trade)}`;
      expect([order.side, order.reason, order.level, order.cycle, order.fee_currency], where).toEqual([trade.side, trade.reason, trade.level, trade.cycle, trade.feeCurrency]);
      expect(same(order.price!, trade.price) && same(order.filled, trade.amount) && same(order.cost, trade.cost) && same(order.fee, trade.fee), where).toBe(true);
    });
    expect(backtest.cycles).toHaveLength(cycles.length);
    backtest.cycles.forEach((cycle, i) => {
      const stored = cycles[i]!;
      expect([stored.cycle, stored.levels_filled, stored.exit_reason]).toEqual([cycle.cycle, cycle.levelsFilled, cycle.exitReason]);
      expect(same(stored.realized_profit, cycle.profit) && same(stored.buy_cost, cycle.buyCost)).toBe(true);
    });
    const stored = cycles.reduce((sum, c) => sum.plus(c.realized_profit), new Big(0));
    expect(stored.eq(backtest.figures.realizedProfit)).toBe(true);
    // The position at the end is the task's, as stored.
    const { state } = await server.db.selectFrom('trade_tasks').select('state').where('id', '=', taskId).executeTakeFirstOrThrow();
    expect(state).toMatchObject({ cyclesDone: backtest.figures.cycles, quantity: backtest.figures.openPosition?.quantity ?? '0', cost: backtest.figures.openPosition?.cost ?? '0' });
    // 14 400 engine ticks, each journaled: on PostgreSQL this takes a while (longer on a shared machine).
  }, 900_000);
});
