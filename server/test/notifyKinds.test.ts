import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeFuelBatch } from '../src/member/fuel';
import { recordEngineEvents } from '../src/notify/events';
import { BACKENDS, addPaperTask, registerUser, startServer, type TestServer } from './harness';

/** The event kinds written beside the change they report: the last level, fuel low, a widget grant. */
describe.each(BACKENDS)('notification kinds (%s)', (backend) => {
  let server: TestServer;
  let token: string;
  let userId: string;
  let taskId: string;
  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });
  const inbox = async (kind: string) => (await call('GET', `/api/notifications?kind=${kind}`)).body.data as { total: number; list: { payload: Record<string, unknown>; taskId: string | null }[] };

  beforeAll(async () => {
    server = await startServer(backend);
    // Activated: 20 fuel, the activation's gift.
    const me = await registerUser(server, { email: 'kinds@example.com', activated: true });
    token = me.accessToken;
    userId = me.user.id;
    taskId = await addPaperTask(server, token);
  }, 120_000);
  afterAll(async () => server?.close());

  it("tells the last level's buy as the ladder being full, in the same statement, and no other level's", async () => {
    const { levels } = await server.db
      .selectFrom('trade_tasks as t')
      .innerJoin('strategies as s', 's.id', 't.strategy_id')
      .select((eb) => eb.fn<number>('jsonb_array_length', ['s.levels']).as('levels'))
      .where('t.id', '=', taskId)
      .executeTakeFirstOrThrow();
    expect(levels).toBeGreaterThan(1);
    const buy = (level: number) => ({ taskId, kind: 'replenished' as const, data: { cycle: 2, level, price: '50000.5', amount: '40' } });
    await server.db.transaction().execute((trx) => recordEngineEvents(trx, [buy(levels - 1), buy(levels)], []));
    const full = await inbox('trade.ladder_full');
    expect(full.total).toBe(1);
    expect(full.list[0]).toMatchObject({ taskId, payload: { symbol: 'BTC/USDT', cycle: 2, level: levels, levels, price: '50000.5' } });
    // Newest first: the ladder notice comes right after its fill.
    const all = (await call('GET', '/api/notifications?pageSize=3')).body.data.list as { kind: string; payload: { level?: number } }[];
    expect(all.map((n) => [n.kind, n.payload.level])).toEqual([
      ['trade.ladder_full', levels],
      ['trade.fill', levels],
      ['trade.fill', levels - 1],
    ]);
  });

  it('tells fuel low once, when a charge takes the balance to the threshold (2) or below', async () => {
    const charge = (profit: string) => server.db.transaction().execute((trx) => chargeFuelBatch(trx, [{ userId, taskId, cycle: 1, profit }]));
    // 10 % of 170 = 17: 20 -> 3, still above.
    expect(await charge('170')).toEqual(['17']);
    expect((await inbox('member.fuel_low')).total).toBe(0);
    // 10 % of 15 = 1.5: 3 -> 1.5, across.
    expect(await charge('15')).toEqual(['1.5']);
    const low = await inbox('member.fuel_low');
    expect(low.total).toBe(1);
    expect(low.list[0]!.payload).toEqual({ balance: '1.5', asset: 'FUEL', threshold: '2' });
    // Below already: not again.
    expect(await charge('5')).toEqual(['0.5']);
    expect((await inbox('member.fuel_low')).total).toBe(1);
  });

  it('tells a new widget grant, always by e-mail', async () => {
    const grant = await call('POST', '/api/user/widget-token', { name: 'My blog', origin: 'https://blog.example' });
    expect(grant.body.code).toBe(0);
    const told = await inbox('user.widget_grant_created');
    expect(told.list.map((n) => n.payload)).toEqual([{ grantId: grant.body.data.id, name: 'My blog', origin: 'https://blog.example' }]);
    const prefs = (await call('GET', '/api/notifications/preferences')).body.data.list as { kind: string; channel: string; enabled: boolean }[];
    expect(prefs.find((p) => p.kind === 'user.widget_grant_created' && p.channel === 'email')?.enabled).toBe(true);
    // A refused grant tells nothing.
    expect((await call('POST', '/api/user/widget-token', { name: 'Bad', origin: 'not an origin' })).body.code).not.toBe(0);
    expect((await inbox('user.widget_grant_created')).total).toBe(1);
  });
});
