/**
 * The paper tasks of the engine benches (engine.ts, notify.ts): users
 * activated and fuelled, one paper account each, and the tasks spread over
 * the simulated symbols and three ladders, so that they really trade.
 */
import { initialCycleState } from '../server/src/engine/core/decide';
import { PAPER_MARKETS } from '../server/src/engine/venues/paper/market';
import type { Db } from '../server/src/db/database';
import { post, system, user as ledgerUser } from '../server/src/wallet/ledger';
import type { StrategyConditions } from '../src/api/conditions';
import type { StrategySettings } from '../src/api/strategy';
import { DEFAULT_START_MS } from '../server/src/engine/venues/paper/market';
import { sql } from 'kysely';

/** The system templates' balanced ladder. */
export const strategy: StrategySettings = {
  levels: [
    { dropPercent: '1', multiple: '1' },
    { dropPercent: '2.5', multiple: '2' },
    { dropPercent: '4.75', multiple: '4' },
    { dropPercent: '8.125', multiple: '8' },
  ],
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0.3',
  replenishCallbackPercent: '0.2',
  stopLossPercent: null,
  cooldownSeconds: 60,
};

/** Ladders from tight (trades within minutes of the simulated market) to the system templates' own. */
export const LADDERS: { name: string; settings: StrategySettings }[] = [
  {
    name: 'tight',
    settings: {
      levels: [
        { dropPercent: '0.1', multiple: '1' },
        { dropPercent: '0.25', multiple: '2' },
        { dropPercent: '0.5', multiple: '4' },
      ],
      takeProfitPercent: '0.3',
      takeProfitCallbackPercent: '0',
      replenishCallbackPercent: '0',
      stopLossPercent: null,
      cooldownSeconds: 5,
    },
  },
  {
    name: 'trailing',
    settings: {
      levels: [
        { dropPercent: '0.2', multiple: '1' },
        { dropPercent: '0.5', multiple: '1.5' },
        { dropPercent: '1', multiple: '2.25' },
      ],
      takeProfitPercent: '0.4',
      takeProfitCallbackPercent: '0.1',
      replenishCallbackPercent: '0.05',
      stopLossPercent: null,
      cooldownSeconds: 30,
    },
  },
  { name: 'balanced', settings: strategy },
];

export const USERS = 100;

/** Users activated and fuelled, one paper account each with funds for all its tasks, and the tasks spread over the symbols and ladders. */
export const seed = async (db: Db, taskCount: number) => {
  const strategyIds: string[] = [];
  const owners: { userId: string; accountId: string }[] = [];
  const perUser = Math.ceil(taskCount / USERS);
  for (let u = 0; u < USERS; u += 1) {
    const owner = await db
      .insertInto('users')
      .values({ email: `bench${u}@example.com`, nickname: `Bench ${u}`, password_hash: 'x', invite_code: `BENCH${u}`, inviter_id: null, avatar: null, activated: true } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.transaction().execute((trx) =>
      post(trx, { kind: 'adjustment', userId: null, moves: [{ from: system('adjustments', 'FUEL'), to: ledgerUser(owner.id, 'FUEL'), amount: '1000000' }], memo: { reason: 'bench' } }),
    );
    const account = await db
      .insertInto('exchange_accounts')
      .values({ user_id: owner.id, exchange: 'paper', name: 'Bench', paper_balances: JSON.stringify({ USDT: String(perUser * 400) }) } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    owners.push({ userId: owner.id, accountId: account.id });
    if (u === 0) {
      for (const ladder of LADDERS) {
        const row = await db
          .insertInto('strategies')
          .values({
            user_id: owner.id,
            name: ladder.name,
            levels: JSON.stringify(ladder.settings.levels),
            take_profit_percent: ladder.settings.takeProfitPercent,
            take_profit_callback_percent: ladder.settings.takeProfitCallbackPercent,
            replenish_callback_percent: ladder.settings.replenishCallbackPercent,
            stop_loss_percent: ladder.settings.stopLossPercent,
            cooldown_seconds: ladder.settings.cooldownSeconds,
          } as never)
          .returning('id')
          .executeTakeFirstOrThrow();
        strategyIds.push(row.id);
      }
    }
  }
  for (let offset = 0; offset < taskCount; offset += 1000) {
    await db
      .insertInto('trade_tasks')
      .values(
        Array.from({ length: Math.min(1000, taskCount - offset) }, (_, j) => {
          const i = offset + j;
          const owner = owners[i % USERS]!;
          return {
            user_id: owner.userId,
            exchange_account_id: owner.accountId,
            symbol: PAPER_MARKETS[Math.floor(i / USERS) % PAPER_MARKETS.length]!.symbol,
            strategy_id: strategyIds[i % strategyIds.length]!,
            // 10 to 20 USDT, so that tasks of one symbol do not all act on the same tick.
            first_order_amount: String(10 + (i % 11)),
            first_order_multiple: false,
            cycle_count: 9999,
            running: true,
            replenish_status: 'replenish_open' as const,
            state: JSON.stringify(initialCycleState()),
          };
        }),
      )
      .execute();
  }
};

/**
 * Signal conditions of the bench's conditions mode (issue 29), on three
 * timeframes: a cycle starts while RSI(14,1m) is below 70 or the price
 * crosses above EMA(20,5m); a level buys while RSI(14,5m) is below 80; the
 * position closes at the upper Bollinger band of 15m.
 */
export const BENCH_CONDITIONS: StrategyConditions = {
  start: {
    mode: 'any',
    conditions: [
      { kind: 'rsi', period: 14, timeframe: '1m', op: 'below', value: '70' },
      { kind: 'ma_cross', average: 'ema', period: 20, timeframe: '5m', side: 'above' },
    ],
  },
  replenish: { mode: 'all', conditions: [{ kind: 'rsi', period: 14, timeframe: '5m', op: 'below', value: '80' }] },
  close: { mode: 'all', conditions: [{ kind: 'bollinger', period: 20, deviations: '2', timeframe: '15m', band: 'upper' }] },
};

/**
 * A day of the simulator's minutes before the market's start for every
 * symbol (a seeded walk that ends at its start price), as the engine keeps
 * them in `paper_candles`: the conditions warm up from it at the start.
 */
export const seedHistory = async (db: Db, minutes = 1440) => {
  let seed = 11;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (const market of PAPER_MARKETS) {
    const rows: { minute: number; close: string }[] = [];
    const decimals = (market.tickSize.split('.')[1] ?? '').length;
    let price = Number(market.startPrice);
    for (let m = 1; m <= minutes; m += 1) {
      rows.push({ minute: DEFAULT_START_MS - m * 60_000, close: price.toFixed(decimals) });
      price *= 1 + (random() - 0.5) * 0.004;
    }
    const closes = rows.map((row) => row.close);
    await sql`
      insert into paper_candles (symbol, minute, open, high, low, close, volume)
      select ${market.symbol}, m, c::numeric, c::numeric, c::numeric, c::numeric, 0
      from unnest(${rows.map((row) => String(row.minute))}::bigint[], ${closes}::text[]) as x(m, c)`.execute(db);
  }
};
