/**
 * The demo account's bots and their history (README "Run"): on first start
 * they trade the bundled BTC/USDT minutes through the engine itself (the
 * runner: decide(), the paper exchange, applyFill, the journal), so every
 * order, cycle, profit and fee a visitor sees is what the engine booked. The
 * history is laid out to end now and to join the paper market: its times are
 * shifted so the last candle closes at the start, and its prices scaled so
 * the last close is the simulated market's opening price, where the bots go
 * on trading live. The same minutes become the simulator's chart history of
 * the pair, so the task pages show the fills on their candles.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Big from 'big.js';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { PAPER_EXCHANGE, SIMULATOR } from '../../../src/api/exchange';
import type { StrategySettings } from '../../../src/api/strategy';
import type { DecimalString } from '../../../src/api/types';
import type { Db } from '../db/database';
import { type Candle, candleInterval, parseCandlesCsv } from '../engine/core/candles';
import { initialCycleState } from '../engine/core/decide';
import { createMarket, PAPER_MARKETS, type PaperMarket } from '../engine/venues/paper/market';
import { createRunner } from '../engine/runner/runner';
import { engineDomains } from '../engineDomains';
import { DEMO_EMAIL } from '../../../src/api/demo';

export const DEMO_SYMBOL = 'BTC/USDT';
/** The bundled history (server/market-data/README.md). */
export const DEMO_HISTORY_FILE = join(process.cwd(), 'server', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv');
/** The minutes the demo's bots have behind them: the file's last two days (BTC climbing and turning back). */
export const DEMO_HISTORY_MINUTES = 2 * 24 * 60;

/** The demo's paper account. */
export const DEMO_ACCOUNT_NAME = 'Demo';

export interface DemoBot {
  name: string;
  firstOrderAmount: DecimalString;
  strategy: StrategySettings;
}

const ladder = (drops: string[], growth: string) => drops.map((dropPercent, i) => ({ dropPercent, multiple: new Big(growth).pow(i).toFixed() }));

/** Two bots on the replayed pair (a third place stays free for a visitor's own: at most 3 tasks per coin). */
export const DEMO_BOTS: readonly DemoBot[] = [
  {
    name: 'BTC DCA 1.5%',
    firstOrderAmount: '50',
    strategy: {
      levels: ladder(['1', '2', '3.5', '5.5', '8', '11'], '1.5'),
      takeProfitPercent: '1.5',
      takeProfitCallbackPercent: '0',
      replenishCallbackPercent: '0',
      stopLossPercent: null,
      cooldownSeconds: 0,
    },
  },
  {
    name: 'BTC DCA 0.8% trailing',
    firstOrderAmount: '30',
    strategy: {
      levels: ladder(['0.6', '1.2', '2', '3', '4.5', '6.5'], '2'),
      takeProfitPercent: '0.8',
      takeProfitCallbackPercent: '0.2',
      replenishCallbackPercent: '0.1',
      stopLossPercent: null,
      cooldownSeconds: 60,
    },
  },
];

const spec = (): PaperMarket => PAPER_MARKETS.find((market) => market.symbol === DEMO_SYMBOL)!;

/**
 * The history as the demo shows it: the last `minutes` candles of the file,
 * shifted so the last one closes at `endMs` (floored to a whole minute), prices scaled (to the pair's
 * tick) so the last close is `endPrice`. Moves keep their size in percent.
 */
export const demoCandles = (candles: readonly Candle[], endMs: number, endPrice: DecimalString, tickSize: DecimalString, minutes = DEMO_HISTORY_MINUTES): Candle[] => {
  const window = candles.slice(-minutes);
  const interval = candleInterval(candles);
  const last = window.at(-1)!;
  // On whole intervals, so the live market's minutes follow the last one.
  const shift = Math.floor(endMs / interval) * interval - (last.time + interval);
  const scale = new Big(endPrice).div(last.close);
  const onGrid = (price: string) => new Big(price).times(scale).div(tickSize).round(0, Big.roundHalfUp).times(tickSize).toFixed();
  return window.map((candle) => {
    const open = onGrid(candle.open);
    const close = onGrid(candle.close);
    return {
      time: candle.time + shift,
      open,
      high: onGrid(candle.high),
      low: onGrid(candle.low),
      close,
      volume: candle.volume,
    };
  });
};

export const readDemoHistory = (endMs: number): Candle[] => {
  const market = spec();
  return demoCandles(parseCandlesCsv(readFileSync(DEMO_HISTORY_FILE, 'utf8')), endMs, market.startPrice, market.tickSize);
};

/**
 * Creates the demo's paper account and bots, once, and plays the history
 * through the engine for them. Answers what it did (null when the demo
 * already has bots), with the milliseconds it took.
 */
export const seedDemoBots = async (
  db: Db,
  options: { log: FastifyBaseLogger; paperStartUsdt: DecimalString; feeRate: DecimalString; seed: number; accountName: string; now?: number },
): Promise<{ tasks: number; cycles: number; orders: number; ms: number } | null> => {
  const started = performance.now();
  const demo = await db.selectFrom('users').select('id').where('email', '=', DEMO_EMAIL).executeTakeFirst();
  if (!demo) return null;
  // Once: a demo that has (or had) bots keeps them as they are.
  if (await db.selectFrom('trade_tasks').select('id').where('user_id', '=', demo.id).executeTakeFirst()) return null;
  const endMs = options.now ?? Date.now();
  const candles = readDemoHistory(endMs);
  const interval = candleInterval(candles);
  const createdAt = new Date(candles[0]!.time);

  const taskIds = await db.transaction().execute(async (trx) => {
    const account = await trx
      .insertInto('exchange_accounts')
      .values({
        user_id: demo.id,
        exchange: PAPER_EXCHANGE,
        name: options.accountName,
        paper_balances: JSON.stringify({ USDT: options.paperStartUsdt }),
        price_source: SIMULATOR,
        created_at: createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ids: string[] = [];
    for (const bot of DEMO_BOTS) {
      const strategy = await trx
        .insertInto('strategies')
        .values({
          user_id: demo.id,
          name: bot.name,
          levels: JSON.stringify(bot.strategy.levels),
          take_profit_percent: bot.strategy.takeProfitPercent,
          take_profit_callback_percent: bot.strategy.takeProfitCallbackPercent,
          replenish_callback_percent: bot.strategy.replenishCallbackPercent,
          stop_loss_percent: bot.strategy.stopLossPercent,
          cooldown_seconds: bot.strategy.cooldownSeconds,
          created_at: createdAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const task = await trx
        .insertInto('trade_tasks')
        .values({
          user_id: demo.id,
          exchange_account_id: account.id,
          symbol: DEMO_SYMBOL,
          strategy_id: strategy.id,
          first_order_amount: bot.firstOrderAmount,
          first_order_multiple: false,
          cycle_count: 9999,
          running: true,
          replenish_status: 'replenish_open',
          state: JSON.stringify(initialCycleState()),
          created_at: createdAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(task.id);
    }
    return ids;
  });

  // The engine over the history: a market replaying it (its clock the candles'), a runner driving only these bots,
  // its journal stamped with the market's time.
  const market = createMarket(options.seed, candles[0]!.time, [spec()], { replay: { symbol: DEMO_SYMBOL, candles, interval } });
  const runner = createRunner({ db, domains: engineDomains, log: options.log, seed: options.seed, tickMs: 0, market, feeRate: options.feeRate, taskIds, journalMarketTime: true, recordCandles: false });
  await runner.start();
  try {
    while (!market.replay!.status().done) await runner.tick();
  } finally {
    await runner.stop();
  }
  // The same minutes are the simulator's chart history of the pair (written at once rather than a statement a minute).
  await sql`
    insert into paper_candles (symbol, minute, open, high, low, close, volume)
    select ${DEMO_SYMBOL}, minute, open::numeric, high::numeric, low::numeric, close::numeric, volume::numeric
    from unnest(${candles.map((c) => c.time)}::bigint[], ${candles.map((c) => c.open)}::text[], ${candles.map((c) => c.high)}::text[],
                ${candles.map((c) => c.low)}::text[], ${candles.map((c) => c.close)}::text[], ${candles.map((c) => c.volume)}::text[])
         as x(minute, open, high, low, close, volume)
    on conflict (symbol, minute) do nothing`.execute(db);
  const count = async (table: 'cycles' | 'orders') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).where('task_id', 'in', taskIds).executeTakeFirstOrThrow()).n);
  return { tasks: taskIds.length, cycles: await count('cycles'), orders: await count('orders'), ms: Math.round(performance.now() - started) };
};
