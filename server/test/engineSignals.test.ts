import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StrategyConditions } from '../../src/api/conditions';
import { closedOrders, quickStrategy, registerUser, startServer, taskPayload, type TestServer } from './harness';

/**
 * The runner's signal conditions (issue 29) on the simulator: a task whose
 * start gate does not hold opens no cycle and says what it waits for (in its
 * answer and in its stored row, which an API without the engine reads); a
 * TradingView alert left on it acts at its next turn, once, and one that
 * cannot act is dropped with its reason; the indicators are shared per
 * venue and symbol, created only for tasks with conditions.
 */
describe('signal conditions in the runner (pglite)', () => {
  let server: TestServer;
  let token: string;
  let exchangeId: string;
  let strategyId: string;
  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });
  const events = (taskId: string) => server.db.selectFrom('task_events').select(['kind', 'data']).where('task_id', '=', taskId).orderBy('id').execute();
  const addTask = async (symbol: string, strategy = strategyId) => {
    const created = await call('POST', '/api/trade/add', taskPayload(exchangeId, strategy, { coinIdList: [symbol] }));
    expect(created.body.code).toBe(0);
    return created.body.data[0].id as string;
  };
  /** A template with these conditions, saved through the strategy calls. */
  const gatedStrategy = async (conditions: StrategyConditions) => {
    const saved = await call('POST', '/api/strategy/add', { ...quickStrategy, name: 'Gated', conditions });
    expect(saved.body.code).toBe(0);
    return saved.body.data.id as string;
  };
  /** Plays a minute of market time: a tick of one second, then one of 59 (each tick reads the simulator's minute). */
  const minute = async () => {
    await server.app.engine.tick(1);
    await server.app.engine.tick(59);
  };

  beforeEach(async () => {
    server = await startServer('pglite');
    token = (await registerUser(server, { email: 'signals@example.com', activated: true })).accessToken;
    exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id;
    strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
  });
  afterEach(async () => server.close());

  it('waits for its start gate, shows what it waits for, and an alert starts the cycle once', async () => {
    const engine = server.app.engine;
    const gated = await addTask('ETH/USDT', await gatedStrategy({ start: { mode: 'all', conditions: [{ kind: 'price_range', min: null, max: '0.0001' }] } }));
    const plain = await addTask('SOL/USDT');

    await minute();
    await minute();
    // The task without conditions trades as before; the gated one opened nothing and logged its wait once.
    expect(await closedOrders(server, plain)).toBeGreaterThan(0);
    expect(await closedOrders(server, gated)).toBe(0);
    expect((await events(gated)).filter((e) => e.kind === 'condition_wait')).toHaveLength(1);
    expect(engine.signalCounts().feeds).toBe(1);

    const close = engine.market.price('ETH/USDT');
    const detail = (await call('GET', `/api/trade/detail/${gated}`)).body.data;
    expect(detail.waiting).toMatchObject({ gate: 'start', text: 'price <= 0.0001', readings: [{ path: [0], holds: false }] });
    expect(detail.waiting.readings[0].current).not.toBeNull();
    expect(Number(detail.waiting.readings[0].current)).toBeCloseTo(Number(close), -1);
    expect(Number.isNaN(Date.parse(detail.waiting.since))).toBe(false);
    expect((await call('GET', `/api/trade/detail/${plain}`)).body.data.waiting).toBeNull();
    // Stored with the task's state: what an API without the engine in its process answers.
    await engine.flush();
    const row = await server.db.selectFrom('trade_tasks').select('waiting').where('id', '=', gated).executeTakeFirstOrThrow();
    expect(row.waiting).toEqual(detail.waiting);

    // The gates are read once per closed minute, not once per tick.
    const evaluations = engine.signalCounts().gateEvaluations;
    for (let i = 0; i < 10; i += 1) await engine.tick();
    expect(engine.signalCounts().gateEvaluations - evaluations).toBeLessThanOrEqual(1);

    engine.tasks.get(gated)!.alert = { id: 'tv-1', action: 'start_cycle', receivedAt: Date.now() };
    await minute();
    expect(await closedOrders(server, gated)).toBe(1);
    expect(engine.tasks.get(gated)!.alert).toBeNull();
    const acted = (await events(gated)).filter((e) => e.kind === 'alert_acted');
    expect(acted).toEqual([{ kind: 'alert_acted', data: expect.objectContaining({ alert: 'tv-1', action: 'start_cycle', side: 'buy', level: 0 }) }]);

    // A second start while the cycle is open cannot act: dropped, with the reason.
    engine.tasks.get(gated)!.alert = { id: 'tv-2', action: 'start_cycle', receivedAt: Date.now() };
    await minute();
    expect(engine.tasks.get(gated)!.alert).toBeNull();
    expect((await events(gated)).filter((e) => e.kind === 'alert_ignored')).toEqual([
      { kind: 'alert_ignored', data: expect.objectContaining({ alert: 'tv-2', action: 'start_cycle', reason: 'cycle_open' }) },
    ]);
  }, 60_000);
});
