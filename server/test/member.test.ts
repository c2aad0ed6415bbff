import Big from 'big.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, writeSettings } from '../src/settings';
import { DEMO_EMAIL, DEMO_PASSWORD, ensureDemoAccount } from '../src/demo/account';
import { balanceOf, post, system, user } from '../src/wallet/ledger';
import { adjustBalance, BACKENDS, quickStrategy, registerUser, startServer, type TestServer } from './harness';
import { insertCycle } from './memberFixtures';

describe.each(BACKENDS)('membership, activation, fuel and invites (%s)', (backend) => {
  let server: TestServer;

  beforeEach(async () => {
    server = await startServer(backend);
  });
  afterEach(async () => server.close());

  const call = (method: string, path: string, token: string, body?: unknown) => server.call(method, path, body, { token });
  const balance = (userId: string, asset: 'USDT' | 'CARD' | 'POINTS' | 'FUEL') => balanceOf(server.db, user(userId, asset));
  const systemBalance = (name: 'activation' | 'fuel' | 'rewards', asset: 'USDT' | 'CARD' | 'POINTS' | 'FUEL') => balanceOf(server.db, system(name, asset));

  it('activates with a card: pays, gifts fuel, rewards the inviter, once per key; 10007 after, 11003 when short', async () => {
    const inviter = await registerUser(server, { email: 'inviter@example.com', nickname: 'Inviter' });
    const member = await registerUser(server, { email: 'member@example.com', inviteCode: inviter.user.inviteCode });
    const before = (await call('GET', '/api/member/status', member.accessToken)).body.data;
    expect(before).toMatchObject({ level: 0, activated: false, activatedAt: null, activation: { cardPrice: '1', usdtPrice: '100' } });
    expect(before.levels).toHaveLength(DEFAULT_SETTINGS.levels.length);
    expect(before.next.level.level).toBe(1);

    // Short of both: 11003, nothing moved, still not activated.
    const short = await call('POST', '/api/member/activate', member.accessToken, { method: 'card', idempotencyKey: 'activate-0001' });
    expect(short.body).toMatchObject({ code: 11003, data: { asset: 'CARD' } });
    await adjustBalance(server, member.user.id, 'USDT', '99.5');
    expect((await call('POST', '/api/member/activate', member.accessToken, { method: 'usdt', idempotencyKey: 'activate-0002' })).body.code).toBe(11003);
    expect(await balance(member.user.id, 'USDT')).toBe('99.5');
    expect(await balance(member.user.id, 'FUEL')).toBe('0');
    expect(await balance(inviter.user.id, 'POINTS')).toBe('0');
    expect((await call('GET', '/api/member/status', member.accessToken)).body.data.activated).toBe(false);

    await adjustBalance(server, member.user.id, 'CARD', '3');
    const done = await call('POST', '/api/member/activate', member.accessToken, { method: 'card', idempotencyKey: 'activate-0003' });
    expect(done.body.code).toBe(0);
    expect(done.body.data).toMatchObject({ activated: true, level: 0 });
    expect(Date.parse(done.body.data.activatedAt)).not.toBeNaN();
    expect(await balance(member.user.id, 'CARD')).toBe('2');
    expect(await balance(member.user.id, 'USDT')).toBe('99.5');
    expect(await balance(member.user.id, 'FUEL')).toBe('20');
    expect(await balance(inviter.user.id, 'POINTS')).toBe('50');
    expect(await systemBalance('activation', 'CARD')).toBe('1');
    expect(await systemBalance('fuel', 'FUEL')).toBe('-20');
    expect(await systemBalance('rewards', 'POINTS')).toBe('-50');
    const kinds = await server.db.selectFrom('ledger_transactions').select(['kind', 'user_id']).orderBy('created_at').execute();
    expect(kinds).toEqual(
      expect.arrayContaining([
        { kind: 'activation', user_id: member.user.id },
        { kind: 'invite_reward', user_id: inviter.user.id },
      ]),
    );

    // The same key answers the first result and moves nothing; another key: 10007.
    const replay = await call('POST', '/api/member/activate', member.accessToken, { method: 'card', idempotencyKey: 'activate-0003' });
    expect(replay.body).toMatchObject({ code: 0, data: { activated: true } });
    const again = await call('POST', '/api/member/activate', member.accessToken, { method: 'usdt', idempotencyKey: 'activate-0004' });
    expect(again.body.code).toBe(10007);
    expect(await balance(member.user.id, 'CARD')).toBe('2');
    expect(await balance(inviter.user.id, 'POINTS')).toBe('50');
    expect((await call('GET', '/api/user/me', member.accessToken)).body.data.activated).toBe(true);

    // Bad input: a validation code, nothing else.
    expect((await call('POST', '/api/member/activate', inviter.accessToken, { method: 'gold', idempotencyKey: 'activate-0005' })).body.code).toBe(10008);
    expect((await call('POST', '/api/member/activate', inviter.accessToken, { method: 'card', idempotencyKey: 'x' })).body.code).toBe(10003);
    expect((await server.call('GET', '/api/member/status')).status).toBe(401);
  });

  it('activates with USDT at the configured price', async () => {
    await writeSettings(server.db, { activationUsdtPrice: '25', activationFuelGift: '0' });
    const member = await registerUser(server, { email: 'usdt@example.com' });
    await adjustBalance(server, member.user.id, 'USDT', '30');
    const done = await call('POST', '/api/member/activate', member.accessToken, { method: 'usdt', idempotencyKey: 'activate-usdt-1' });
    expect(done.body).toMatchObject({ code: 0, data: { activated: true, activation: { usdtPrice: '25' } } });
    expect(await balance(member.user.id, 'USDT')).toBe('5');
    expect(await balance(member.user.id, 'FUEL')).toBe('0');
    expect(await systemBalance('activation', 'USDT')).toBe('25');
  });

  it('computes the level from a small invite tree and stores it', async () => {
    await writeSettings(server.db, {
      levels: [
        { level: 0, minDirect: 0, minTeam: 0, minTeamVolume: '0', fuelDiscountPercent: '0', taskLimit: 10 },
        { level: 1, minDirect: 1, minTeam: 2, minTeamVolume: '0', fuelDiscountPercent: '10', taskLimit: 20 },
        { level: 2, minDirect: 2, minTeam: 3, minTeamVolume: '100', fuelDiscountPercent: '20', taskLimit: 30 },
      ],
    });
    // a -> b, c; b -> d; d -> e (not activated).
    const a = await registerUser(server, { email: 'a@example.com', nickname: 'Alpha' });
    const b = await registerUser(server, { email: 'b@example.com', inviteCode: a.user.inviteCode });
    const c = await registerUser(server, { email: 'c@example.com', inviteCode: a.user.inviteCode });
    const d = await registerUser(server, { email: 'd@example.com', inviteCode: b.user.inviteCode });
    await registerUser(server, { email: 'e@example.com', inviteCode: d.user.inviteCode });
    const status = async () => (await call('GET', '/api/member/status', a.accessToken)).body.data;
    const activate = async (who: typeof b) => {
      await adjustBalance(server, who.user.id, 'CARD', '1');
      expect((await call('POST', '/api/member/activate', who.accessToken, { method: 'card', idempotencyKey: `act-${who.user.id}` })).body.code).toBe(0);
    };

    expect(await status()).toMatchObject({ level: 0, team: { direct: 2, directActivated: 0, team: 4, teamActivated: 0, teamVolume: '0' } });
    await activate(b);
    await activate(d);
    // Stored at the activation already (the engine's fuel discount reads the stored level).
    expect((await server.db.selectFrom('users').select('level').where('id', '=', a.user.id).executeTakeFirstOrThrow()).level).toBe(1);
    const one = await status();
    expect(one).toMatchObject({ level: 1, team: { direct: 2, directActivated: 1, team: 4, teamActivated: 2 } });
    expect(one.next).toMatchObject({ level: { level: 2 }, direct: 1, team: 2, teamVolume: '0' });
    expect((await server.db.selectFrom('users').select('level').where('id', '=', a.user.id).executeTakeFirstOrThrow()).level).toBe(1);
    // b's own team is d (activated) and e: one direct activated, but two team members needed.
    expect((await call('GET', '/api/member/status', b.accessToken)).body.data).toMatchObject({ level: 0, team: { direct: 1, directActivated: 1, team: 2, teamActivated: 1 } });

    await activate(c);
    expect(await status()).toMatchObject({ level: 1, team: { directActivated: 2, teamActivated: 3 } });
    // Volume of the team (d's closed cycles count, a's own does not).
    await insertCycle(server, a.user.id, { buyCost: '500', profit: '1' });
    await insertCycle(server, d.user.id, { buyCost: '60', profit: '1' });
    expect((await status()).level).toBe(1);
    await insertCycle(server, d.user.id, { buyCost: '40.5', profit: '-1' });
    const two = await status();
    expect(two).toMatchObject({ level: 2, next: null, team: { teamVolume: '100.5' } });

    // An operator-set level above the computed one stays.
    await server.db.updateTable('users').set({ level: 2 }).where('id', '=', c.user.id).execute();
    expect((await call('GET', '/api/member/status', c.accessToken)).body.data.level).toBe(2);
  });

  it('lets a newcomer trade on paper before activation and refuses tasks beyond the level task limit (10002)', async () => {
    await writeSettings(server.db, {
      levels: [{ level: 0, minDirect: 0, minTeam: 0, minTeamVolume: '0', fuelDiscountPercent: '0', taskLimit: 2 }],
    });
    const session = await registerUser(server, { email: 'limit@example.com' });
    const exchangeId = (await call('POST', '/api/exchange/add', session.accessToken, { exchange: 'paper', name: 'Paper' })).body.data.id;
    const strategyId = (await call('POST', '/api/strategy/add', session.accessToken, quickStrategy)).body.data.id;
    const add = (coins: string[]) =>
      call('POST', '/api/trade/add', session.accessToken, {
        exchangeId,
        coinIdList: coins,
        cycleCount: 1,
        firstOrderAmount: '10',
        firstOrderMultiple: false,
        running: false,
        replenishStatus: 'replenish_open',
        strategyId,
      });
    // Paper trading needs no activation (real exchanges do: realExchangeTrading.test.ts).
    expect((await add(['BTC/USDT'])).body.code).toBe(0);
    const refused = await add(['ETH/USDT', 'SOL/USDT']);
    expect(refused.body).toMatchObject({ code: 10002, data: { rule: 'taskLimit', limit: 2 } });
    expect((await call('GET', '/api/trade/list', session.accessToken)).body.data.total).toBe(1);
    expect((await add(['ETH/USDT'])).body.code).toBe(0);
    expect((await add(['SOL/USDT'])).body).toMatchObject({ code: 10002, data: { rule: 'taskLimit', limit: 2 } });
    // A finished task no longer counts.
    await server.db.updateTable('trade_tasks').set({ status: 'finished' }).where('symbol', '=', 'BTC/USDT').execute();
    expect((await add(['SOL/USDT'])).body.code).toBe(0);
  });

  it('charges fuel on a profitable cycle; without fuel the cycle ends and no new one opens until fuel comes back', async () => {
    const session = await registerUser(server, { email: 'fuel@example.com', activated: true });
    const token = session.accessToken;
    const userId = session.user.id;
    const exchangeId = (await call('POST', '/api/exchange/add', token, { exchange: 'paper', name: 'Paper' })).body.data.id;
    // Take profit well over the spread and fees: cycles close with a profit.
    const strategyId = (await call('POST', '/api/strategy/add', token, { ...quickStrategy, name: 'Profitable', takeProfitPercent: '0.3' })).body.data.id;
    const created = await call('POST', '/api/trade/add', token, {
      exchangeId,
      // SOL of the seed-42 market swings enough for take profit soon.
      coinIdList: ['SOL/USDT'],
      cycleCount: 9999,
      firstOrderAmount: '10',
      firstOrderMultiple: false,
      running: true,
      replenishStatus: 'replenish_open',
      strategyId,
    });
    expect(created.body.code).toBe(0);
    const taskId = created.body.data[0].id as string;
    const cycles = () => server.db.selectFrom('cycles').selectAll().where('task_id', '=', taskId).orderBy('cycle').execute();
    const events = async () => (await server.db.selectFrom('task_events').select('kind').where('task_id', '=', taskId).orderBy('id').execute()).map((e) => e.kind);
    const tickUntil = async (done: () => Promise<boolean>, max = 3000) => {
      for (let i = 0; i < max; i += 10) {
        // Ten simulated seconds a tick: the market moves enough for take profit in a few minutes.
        for (let j = 0; j < 10; j++) await server.app.engine.tick(10);
        if (await done()) return;
      }
      throw new Error(`the engine never got there: ${JSON.stringify({ events: await events(), cycles: await cycles(), state: server.app.engine.tasks.get(taskId)?.state })}`);
    };

    // First profitable cycle: 10 % of its profit in fuel, in the same transaction as the cycle row.
    await tickUntil(async () => (await cycles()).some((c) => new Big(c.realized_profit).gt(0)));
    const first = (await cycles()).find((c) => new Big(c.realized_profit).gt(0))!;
    const due = new Big(first.realized_profit).times('0.1').round(8, Big.roundDown);
    expect(new Big(first.fuel_charged).eq(due)).toBe(true);
    const charges = await server.db.selectFrom('ledger_transactions').select(['kind', 'memo', 'user_id']).where('kind', '=', 'fuel_charge').execute();
    expect(charges.length).toBeGreaterThan(0);
    expect(charges[0]).toMatchObject({ user_id: userId, memo: { taskId, cycle: String(first.cycle) } });
    const chargedSoFar = (await cycles()).reduce((sum, c) => sum.plus(c.fuel_charged), new Big(0));
    expect(new Big(await balance(userId, 'FUEL')).eq(new Big(20).minus(chargedSoFar))).toBe(true);
    const fuel = (await call('GET', '/api/member/fuel', token)).body.data;
    expect(fuel).toMatchObject({ baseRatePercent: '10', ratePercent: '10', pausedTasks: 0 });
    expect(new Big(fuel.chargedTotal).eq(chargedSoFar)).toBe(true);
    expect(new Big(fuel.balance).eq(new Big(20).minus(chargedSoFar))).toBe(true);

    // Wait for an open cycle, then take every drop of fuel away.
    await tickUntil(async () => server.app.engine.tasks.get(taskId)!.state.phase === 'open');
    const openCycle = server.app.engine.tasks.get(taskId)!.state.cyclesDone + 1;
    await server.db.transaction().execute(async (trx) => {
      const left = await balanceOf(trx, user(userId, 'FUEL'));
      await post(trx, { kind: 'adjustment', userId: null, moves: [{ from: user(userId, 'FUEL'), to: system('adjustments', 'FUEL'), amount: left }] });
    });
    expect(await balance(userId, 'FUEL')).toBe('0');

    // The open cycle finishes normally (no fuel to charge), then the task waits: one fuel_empty event, no new cycle.
    await tickUntil(async () => (await cycles()).some((c) => c.cycle === openCycle));
    const closed = (await cycles()).find((c) => c.cycle === openCycle)!;
    expect(closed.fuel_charged).toBe('0');
    for (let i = 0; i < 300; i++) await server.app.engine.tick(10);
    expect((await cycles()).length).toBe(openCycle);
    const buysAfter = await server.db.selectFrom('orders').select('id').where('task_id', '=', taskId).where('cycle', '>', openCycle).execute();
    expect(buysAfter).toHaveLength(0);
    expect((await events()).filter((k) => k === 'fuel_empty')).toHaveLength(1);
    expect(server.app.engine.tasks.get(taskId)!.state.phase).toBe('ready');
    expect((await call('GET', '/api/member/fuel', token)).body.data).toMatchObject({ balance: '0', pausedTasks: 1 });
    expect(await balance(userId, 'FUEL')).toBe('0');

    // Fuel again: the task resumes by itself.
    await adjustBalance(server, userId, 'FUEL', '5');
    await tickUntil(async () => (await server.db.selectFrom('orders').select('id').where('task_id', '=', taskId).where('cycle', '=', openCycle + 1).execute()).length > 0, 50);
    expect((await call('GET', '/api/member/fuel', token)).body.data.pausedTasks).toBe(0);
  });

  it('answers the fuel rate after the level discount', async () => {
    const session = await registerUser(server, { email: 'discount@example.com' });
    await server.db.updateTable('users').set({ level: 2 }).where('id', '=', session.user.id).execute();
    expect((await call('GET', '/api/member/fuel', session.accessToken)).body.data).toMatchObject({
      balance: '0',
      baseRatePercent: '10',
      ratePercent: '8',
      chargedTotal: '0',
      pausedTasks: 0,
    });
  });

  it('creates the demo account activated and funded once, whatever the restarts', async () => {
    expect(await ensureDemoAccount(server.db, server.config.scryptCost)).toEqual({ email: DEMO_EMAIL, password: DEMO_PASSWORD });
    expect(await ensureDemoAccount(server.db, server.config.scryptCost)).toEqual({ email: DEMO_EMAIL, password: DEMO_PASSWORD });
    const demo = await server.db.selectFrom('users').select(['id', 'activated', 'activated_at']).where('email', '=', DEMO_EMAIL).executeTakeFirstOrThrow();
    expect(demo.activated).toBe(true);
    expect(demo.activated_at).not.toBeNull();
    expect(await balance(demo.id, 'USDT')).toBe('1000');
    expect(await balance(demo.id, 'CARD')).toBe('2');
    expect(await balance(demo.id, 'FUEL')).toBe('100');
    expect(await balance(demo.id, 'POINTS')).toBe('0');
    const adjustments = await server.db.selectFrom('ledger_transactions').select('kind').where('kind', '=', 'adjustment').execute();
    expect(adjustments).toHaveLength(1);
  });

  it('shows the invite link and the community with masked emails, depth and activity', async () => {
    const root = await registerUser(server, { email: 'root@example.com', nickname: 'Root' });
    const child = await registerUser(server, { email: 'child@example.com', nickname: 'Child', inviteCode: root.user.inviteCode });
    const grandchild = await registerUser(server, { email: 'grandchild@example.org', nickname: 'Grand', inviteCode: child.user.inviteCode });
    await registerUser(server, { email: 'z@example.com', nickname: 'Zed', inviteCode: root.user.inviteCode, activated: true });
    await registerUser(server, { email: 'stranger@example.com' });

    const info = (await call('GET', '/api/invite/info', root.accessToken)).body.data;
    expect(info).toEqual({
      inviteCode: root.user.inviteCode,
      registerPath: `/#/auth/register?inviteCode=${root.user.inviteCode}`,
      direct: 2,
      team: 3,
      rewardPoints: '50',
    });

    const direct = (await call('GET', '/api/invite/community?scope=direct', root.accessToken)).body.data;
    expect(direct).toMatchObject({ total: 2, direct: 2, team: 3 });
    expect(direct.list.map((m: { email: string }) => m.email).sort()).toEqual(['c***@example.com', 'z***@example.com']);
    const zed = direct.list.find((m: { nickname: string }) => m.nickname === 'Zed');
    expect(zed).toMatchObject({ depth: 1, activated: true, level: 0, runningTasks: 0 });
    expect(Date.parse(zed.joinedAt)).not.toBeNaN();
    expect(zed.lastActiveAt === null || !Number.isNaN(Date.parse(zed.lastActiveAt))).toBe(true);
    expect(JSON.stringify(direct)).not.toContain('child@example.com');

    const team = (await call('GET', '/api/invite/community?scope=team&pageSize=2', root.accessToken)).body.data;
    expect(team).toMatchObject({ total: 3, direct: 2, team: 3 });
    expect(team.list).toHaveLength(2);
    const rest = (await call('GET', '/api/invite/community?scope=team&page=2&pageSize=2', root.accessToken)).body.data;
    expect(rest.list).toEqual([expect.objectContaining({ email: 'g***@example.org', depth: 2, nickname: 'Grand', activated: false })]);
    expect((await call('GET', '/api/invite/community?scope=team', grandchild.accessToken)).body.data).toEqual({ list: [], total: 0, direct: 0, team: 0 });
    expect((await call('GET', '/api/invite/community?scope=world', root.accessToken)).body.code).toBe(10008);
  });
});
