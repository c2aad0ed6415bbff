import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEngineEvents } from '../src/notify/events';
import { confirmDeposit } from '../src/wallet/service';
import { BACKENDS, addPaperTask, registerUser, startServer, type TestServer } from './harness';

describe.each(BACKENDS)('notifications (%s)', (backend) => {
  let server: TestServer;
  let token: string;
  let userId: string;
  let taskId: string;
  const call = (method: string, path: string, body?: unknown, as = token) => server.call(method, path, body, { token: as });

  beforeAll(async () => {
    server = await startServer(backend);
    const me = await registerUser(server, { email: 'bell@example.com', activated: true });
    token = me.accessToken;
    userId = me.user.id;
    taskId = await addPaperTask(server, token);
  }, 120_000);
  afterAll(async () => server?.close());

  it("writes the engine's fill in the tick's transaction: the bell counts it and the inbox links to the task", async () => {
    expect((await call('GET', '/api/notifications/unread-count')).body.data).toEqual({ count: 0 });
    // The first tick buys the first level on the paper market.
    await server.app.engine.tick();
    const count = (await call('GET', '/api/notifications/unread-count')).body.data.count;
    expect(count).toBeGreaterThanOrEqual(1);

    const inbox = (await call('GET', '/api/notifications?unread=true&kind=trade.fill')).body.data;
    expect(inbox.total).toBeGreaterThanOrEqual(1);
    const fill = inbox.list[inbox.list.length - 1];
    expect(fill).toMatchObject({ kind: 'trade.fill', taskId, read: false, payload: { side: 'buy', level: 0, symbol: 'BTC/USDT', cycle: 1 } });
    expect(fill.payload.price).toMatch(/^\d+(\.\d+)?$/);
    expect(fill.payload.amount).toMatch(/^\d+(\.\d+)?$/);

    // Marking one read, then all.
    expect((await call('POST', '/api/notifications/read', { ids: [fill.id] })).body.data).toEqual({ count: count - 1 });
    expect((await call('GET', `/api/notifications?unread=true`)).body.data.list.map((n: { id: string }) => n.id)).not.toContain(fill.id);
    expect((await call('POST', '/api/notifications/read', { all: true })).body.data).toEqual({ count: 0 });
    expect((await call('GET', '/api/notifications')).body.data.list.every((n: { read: boolean }) => n.read)).toBe(true);
  });

  it('writes nothing when the change it reports is rolled back; a closed cycle carries profit, ROI and duration', async () => {
    const before = (await call('GET', '/api/notifications')).body.data.total;
    const closed = {
      cycle: 7, buyCost: '200', sellProceeds: '203.64', realizedProfit: '3.64', quantitySold: '0.01', remainderQuantity: '0', remainderCost: '0',
      fees: '0.4', levelsFilled: 2, openedAt: null, exitReason: 'take_profit',
    } as const;
    await expect(
      server.db.transaction().execute(async (trx) => {
        await recordEngineEvents(trx, [], [{ taskId, userId, closed: closed as never, seconds: 3600 }]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect((await call('GET', '/api/notifications')).body.data.total).toBe(before);

    await server.db.transaction().execute((trx) => recordEngineEvents(trx, [{ taskId, kind: 'take_profit_armed', data: {} }], [{ taskId, userId, closed: closed as never, seconds: 3600 }]));
    const inbox = (await call('GET', '/api/notifications?kind=trade.cycle_closed')).body.data;
    expect(inbox.total).toBe(1);
    expect(inbox.list[0]).toMatchObject({ taskId, payload: { cycle: 7, profit: '3.64', roi: '1.82', seconds: 3600, symbol: 'BTC/USDT' } });
    expect((await call('GET', '/api/notifications')).body.data.total).toBe(before + 1);
  });

  it("refuses bad input and never touches another user's notifications", async () => {
    const other = await registerUser(server, { email: 'other@example.com' });
    const mine = (await call('GET', '/api/notifications?pageSize=1')).body.data.list[0];
    await server.db.updateTable('notification_events').set({ read_at: null }).where('id', '=', mine.id).execute();
    expect((await call('POST', '/api/notifications/read', { ids: [mine.id] }, other.accessToken)).body.data).toEqual({ count: 0 });
    expect((await call('GET', '/api/notifications/unread-count')).body.data).toEqual({ count: 1 });
    expect((await call('POST', '/api/notifications/read', {})).body.code).toBe(10000);
    expect((await call('POST', '/api/notifications/read', { ids: ['x'] })).body.code).toBe(10003);
    expect((await call('GET', '/api/notifications?kind=nope')).body.code).not.toBe(0);
    expect((await call('GET', '/api/notifications/unread-count')).body.data).toEqual({ count: 1 });
    expect((await server.call('GET', '/api/notifications/unread-count')).status).toBe(401);
  });

  it('answers the preferences with their defaults, and keeps a change', async () => {
    const prefs = (await call('GET', '/api/notifications/preferences')).body.data;
    expect(prefs.channels).toEqual(['inapp', 'email']);
    const enabled = (kind: string, channel: string, list = prefs.list) =>
      list.find((p: { kind: string; channel: string }) => p.kind === kind && p.channel === channel).enabled;
    expect(enabled('trade.fill', 'inapp')).toBe(true);
    expect(enabled('trade.fill', 'email')).toBe(false);
    expect(enabled('trade.alert', 'inapp')).toBe(true);
    expect(enabled('trade.alert', 'email')).toBe(false);
    expect(enabled('trade.cycle_closed', 'email')).toBe(true);

    const changed = await call('PUT', '/api/notifications/preferences', { list: [{ kind: 'trade.cycle_closed', channel: 'email', enabled: false }] });
    expect(enabled('trade.cycle_closed', 'email', changed.body.data.list)).toBe(false);
    expect(enabled('trade.cycle_closed', 'email', (await call('GET', '/api/notifications/preferences')).body.data.list)).toBe(false);
    const bad = await call('PUT', '/api/notifications/preferences', { list: [{ kind: 'trade.cycle_closed', channel: 'pigeon', enabled: true }] });
    expect(bad.body.code).not.toBe(0);
    expect(enabled('trade.cycle_closed', 'email', (await call('GET', '/api/notifications/preferences')).body.data.list)).toBe(false);
  });

  it("tells of a deposit credited in the credit's transaction, and of none when the credit is refused", async () => {
    const operator = await registerUser(server, { email: 'operator@example.com' });
    const deposit = await server.db
      .insertInto('deposits')
      .values({ user_id: userId, amount: '25.5', address: 'TXYZ', tx_hash: null, reason: null, transaction_id: null, decided_by: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const credited = () => server.db.selectFrom('notification_events').select(['kind', 'payload']).where('user_id', '=', userId).where('kind', '=', 'wallet.deposit_credited').execute();
    await confirmDeposit(server.db, operator.user.id, deposit.id);
    expect(await credited()).toEqual([{ kind: 'wallet.deposit_credited', payload: { depositId: deposit.id, amount: '25.5', asset: 'USDT' } }]);
    // Confirmed already: refused, and nothing more is told.
    await expect(confirmDeposit(server.db, operator.user.id, deposit.id)).rejects.toThrow();
    expect(await credited()).toHaveLength(1);
  });

  it('tells of a sign-in from a device not seen before, once, and of a changed password; these always go by e-mail', async () => {
    const kinds = async () =>
      (await server.db.selectFrom('notification_events').select('kind').where('user_id', '=', userId).where('kind', 'like', 'user.%').orderBy('id').execute()).map((r) => r.kind);
    const login = (agent: string) => server.call('POST', '/api/user/login', { email: 'bell@example.com', password: 'Sturdy-Passw0rd!' }, { headers: { 'user-agent': agent } });
    expect((await login('Phone/1.0')).body.code).toBe(0);
    expect(await kinds()).toEqual(['user.new_login']);
    expect((await login('Phone/1.0')).body.code).toBe(0);
    expect(await kinds()).toEqual(['user.new_login']);
    const changed = await call('POST', '/api/user/change-password', { oldPassword: 'Sturdy-Passw0rd!', newPassword: 'Sturdy-Passw0rd!2', secondPassword: 'Sturdy-Passw0rd!2' });
    expect(changed.body.code).toBe(0);
    expect(await kinds()).toEqual(['user.new_login', 'user.password_changed']);
    const prefs = (await call('GET', '/api/notifications/preferences')).body.data.list;
    expect(prefs.find((p: { kind: string; channel: string }) => p.kind === 'user.new_login' && p.channel === 'email').enabled).toBe(true);
  });
});
