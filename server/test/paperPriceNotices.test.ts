import { afterEach, describe, expect, it } from 'vitest';
import { PRICE_NOTICE_HOLD_MS } from '../src/engine/runner/priceNotices';
import { emptyWrites } from '../src/engine/store/journal';
import orders from './fixtures/binance-orders.json';
import { BACKENDS, quickStrategy, registerUser, startServer, taskPayload, type TestServer } from './harness';
import { recordedExchange, type RecordedAnswer } from './recordedExchange';

/**
 * A paper account whose live price source cannot be reached trades on the
 * simulator meanwhile (paperPrices.test.ts); its owner is told so once, and
 * once when live prices are back (issue 25), through ccxt's Binance class fed
 * recorded answers, the sources' clock moved by the test.
 */
const publicAnswers = [orders.exchangeInfo, orders.tickers] as RecordedAnswer[];

describe.each(BACKENDS)('paper price notices (%s)', (backend) => {
  let server: TestServer;
  afterEach(async () => server?.close());

  const newcomer = async () => {
    const { accessToken } = await registerUser(server, { email: 'newcomer@example.com' });
    return (method: string, path: string, body?: unknown) => server.call(method, path, body, { token: accessToken });
  };

  it("tells the owner once per account that it fell back to simulated prices and once that it came back, not when the source flaps", async () => {
    const replay = recordedExchange();
    replay.answer(...publicAnswers);
    let clock = Date.now();
    server = await startServer(backend, {}, { publicExchangeFactory: replay.factory, priceClock: () => clock });
    const call = await newcomer();
    const exchangeId = (await call('POST', '/api/exchange/add', { exchange: 'paper', name: 'Paper on Binance', priceSource: 'binance' })).body.data.id as string;
    // Two tasks on the one account: one notice for the account, not one per task.
    const strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
    for (let i = 0; i < 2; i++) expect((await call('POST', '/api/trade/add', taskPayload(exchangeId, strategyId))).body.code).toBe(0);
    const engine = server.app.engine;
    const binance = engine.priceSources!.liveMarket('binance');
    // Read only when the test says (no background reads racing the clock).
    binance.stop();
    /**
     * Moves the sources' clock, reads the exchange while it answers (a read of
     * a down exchange waits for the client's retries: its prices go stale by
     * the clock alone) and runs one engine tick.
     */
    const after = async (ms: number, read = true) => {
      clock += ms;
      if (read) await binance.refresh();
      await engine.tick();
      await engine.idle();
    };
    const told = async () =>
      (await server.db.selectFrom('notification_events').select(['kind', 'payload', 'task_id']).where('kind', 'like', 'trade.paper%').orderBy('id').execute()).map(
        (row): Record<string, unknown> => ({ kind: row.kind, taskId: row.task_id, ...(row.payload as Record<string, unknown>) }),
      );
    await after(0);
    // Live for longer than the hold: nothing to tell (the owner was never told otherwise).
    await after(PRICE_NOTICE_HOLD_MS + 1);
    expect(await told()).toEqual([]);

    // The source flaps: down 35 s, back 20 s, down again: nothing yet.
    replay.failNetwork();
    await after(16_000, false);
    expect(binance.status().live).toBe(false);
    await after(19_000, false);
    replay.answer(...publicAnswers);
    await after(1_000);
    await after(19_000);
    expect(binance.status().live).toBe(true);
    replay.failNetwork();
    await after(16_000, false);
    expect(binance.status().live).toBe(false);
    expect(await told()).toEqual([]);

    // Down for the hold: told once, with since when; later ticks tell nothing more.
    await after(PRICE_NOTICE_HOLD_MS, false);
    await after(1_000, false);
    await after(1_000, false);
    const fellBack = { kind: 'trade.paper_fallback', taskId: null, accountId: exchangeId, account: 'Paper on Binance', source: 'binance', sourceName: 'Binance' };
    const [notice] = await told();
    expect(await told()).toEqual([{ ...fellBack, since: expect.any(String) }]);
    const downSince = notice!['since'] as string;
    expect(Date.parse(downSince)).toBeLessThanOrEqual(clock - PRICE_NOTICE_HOLD_MS);
    const row = await server.db.selectFrom('exchange_accounts').select('paper_fallback_since').where('id', '=', exchangeId).executeTakeFirstOrThrow();
    expect(row.paper_fallback_since && new Date(row.paper_fallback_since).toISOString()).toBe(downSince);
    // Another process (a shard handed over, a restart) telling the same change writes nothing more: the stored state decides.
    await engine.store.commit({ ...emptyWrites(), prices: [{ accountId: exchangeId, source: 'binance', fallbackSince: new Date(clock).toISOString() }] });
    expect(await told()).toHaveLength(1);

    // Back: told once it has held, then never again.
    replay.answer(...publicAnswers);
    await after(1_000);
    expect(binance.status().live).toBe(true);
    expect(await told()).toHaveLength(1);
    await after(PRICE_NOTICE_HOLD_MS);
    await after(1_000);
    const cameBack = { kind: 'trade.paper_live', taskId: null, accountId: exchangeId, account: 'Paper on Binance', source: 'binance', sourceName: 'Binance' };
    expect(await told()).toEqual([{ ...fellBack, since: downSince }, cameBack]);

    // The inbox shows both, newest first, in the owner's language.
    const inbox = await call('GET', '/api/notifications');
    const kinds = (inbox.body.data.list as { kind: string }[]).map((item) => item.kind).filter((kind) => kind.startsWith('trade.paper'));
    expect(kinds).toEqual(['trade.paper_live', 'trade.paper_fallback']);
    expect(replay.unexpected).toEqual([]);
  });
});
