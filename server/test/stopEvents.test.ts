import { afterEach, describe, expect, it } from 'vitest';
import type { Candle } from '../src/engine/core/candles';
import { eventLine } from '../src/notify/texts';
import { registerUser, startServer, type TestServer } from './harness';

/**
 * Issue 28: a stop's sale says which stop fired, in the task's event log and
 * in its `trade.stop_loss` notification. Four tasks on one replayed price
 * path, each ended by another stop: the stop loss from the average, the stop
 * loss from the last level, the break-even after the first target, the time
 * stop.
 */
const MINUTE = 60_000;
const T0 = Date.UTC(2024, 0, 1);
/** Minute closes: 100 (every task buys), 102 (target 1 sells half), 100 (break-even), 97 (level 1), 92 (last level's stop), 88 (average's stop), then 88 past the hour. */
const CLOSES = ['100', '102', '100', '97', '92', '88', ...Array.from({ length: 66 }, () => '88')];
const candles: Candle[] = CLOSES.map((close, i) => ({ time: T0 + i * MINUTE, open: close, high: close, low: close, close, volume: '1' }));

const base = {
  levels: [{ dropPercent: '2', multiple: '1' }],
  takeProfitPercent: '20',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 0,
};
const STRATEGIES = {
  loss_average: { ...base, name: 'From the average', stopLossPercent: '10' },
  loss_last_level: { ...base, name: 'From the last level', stopLossPercent: '5', stopLossBase: 'last_level' },
  break_even: {
    ...base,
    name: 'Break-even',
    takeProfitTargets: [
      { sharePercent: '50', profitPercent: '1.5', trailing: false },
      { sharePercent: '50', profitPercent: '3', trailing: false },
    ],
    breakEven: true,
  },
  time: { ...base, name: 'Time stop', levels: [{ dropPercent: '30', multiple: '1' }], timeStopHours: 1 },
} as const;

describe('the engine names the stop that sold', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('stop loss from the average or the last level, break-even and time stop: each event and notification says which', async () => {
    server = await startServer('pglite', { paperReplay: { file: 'test', symbol: 'BTC/USDT', speed: 'max', candles, interval: MINUTE } });
    const s = server;
    const taskOf = new Map<string, keyof typeof STRATEGIES>();
    let firstUser: ((method: string, path: string) => ReturnType<TestServer['call']>) | undefined;
    // Three tasks per coin and user at most: two users.
    const users = [['loss_average', 'loss_last_level', 'break_even'], ['time']] as const;
    for (const [u, stops] of users.entries()) {
      const { accessToken } = await registerUser(s, { email: `stops-${u}@example.com`, activated: true });
      const call = (method: string, path: string, body?: unknown) => s.call(method, path, body, { token: accessToken });
      firstUser ??= call;
      const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper' })).body.data.id as string;
      for (const stop of stops) {
        const added = await call('POST', '/api/strategy/add', STRATEGIES[stop]);
        expect(added.body, stop).toMatchObject({ code: 0 });
        const created = await call('POST', '/api/trade/add', {
          exchangeId,
          coinIdList: ['BTC/USDT'],
          cycleCount: 1,
          firstOrderAmount: '50',
          firstOrderMultiple: false,
          running: true,
          replenishStatus: 'replenish_open',
          strategyId: added.body.data.id,
        });
        expect(created.body, stop).toMatchObject({ code: 0 });
        taskOf.set(created.body.data[0].id as string, stop);
      }
    }

    for (let i = 0; i < candles.length; i += 1) await s.app.engine.tick();
    await s.app.engine.flush();

    const events = await s.db.selectFrom('task_events').select(['task_id', 'kind', 'data']).where('kind', 'in', ['sold', 'stop_loss']).orderBy('id').execute();
    for (const [taskId, stop] of taskOf) {
      const own = events.filter((e) => e.task_id === taskId);
      const stops = own.filter((e) => e.kind === 'stop_loss');
      expect(stops, stop).toHaveLength(1);
      expect(stops[0]!.data, stop).toMatchObject({ reason: 'stop_loss', stop });
      // Only the break-even task sold before its stop: target 1's half, the rest still held.
      if (stop === 'break_even') expect(own.map((e) => [e.kind, (e.data as Record<string, unknown>).partial ?? null])).toEqual([['sold', true], ['stop_loss', null]]);
      else expect(own).toHaveLength(1);
    }
    // Where each stop sold: the first price at or under it.
    const priceOf = (stop: string) => events.find((e) => e.kind === 'stop_loss' && taskOf.get(e.task_id) === stop)!.data as Record<string, unknown>;
    expect(Number(priceOf('break_even').price)).toBe(100);
    expect(Number(priceOf('loss_last_level').price)).toBe(92);
    expect(Number(priceOf('loss_average').price)).toBe(88);
    expect(Number(priceOf('time').price)).toBe(88);

    // The notification of each stop names it too, and its text says it in each language.
    const notices = await s.db.selectFrom('notification_events').select(['task_id', 'payload']).where('kind', '=', 'trade.stop_loss').execute();
    expect(notices).toHaveLength(4);
    for (const notice of notices) expect(notice.payload, taskOf.get(notice.task_id!)).toMatchObject({ stop: taskOf.get(notice.task_id!), symbol: 'BTC/USDT' });
    const lastLevel = notices.find((n) => taskOf.get(n.task_id!) === 'loss_last_level')!.payload as Record<string, unknown>;
    expect(eventLine('zh-CN', 'trade.stop_loss', lastLevel)).toContain('BTC/USDT 止损（自末档），价格 92');
    expect(eventLine('zh-TW', 'trade.stop_loss', lastLevel)).toContain('BTC/USDT 停損（自末檔），價格 92');
    expect(eventLine('en-US', 'trade.stop_loss', lastLevel)).toContain('BTC/USDT stop-loss (from the last level) at 92');
    const time = notices.find((n) => taskOf.get(n.task_id!) === 'time')!.payload as Record<string, unknown>;
    expect(eventLine('zh-CN', 'trade.stop_loss', time)).toContain('时间止损');
    // A notice from before stops were named reads as it did.
    expect(eventLine('en-US', 'trade.stop_loss', { ...time, stop: undefined })).toContain('BTC/USDT stop-loss at 88');

    // The task page's events carry the name (the dashboard words it: trade/taskText.ts).
    const [breakEvenTask] = [...taskOf].find(([, stop]) => stop === 'break_even')!;
    const detail = (await firstUser!('GET', `/api/trade/detail/${breakEvenTask}`)).body.data as { events: { kind: string; data: Record<string, unknown> }[] };
    expect(detail.events.filter((e) => e.kind === 'stop_loss').map((e) => e.data.stop)).toEqual(['break_even']);
  });
});
