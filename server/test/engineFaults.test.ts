import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Candle } from '../src/engine/core/candles';
import { PAUSE_AFTER_FAILURES } from '../src/engine/runner/runner';
import { createMarket, PAPER_MARKETS, type SimulatedMarket } from '../src/engine/venues/paper/market';
import { BACKENDS, closedOrders, quickStrategy, registerUser, startServer, taskPayload, type TestServer } from './harness';
import { checkMoney } from './invariants';

/**
 * Faults inside one tick must not stop the engine: a price of 0, a price call
 * that throws, a database write that fails once or for good. In each case the
 * other tasks keep trading and the engine recovers without a restart.
 */

/** BTC/USDT replayed from candles (a rise that takes profit), every other pair on the seeded walk, with faults to switch on per pair. */
const faultyMarket = () => {
  const closes = ['100.00', '100.00', '100.00', '100.20', '100.40', '100.60', '100.80', '101.00', '101.20', '101.40'];
  const candles: Candle[] = [];
  for (let i = 0; i < 200; i += 1) {
    const close = closes[Math.min(i, closes.length - 1)]!;
    candles.push({ time: Date.UTC(2024, 0, 1) + i * 60_000, open: close, high: close, low: close, close, volume: '1' });
  }
  const inner = createMarket(42, Date.UTC(2024, 0, 1), PAPER_MARKETS, { replay: { symbol: 'BTC/USDT', candles, interval: 60_000 } });
  const faults = new Map<string, 'zero' | 'throw'>();
  const check = (symbol: string) => {
    const fault = faults.get(symbol);
    if (fault === 'throw') throw new Error(`price feed of ${symbol} unreachable`);
    return fault === 'zero';
  };
  const market: SimulatedMarket = {
    ...inner,
    price: (symbol) => (check(symbol) ? '0' : inner.price(symbol)),
    bestPrices: (symbol) => (check(symbol) ? { last: '0', bid: '0', ask: '0' } : inner.bestPrices(symbol)),
    ticker: (symbol) => (check(symbol) ? { ...inner.ticker(symbol), last: '0', bid: '0', ask: '0' } : inner.ticker(symbol)),
  };
  return { market, faults };
};

