/**
 * The engine over recorded history: the paper market replays a klines CSV
 * (default: the bundled three weeks of BTC/USDT minutes) through the real
 * runner, for one task with a six-level ladder (drops 2/4/7/11/16/22 %,
 * multiples x1.5, take profit 1.5 %, no callbacks, first order 10 USDT).
 * Prints what the task booked, what the same fills earn when each cycle sells
 * its whole position, the work done and the time it took; fails when no
 * cycle closed.
 *
 *   npm run bench:replay             (REPLAY_CSV=file.csv to replay another file)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import Big from 'big.js';
import Fastify from 'fastify';
import { candleInterval, parseCandlesCsv } from '../server/src/engine/core/candles';
import { initialCycleState } from '../server/src/engine/core/decide';
import { createMarket, PAPER_MARKETS } from '../server/src/engine/venues/paper/market';
import { createRunner } from '../server/src/engine/runner/runner';
import { engineDomains } from '../server/src/engineDomains';
import { migrate, openDatabase } from '../server/src/db/database';
import { post, system, user as ledgerUser } from '../server/src/wallet/ledger';

const file = process.env.REPLAY_CSV ?? join(process.cwd(), 'server', 'market-data', 'BTCUSDT-1m-2023-03-01_2023-03-21.csv');
const candles = parseCandlesCsv(readFileSync(file, 'utf8'));

const db = await openDatabase({ pglite: new PGlite() });
await migrate(db);
const owner = await db.insertInto('users').values({ email: 'replay@example.com', nickname: 'Replay', password_hash: 'x', invite_code: 'REPLAY', inviter_id: null, avatar: null, activated: true } as never).returning('id').executeTakeFirstOrThrow();
// Fuel for every cycle: the engine opens no cycle without it.
await db.transaction().execute((trx) => post(trx, { kind: 'adjustment', userId: null, moves: [{ from: system('adjustments', 'FUEL'), to: ledgerUser(owner.id, 'FUEL'), amount: '1000' }], memo: { reason: 'bench' } }));
const account = await db
  .insertInto('exchange_accounts')
  .values({ user_id: owner.id, exchange: 'paper', name: 'Replay', paper_balances: JSON.stringify({ USDT: '10000' }) } as never)
  .returning('id')
  .executeTakeFirstOrThrow();
const strategy = await db
  .insertInto('strategies')
  .values({
    user_id: owner.id,
    name: 'Six levels',
    levels: JSON.stringify(['2', '4', '7', '11', '16', '22'].map((dropPercent, i) => ({ dropPercent, multiple: new Big('1.5').pow(i).toFixed() }))),
    take_profit_percent: '1.5',
    take_profit_callback_percent: '0',
    replenish_callback_percent: '0',
    stop_loss_percent: null,
    cooldown_seconds: 0,
  } as never)
  .returning('id')
  .executeTakeFirstOrThrow();
const task = await db
  .insertInto('trade_tasks')
  .values({
    user_id: owner.id,
    exchange_account_id: account.id,
    symbol: 'BTC/USDT',
    strategy_id: strategy.id,
    first_order_amount: '10',
    first_order_multiple: false,
    cycle_count: 9999,
    running: true,
    replenish_status: 'replenish_open',
    state: JSON.stringify(initialCycleState()),
  })
  .returning('id')
  .executeTakeFirstOrThrow();

const market = createMarket(42, Date.now(), PAPER_MARKETS, { replay: { symbol: 'BTC/USDT', candles, interval: candleInterval(candles) } });
const runner = createRunner({ db, domains: engineDomains, log: Fastify({ logger: { level: 'silent' } }).log, seed: 42, tickMs: 0, market });
await runner.start();
const started = performance.now();
while (!market.replay!.status().done) await runner.tick();
const seconds = (performance.now() - started) / 1000;
await runner.stop();

const cycles = await db.selectFrom('cycles').selectAll().where('task_id', '=', task.id).orderBy('cycle').execute();
const sells = new Map((await db.selectFrom('orders').select(['cycle', 'price']).where('task_id', '=', task.id).where('side', '=', 'sell').where('status', '=', 'closed').execute()).map((o) => [o.cycle, o.price!]));
const orders = await db.selectFrom('orders').select(db.fn.countAll<number>().as('n')).where('status', '=', 'closed').executeTakeFirstOrThrow();
let booked = new Big(0);
let whole = new Big(0);
let losses = 0;
for (const cycle of cycles) {
  booked = booked.plus(cycle.realized_profit);
  if (new Big(cycle.realized_profit).lt(0)) losses += 1;
  const held = new Big(cycle.quantity_sold ?? '0').plus(cycle.remainder_quantity);
  whole = whole.plus(held.times(sells.get(cycle.cycle)!).times('0.999').minus(new Big(cycle.buy_cost).plus(cycle.remainder_cost)));
}
const state = runner.tasks.get(task.id)!.state;
await db.destroy();

console.log(
  JSON.stringify(
    {
      candles: candles.length,
      ordersStored: Number(orders.n),
      cyclesClosed: cycles.length,
      cyclesWithLoss: losses,
      bookedProfitUsdt: booked.toFixed(4),
      wholePositionProfitUsdt: whole.toFixed(4),
      bookedShareOfWhole: `${booked.div(whole.eq(0) ? 1 : whole).times(100).toFixed(2)} %`,
      openPosition: { quantity: state.quantity, cost: new Big(state.cost).toFixed(4), levelsFilled: state.levelsFilled },
      seconds: Number(seconds.toFixed(1)),
      candlesPerSecond: Math.round(candles.length / seconds),
    },
    null,
    2,
  ),
);
if (cycles.length === 0 || Number(orders.n) === 0) {
  console.error('No cycle closed: the replay did no work.');
  process.exit(1);
}
