import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { dropSchema, migrate, openDatabase, type Db } from '../src/db/database';
import { initialCycleState } from '../src/engine/core/decide';
import { createRunner } from '../src/engine/runner/runner';
import { PAPER_MARKETS } from '../src/engine/venues/paper/market';
import { engineDomains } from '../src/engineDomains';
import { post, system, user as ledgerUser } from '../src/wallet/ledger';

/**
 * The fence of the engine's shard leases (store/shards.ts), in one process
 * and without waiting on a busy machine: a tick of an engine is held up in
 * the middle (its market write waits on a table lock, as on a stalled
 * process or a slow database) while another process takes its shards; the
 * engine's lease round then notices the loss, and the held-up tick ends.
 * That tick decided on tasks the other process now trades: none of its
 * orders may be written (it was the doubled first orders of the cluster test
 * with short leases).
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('the engine fence on PostgreSQL', () => {
  let db: Db;
  let schema: string;
  afterEach(async () => {
    await dropSchema(db, schema);
    await db.destroy();
  });

  it('refuses the orders of a tick that was in flight when its process lost the shards', async () => {
    schema = `t_${randomBytes(6).toString('hex')}`;
    db = await openDatabase({ url, schema });
    await migrate(db, schema);
    const owner = await db.insertInto('users').values({ email: 'fence@example.com', nickname: 'Fence', password_hash: 'x', invite_code: 'FENCE', inviter_id: null, avatar: null, activated: true } as never).returning('id').executeTakeFirstOrThrow();
    await db.transaction().execute((trx) => post(trx, { kind: 'adjustment', userId: null, moves: [{ from: system('adjustments', 'FUEL'), to: ledgerUser(owner.id, 'FUEL'), amount: '1000' }], memo: { reason: 'test' } }));
    const strategy = await db
      .insertInto('strategies')
      .values({ user_id: owner.id, name: 'S', levels: JSON.stringify([{ dropPercent: '1', multiple: '1' }]), take_profit_percent: '1', take_profit_callback_percent: '0', replenish_callback_percent: '0', stop_loss_percent: null, cooldown_seconds: 0 } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const account = await db.insertInto('exchange_accounts').values({ user_id: owner.id, exchange: 'paper', name: 'Paper', paper_balances: JSON.stringify({ USDT: '5000' }) } as never).returning('id').executeTakeFirstOrThrow();
    await db
      .insertInto('trade_tasks')
      .values(PAPER_MARKETS.slice(0, 3).map((market) => ({ user_id: owner.id, exchange_account_id: account.id, symbol: market.symbol, strategy_id: strategy.id, first_order_amount: '10', first_order_multiple: false, cycle_count: 9999, running: true, replenish_status: 'replenish_open' as const, state: JSON.stringify(initialCycleState()) })) as never)
      .execute();

    const log = Fastify({ logger: { level: 'silent' } }).log;
    // Long leases renewed by hand: the test decides when the round runs.
    const engine = createRunner({ db, domains: engineDomains, log, seed: 42, tickMs: 0, cluster: true, leaseMs: 60_000 });
    await engine.start();
    expect(engine.tasks.size).toBe(3);
    const blocker = await openDatabase({ url, schema });
    try {
      // The tick starts and waits on its market write: the tasks it will decide on are the ones loaded now.
      let release!: () => void;
      const locked = new Promise<void>((resolve) => (release = resolve));
      let held!: () => void;
      const holding = new Promise<void>((resolve) => (held = resolve));
      const lock = blocker.transaction().execute(async (trx) => {
        await sql`lock table paper_prices in exclusive mode`.execute(trx);
        held();
        await locked;
      });
      await holding;
      const tick = engine.tick();
      // Meanwhile another process takes every shard (the engine's leases ran out while it stalled).
      await sql`update engine_leases set owner = 'another', token = token + 1 where name like 'shard:%'`.execute(db);
      // The engine's round notices it; dropping the tasks waits for the tick in flight.
      const round = engine.leaseRound();
      await expect.poll(() => engine.holdsShard(0)).toBe(false);
      release();
      await lock;
      await tick;
      await round;
      const orders = await sql<{ n: string }>`select count(*) as n from orders`.execute(db);
      expect(Number(orders.rows[0]!.n)).toBe(0);
      expect(engine.tasks.size).toBe(0);
    } finally {
      await blocker.destroy();
      await engine.stop();
    }
  });
});