describe.each(BACKENDS)('an engine that never stops (%s)', (backend) => {
  let server: TestServer;
  let faults: Map<string, 'zero' | 'throw'>;
  let token: string;
  let exchangeId: string;
  let strategyId: string;

  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });
  const addTask = async (symbol: string) => {
    const created = await call('POST', '/api/trade/add', taskPayload(exchangeId, strategyId, { coinIdList: [symbol] }));
    expect(created.body.code).toBe(0);
    return created.body.data[0].id as string;
  };
  const orderCount = (taskId: string) => closedOrders(server, taskId);
  const events = (taskId: string) => server.db.selectFrom('task_events').select(['kind', 'data']).where('task_id', '=', taskId).orderBy('id').execute();
  const logLines = (text: string) => server.logs.filter((line) => line.includes(text)).length;

  beforeEach(async () => {
    const built = faultyMarket();
    faults = built.faults;
    server = await startServer(backend, {}, { market: built.market });
    token = (await registerUser(server, { email: 'faults@example.com', activated: true })).accessToken;
    exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id;
    strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
  });
  afterEach(async () => server.close());

  it('refuses a price of 0 on one pair, logs it once, and trades every other pair', async () => {
    const eth = await addTask('ETH/USDT');
    await server.app.engine.tick();
    expect(await orderCount(eth)).toBe(1);

    faults.set('ETH/USDT', 'zero');
    for (let i = 0; i < 5; i += 1) await server.app.engine.tick();
    // A task created while ETH is broken trades on its own pair at once.
    const sol = await addTask('SOL/USDT');
    await server.app.engine.tick();
    expect(await orderCount(sol)).toBe(1);
    expect(server.app.engine.status().unusablePrices).toEqual(['ETH/USDT']);
    expect(logLines('unusable price refused')).toBe(1);
    expect(server.app.engine.tasks.get(eth)!.failures).toBe(0);
    expect((await events(eth)).filter((e) => e.kind === 'error')).toEqual([]);

    faults.delete('ETH/USDT');
    await server.app.engine.tick();
    expect(server.app.engine.status().unusablePrices).toEqual([]);
    // ETH trades again without a restart: a new task on it buys on the next tick.
    const again = await addTask('ETH/USDT');
    await server.app.engine.tick();
    expect(await orderCount(again)).toBe(1);
    await checkMoney(server);
  });

  it('skips a pair whose price call throws, and picks it up again', async () => {
    const sol = await addTask('SOL/USDT');
    await server.app.engine.tick();
    faults.set('SOL/USDT', 'throw');
    const eth = await addTask('ETH/USDT');
    await server.app.engine.tick();
    await server.app.engine.tick();
    expect(await orderCount(eth)).toBe(1);
    expect(logLines('no price for the symbol')).toBe(1);
    expect(server.app.engine.status()).toMatchObject({ failedTicks: 0, unusablePrices: ['SOL/USDT'] });
    faults.delete('SOL/USDT');
    await server.app.engine.tick();
    expect(server.app.engine.status().unusablePrices).toEqual([]);
    expect(server.app.engine.tasks.get(sol)!.failures).toBe(0);
    const next = await addTask('SOL/USDT');
    await server.app.engine.tick();
    expect(await orderCount(next)).toBe(1);
    await checkMoney(server);
  });

  it('survives a database write failing once: the task backs off, the others trade, then it takes its profit', async () => {
    // The first 'take_profit_armed' event of this schema fails to insert, once (a sequence is not rolled back).
    await sql`create sequence armed_failures`.execute(server.db);
    await sql
      .raw(
        `create function fail_armed_once() returns trigger language plpgsql as $$ begin
           if new.kind = 'take_profit_armed' and nextval('armed_failures') = 1 then raise exception 'injected write failure'; end if;
           return new; end $$`,
      )
      .execute(server.db);
    await sql`create trigger fail_armed_once before insert on task_events for each row execute function fail_armed_once()`.execute(server.db);

    const btc = await addTask('BTC/USDT');
    // The replay plays from the task's start: bought at 100, the price climbs past the take profit.
    for (let i = 0; i < 12 && (await events(btc)).every((e) => e.kind !== 'error'); i += 1) await server.app.engine.tick();
    const failed = (await events(btc)).filter((e) => e.kind === 'error');
    expect(failed).toEqual([{ kind: 'error', data: expect.objectContaining({ reason: 'engine_error', message: expect.stringContaining('injected write failure'), failures: 1 }) }]);
    // Another task trades in the very next tick.
    const eth = await addTask('ETH/USDT');
    await server.app.engine.tick();
    expect(await orderCount(eth)).toBe(1);
    // And the failed one recovers by itself: its take profit sells.
    for (let i = 0; i < 5; i += 1) await server.app.engine.tick();
    const kinds = (await events(btc)).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['take_profit_armed', 'sold', 'cycle_complete']));
    expect(server.app.engine.tasks.get(btc)!.failures).toBe(0);
    expect(server.app.engine.status().failedTicks).toBe(0);
    await checkMoney(server);
  });

  it('pauses a task that keeps failing, with the error on its page, while the engine goes on', async () => {
    const doomed = await addTask('SOL/USDT');
    // Every first order of this task fails to be stored.
    await sql
      .raw(
        `create function fail_task() returns trigger language plpgsql as $$ begin
           if new.task_id = '${doomed}' and new.kind = 'cycle_started' then raise exception 'disk full'; end if;
           return new; end $$`,
      )
      .execute(server.db);
    await sql`create trigger fail_task before insert on task_events for each row execute function fail_task()`.execute(server.db);
    const eth = await addTask('ETH/USDT');
    // Backing off 1, 2, 4 ... ticks: the eighth failure comes after 127 ticks.
    for (let i = 0; i < 300 && server.app.engine.tasks.get(doomed)!.params.running; i += 1) await server.app.engine.tick();

    const task = server.app.engine.tasks.get(doomed)!;
    expect(task.failures).toBe(PAUSE_AFTER_FAILURES);
    expect(task.params.running).toBe(false);
    const detail = (await call('GET', `/api/trade/detail/${doomed}`)).body.data;
    expect(detail).toMatchObject({ running: false, attention: { reason: 'engine_error', retrying: false, detail: { message: expect.stringContaining('disk full') } } });
    const kinds = (await events(doomed)).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'error')).toHaveLength(PAUSE_AFTER_FAILURES);
    expect(kinds.at(-1)).toBe('paused');
    // Nothing was bought for it, and the paper account holds no SOL.
    expect(await orderCount(doomed)).toBe(0);
    expect(await orderCount(eth)).toBeGreaterThanOrEqual(1);
    expect(server.app.engine.status().tasks).toMatchObject({ attention: 1 });

    // The user fixes the cause and starts it again: it trades.
    await sql`drop trigger fail_task on task_events`.execute(server.db);
    expect((await call('POST', '/api/trade/action', { id: doomed, action: 'start' })).body.code).toBe(0);
    await server.app.engine.tick();
    expect(await orderCount(doomed)).toBe(1);
    expect((await call('GET', `/api/trade/detail/${doomed}`)).body.data).toMatchObject({ running: true, attention: null });
    await checkMoney(server);
  });

  it('tells operators how the engine is doing (11005 for anyone else)', async () => {
    expect((await call('GET', '/api/engine/status')).body.code).toBe(11005);
    await server.db.updateTable('users').set({ role: 'operator' }).where('email', '=', 'faults@example.com').execute();
    await addTask('ETH/USDT');
    await server.app.engine.tick();
    const status = (await call('GET', '/api/engine/status')).body;
    expect(status).toMatchObject({
      code: 0,
      data: {
        running: true,
        ticks: 1,
        lagMs: 0,
        failedTicks: 0,
        outages: [],
        tasks: { loaded: 1, running: 1, attention: 0, failing: 0 },
        unusablePrices: [],
        replay: { symbol: 'BTC/USDT', total: 200, started: false, done: false },
      },
    });
    expect(Date.parse(status.data.lastTickAt)).toBeGreaterThan(Date.now() - 60_000);
  });
});
