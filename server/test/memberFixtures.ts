import Big from 'big.js';
import { initialCycleState } from '../src/engine/core/decide';
import type { TestServer } from './harness';

/** A system template shipped by the migrations. */
const SYSTEM_STRATEGY = '00000000-0000-4000-8000-000000000001';

/**
 * A closed cycle stored directly (with a finished task on a paper account of
 * its own), for the pages that read closed cycles: volume, profit days, rank.
 */
export const insertCycle = async (
  server: TestServer,
  userId: string,
  cycle: { buyCost?: string; profit: string; closedAt?: string; symbol?: string; accountName?: string; fuelCharged?: string },
) => {
  const account = await server.db
    .insertInto('exchange_accounts')
    .values({
      user_id: userId,
      exchange: 'paper',
      name: cycle.accountName ?? `Paper ${Math.random().toString(36).slice(2, 10)}`,
      api_key_ciphertext: null,
      secret_ciphertext: null,
      password_ciphertext: null,
      uid_ciphertext: null,
      api_key_hint: null,
      paper_balances: JSON.stringify({ USDT: '10000' }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const task = await server.db
    .insertInto('trade_tasks')
    .values({
      user_id: userId,
      exchange_account_id: account.id,
      symbol: cycle.symbol ?? 'BTC/USDT',
      strategy_id: SYSTEM_STRATEGY,
      first_order_amount: '10',
      first_order_multiple: false,
      cycle_count: 1,
      running: false,
      replenish_status: 'replenish_open',
      status: 'finished',
      state: JSON.stringify(initialCycleState()),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const buyCost = cycle.buyCost ?? '100';
  const row = await server.db
    .insertInto('cycles')
    .values({
      task_id: task.id,
      user_id: userId,
      cycle: 1,
      buy_cost: buyCost,
      sell_proceeds: new Big(buyCost).plus(cycle.profit).toFixed(),
      realized_profit: cycle.profit,
      fuel_charged: cycle.fuelCharged ?? '0',
      ...(cycle.closedAt ? { closed_at: cycle.closedAt } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { taskId: task.id, accountId: account.id, cycleId: String(row.id) };
};

/** A user's balance of one asset as the ledger holds it. */
export const ledgerBalance = async (server: TestServer, key: string): Promise<string> => {
  const row = await server.db.selectFrom('ledger_accounts').select('balance').where('key', '=', key).executeTakeFirst();
  return row ? new Big(row.balance).toFixed() : '0';
};
