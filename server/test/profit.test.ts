import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';
import { insertCycle } from './memberFixtures';

describe.each(BACKENDS)('profit pages (%s)', (backend) => {
  let server: TestServer;
  let me: Awaited<ReturnType<typeof registerUser>>;

  beforeEach(async () => {
    server = await startServer(backend);
    me = await registerUser(server, { email: 'dora@example.com', nickname: 'Dora' });
  });
  afterEach(async () => server.close());

  const get = (path: string, token = me.accessToken) => server.call('GET', path, undefined, { token });
  /** An instant relative to the database's clock, as an ISO string. */
  const ago = async (interval: string) => {
    const { rows } = await sql<{ at: Date }>`select now() - ${interval}::interval as at`.execute(server.db);
    return new Date(rows[0]!.at).toISOString();
  };

  it('sums profit by day in the time zone, every day present', async () => {
    await insertCycle(server, me.user.id, { profit: '1.5', buyCost: '100' });
    await insertCycle(server, me.user.id, { profit: '-0.25', buyCost: '100' });
    await insertCycle(server, me.user.id, { profit: '2', closedAt: await ago('3 days') });
    await insertCycle(server, me.user.id, { profit: '4', closedAt: await ago('40 days') });
    const other = await registerUser(server, { email: 'other@example.com' });
    await insertCycle(server, other.user.id, { profit: '100' });

    const summary = (await get('/api/profit/summary?timeZone=Etc/UTC')).body.data;
    expect(summary).toMatchObject({ timeZone: 'Etc/UTC', total: '7.25', todayProfit: '1.25', last7Days: '3.25', last30Days: '3.25', cycles: 4 });
    expect(summary.daily).toHaveLength(30);
    expect(summary.daily[29]).toEqual({ date: summary.today, profit: '1.25', cycles: 2 });
    expect(summary.daily[26]).toMatchObject({ profit: '2', cycles: 1 });
    expect(summary.daily.filter((d: { profit: string }) => d.profit !== '0')).toHaveLength(2);
    // Consecutive days, oldest first.
    const dates = summary.daily.map((d: { date: string }) => Date.parse(`${d.date}T00:00:00Z`));
    for (let i = 1; i < dates.length; i++) expect(dates[i] - dates[i - 1]).toBe(86_400_000);

    expect((await get('/api/profit/summary?timeZone=UTC&days=7')).body.data.daily).toHaveLength(7);
    expect((await get('/api/profit/summary?days=366')).body.code).toBe(10002);
    expect((await get('/api/profit/summary?timeZone=Mars/Olympus')).body).toMatchObject({ code: 10003, data: { field: 'timeZone' } });
    expect((await get('/api/profit/summary?timeZone=Asia/Shanghai%27--')).body.code).toBe(10003);
    expect((await get('/api/profit/summary', other.accessToken)).body.data).toMatchObject({ total: '100', cycles: 1 });
    expect((await server.call('GET', '/api/profit/summary')).status).toBe(401);
  });

  it('puts a cycle closed at 23:30 UTC on the next day in Asia/Shanghai', async () => {
    const account = { symbol: 'ETH/USDT', accountName: 'My paper' };
    const late = await insertCycle(server, me.user.id, { profit: '3', buyCost: '50', closedAt: '2026-01-10T23:30:00Z', fuelCharged: '0.3', ...account });
    await insertCycle(server, me.user.id, { profit: '1', closedAt: '2026-01-10T10:00:00Z' });
    await insertCycle(server, me.user.id, { profit: '2', closedAt: '2026-01-09T12:00:00Z' });

    const utc = (await get('/api/profit/daily?timeZone=UTC')).body.data;
    expect(utc).toEqual({
      list: [
        { date: '2026-01-10', profit: '4', cycles: 2 },
        { date: '2026-01-09', profit: '2', cycles: 1 },
      ],
      total: 2,
    });
    const shanghai = (await get('/api/profit/daily?timeZone=Asia/Shanghai')).body.data;
    expect(shanghai).toEqual({
      list: [
        { date: '2026-01-11', profit: '3', cycles: 1 },
        { date: '2026-01-10', profit: '1', cycles: 1 },
        { date: '2026-01-09', profit: '2', cycles: 1 },
      ],
      total: 3,
    });
    const second = (await get('/api/profit/daily?timeZone=Asia/Shanghai&page=2&pageSize=2')).body.data;
    expect(second).toEqual({ list: [{ date: '2026-01-09', profit: '2', cycles: 1 }], total: 3 });

    const detail = (await get('/api/profit/daily-detail?date=2026-01-11&timeZone=Asia/Shanghai')).body.data;
    expect(detail).toEqual({
      date: '2026-01-11',
      profit: '3',
      cycles: [
        {
          id: late.cycleId,
          taskId: late.taskId,
          symbol: 'ETH/USDT',
          exchangeName: 'My paper',
          cycle: 1,
          buyCost: '50',
          sellProceeds: '53',
          realizedProfit: '3',
          fuelCharged: '0.3',
          closedAt: '2026-01-10T23:30:00.000Z',
        },
      ],
    });
    const utcDay = (await get('/api/profit/daily-detail?date=2026-01-10&timeZone=UTC')).body.data;
    expect(utcDay.profit).toBe('4');
    expect(utcDay.cycles.map((c: { closedAt: string }) => c.closedAt)).toEqual(['2026-01-10T23:30:00.000Z', '2026-01-10T10:00:00.000Z']);
    expect((await get('/api/profit/daily-detail?date=2026-01-11&timeZone=UTC')).body.data).toEqual({ date: '2026-01-11', profit: '0', cycles: [] });

    // Someone else's day is empty for me.
    const other = await registerUser(server, { email: 'other@example.com' });
    expect((await get('/api/profit/daily-detail?date=2026-01-11&timeZone=Asia/Shanghai', other.accessToken)).body.data.cycles).toEqual([]);
    expect((await get('/api/profit/daily?timeZone=UTC', other.accessToken)).body.data).toEqual({ list: [], total: 0 });

    expect((await get('/api/profit/daily-detail?date=2026-02-30&timeZone=UTC')).body).toMatchObject({ code: 10003, data: { field: 'date' } });
    expect((await get('/api/profit/daily-detail?date=11/01/2026&timeZone=UTC')).body.code).toBe(10003);
    expect((await get('/api/profit/daily-detail?timeZone=UTC')).body.code).toBe(10000);
    expect((await get('/api/profit/daily-detail?date=2026-01-11&timeZone=Nowhere/City')).body.code).toBe(10003);
    expect((await get('/api/profit/daily?timeZone=Nowhere/City')).body.code).toBe(10003);
  });

  it('ranks users by profit with masked names, only profits above 0', async () => {
    const alice = await registerUser(server, { email: 'alice@example.com', nickname: 'Alice' });
    const bob = await registerUser(server, { email: 'bob@example.com', nickname: '波波' });
    const carl = await registerUser(server, { email: 'carl@example.com', nickname: 'Carl' });
    await insertCycle(server, alice.user.id, { profit: '10' });
    await insertCycle(server, bob.user.id, { profit: '5' });
    await insertCycle(server, bob.user.id, { profit: '20', closedAt: await ago('5 days') });
    await insertCycle(server, carl.user.id, { profit: '-3' });
    await insertCycle(server, me.user.id, { profit: '1' });

    const day = (await get('/api/profit/rank?period=day&timeZone=UTC')).body.data;
    expect(day.period).toBe('day');
    expect(day.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(day.list).toEqual([
      { rank: 1, name: 'A***', profit: '10', self: false },
      { rank: 2, name: '波***', profit: '5', self: false },
      { rank: 3, name: 'D***', profit: '1', self: true },
    ]);
    expect(day.me).toEqual({ rank: 3, profit: '1' });
    expect(JSON.stringify(day)).not.toContain('Alice');

    const all = (await get('/api/profit/rank?period=all&timeZone=UTC&limit=1')).body.data;
    expect(all.list).toEqual([{ rank: 1, name: '波***', profit: '25', self: false }]);
    expect(all.me).toEqual({ rank: 3, profit: '1' });

    // No profit, no place.
    const carlRank = (await get('/api/profit/rank?period=all', carl.accessToken)).body.data;
    expect(carlRank.me).toBeNull();
    expect(carlRank.list).toHaveLength(3);
    expect((await get('/api/profit/rank?period=week')).body.code).toBe(10008);
    expect((await get('/api/profit/rank?limit=0')).body.code).toBe(10002);
    expect((await get('/api/profit/rank?timeZone=Mars/Olympus')).body.code).toBe(10003);
  });
});
