import Big from 'big.js';
import { expect } from 'vitest';
import type { Db } from '../src/db/database';
import type { CycleState } from '../src/engine/core/decide';
import type { TestServer } from './harness';

export interface MoneyReport {
  /** Per paper account: its value now minus its start, realized profit, floating profit. */
  accounts: { id: string; valueChange: string; realized: string; floating: string }[];
  cycles: number;
  takeProfitCycles: number;
}

/**
 * The engine's money as the database holds it, checked against the paper
 * accounts over any path:
 * 1. for every paper account and asset, the balance (free + used) equals the
 *    account's free quote (its start plus sales minus buys, from the orders)
 *    or, for a coin, the positions of its tasks to the last unit: nothing is
 *    bought or sold that no task owns;
 * 2. realized plus floating profit equals the change in the account's value,
 *    every coin valued at the price the floating profit uses (`bidOf`),
 *    realized counting the open cycles' partial sales;
 * 3. a cycle that ended by take profit never books a loss, and each cycle's
 *    proceeds minus its cost basis is its profit.
 */
export const checkMoneyInDb = async (db: Db, bidOf: (symbol: string) => string): Promise<MoneyReport> => {
  const report: MoneyReport = { accounts: [], cycles: 0, takeProfitCycles: 0 };
  const accounts = await db.selectFrom('exchange_accounts').select(['id', 'paper_balances']).where('exchange', '=', 'paper').execute();
  for (const account of accounts) {
    const start = new Big((account.paper_balances as Record<string, string> | null)?.USDT ?? '0');
    const stored = await db.selectFrom('paper_balances').select(['asset', 'free', 'used']).where('exchange_account_id', '=', account.id).execute();
    const balances = new Map(stored.map((row) => [row.asset, new Big(row.free).plus(row.used)]));
    const tasks = await db.selectFrom('trade_tasks').select(['id', 'symbol', 'state']).where('exchange_account_id', '=', account.id).execute();
    const positions = new Map<string, Big>();
    const prices = new Map<string, string>();
    let floating = new Big(0);
    // The open cycles' partial sales (take-profit targets) are realized already (fills.ts partialProfit).
    let realized = new Big(0);
    for (const row of tasks) {
      const state = row.state as unknown as CycleState;
      const base = row.symbol.split('/')[0]!;
      positions.set(base, (positions.get(base) ?? new Big(0)).plus(state.quantity));
      const price = bidOf(row.symbol);
      prices.set(base, price);
      floating = floating.plus(new Big(state.quantity).times(price).minus(state.cost));
      if (state.partial) realized = realized.plus(state.partial.proceeds).minus(state.partial.basis);
    }
    const orders = await db.selectFrom('orders').select(['side', 'cost', 'fee', 'fee_currency']).where('exchange_account_id', '=', account.id).where('status', '=', 'closed').execute();
    const quote = orders.reduce((sum, o) => (o.side === 'buy' ? sum.minus(o.cost) : sum.plus(new Big(o.cost).minus(o.fee_currency === 'USDT' ? o.fee : '0'))), start);
    expect(`USDT ${(balances.get('USDT') ?? new Big(0)).toFixed()}`).toBe(`USDT ${quote.toFixed()}`);
    for (const asset of new Set([...balances.keys(), ...positions.keys()])) {
      if (asset === 'USDT') continue;
      expect(`${asset} ${(balances.get(asset) ?? new Big(0)).toFixed()}`).toBe(`${asset} ${(positions.get(asset) ?? new Big(0)).toFixed()}`);
    }

    let value = balances.get('USDT') ?? new Big(0);
    for (const [asset, amount] of balances) if (asset !== 'USDT') value = value.plus(amount.times(prices.get(asset) ?? '0'));
    const cycles = tasks.length
      ? await db
          .selectFrom('cycles')
          .select(['buy_cost', 'sell_proceeds', 'realized_profit', 'exit_reason'])
          .where(
            'task_id',
            'in',
            tasks.map((t) => t.id),
          )
          .execute()
      : [];
    for (const cycle of cycles) {
      realized = realized.plus(cycle.realized_profit);
      expect(new Big(cycle.sell_proceeds).minus(cycle.buy_cost).eq(cycle.realized_profit)).toBe(true);
      if (cycle.exit_reason === 'take_profit') {
        expect(new Big(cycle.realized_profit).gte(0), `a take-profit cycle booked ${cycle.realized_profit}`).toBe(true);
        report.takeProfitCycles += 1;
      }
    }
    report.cycles += cycles.length;
    const change = value.minus(start);
    expect(`realized ${realized.toFixed()} + floating ${floating.toFixed()} = ${realized.plus(floating).toFixed()}`).toBe(
      `realized ${realized.toFixed()} + floating ${floating.toFixed()} = ${change.toFixed()}`,
    );
    report.accounts.push({ id: account.id, valueChange: change.toFixed(), realized: realized.toFixed(), floating: floating.toFixed() });
  }
  return report;
};

/**
 * The same checks on a running test server, after a flush, plus: the
 * running paper exchange's balances and the engine's live task states are
 * exactly what the database holds.
 */
export const checkMoney = async (server: TestServer): Promise<MoneyReport> => {
  const { db, app } = server;
  const engine = app.engine;
  await engine.flush();
  const stored = await db.selectFrom('paper_balances').select(['exchange_account_id', 'asset', 'free', 'used']).execute();
  for (const row of stored) {
    const live = engine.paperFor(row.exchange_account_id).fetchBalance(row.exchange_account_id).total;
    expect(`${row.asset} ${new Big(row.free).plus(row.used).toFixed()}`).toBe(`${row.asset} ${new Big(live[row.asset] ?? '0').toFixed()}`);
  }
  for (const row of await db.selectFrom('trade_tasks').select(['id', 'state']).execute()) {
    const live = engine.tasks.get(row.id)?.state;
    if (live) expect(row.state).toEqual(live);
  }
  return checkMoneyInDb(db, (symbol) => engine.market.bestPrices(symbol).bid);
};
