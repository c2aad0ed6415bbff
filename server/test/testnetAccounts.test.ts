import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExchangeFactory } from '../src/engine/venues/exchangeAccess';
import binance from './fixtures/binance.json';
import orders from './fixtures/binance-orders.json';
import okx from './fixtures/okx.json';
import { BACKENDS, quickStrategy, registerUser, startServer, taskPayload, type TestServer } from './harness';
import { recordedExchange, type RecordedAnswer, type Replay } from './recordedExchange';

/**
 * Testnet accounts (Binance Spot Testnet, OKX demo trading): play money on
 * the exchange's own sandbox, reached through ccxt's sandbox mode on the
 * same classes and the same trading path as live accounts, with no
 * activation needed. ccxt's classes are fed recorded answers: nothing here
 * reaches the internet.
 */

const BINANCE_KEY = {
  apiKey: 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A',
  secret: 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j',
};
const OKX_KEY = {
  apiKey: '4a0b9d3e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
  secret: '9F3B1C2D4E5F60718293A4B5C6D7E8F9',
  password: 'Dca-Robot-Passphrase-7',
};

type Fetch = (url: string, init: RequestInit) => Promise<Response>;
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The recorded exchange; an order creation is filled with the client order id the engine sent. */
const sandbox = () => {
  const replay: Replay = recordedExchange();
  const created: (string | null)[] = [];
  const factory: ExchangeFactory = (id, settings) => {
    const exchange = replay.factory(id, settings);
    const recorded = exchange.fetchImplementation as Fetch;
    exchange.fetchImplementation = (async (url, init) => {
      const { pathname, searchParams } = new URL(url);
      if (pathname === '/api/v3/order' && (init.method ?? 'GET').toUpperCase() === 'POST') {
        const clientOrderId = searchParams.get('newClientOrderId') ?? new URLSearchParams(typeof init.body === 'string' ? init.body : '').get('newClientOrderId');
        created.push(clientOrderId);
        replay.requests.push({ method: 'POST', url, headers: { ...(init.headers as Record<string, string>) } });
        return json(200, { ...orders.orderFilled.body, clientOrderId });
      }
      return recorded(url, init);
    }) satisfies Fetch;
    return exchange;
  };
  return { replay, factory, created };
};

describe.each(BACKENDS)('testnet accounts (%s)', (backend) => {
  let server: TestServer;
  let exchange: ReturnType<typeof sandbox>;
  let token: string;

  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });

  beforeEach(async () => {
    exchange = sandbox();
    server = await startServer(backend, {}, { exchangeFactory: exchange.factory });
    // Not activated: play money needs no activation.
    token = (await registerUser(server, { email: 'tester@example.com', activated: false })).accessToken;
  });
  afterEach(async () => server.close());

  it('offers Binance Spot Testnet and OKX demo trading as account types of their own', async () => {
    const list = (await call('GET', '/api/exchange/catalog')).body.data.list as { id: string }[];
    expect(list.filter((entry) => entry.id.endsWith('-testnet'))).toEqual([
      { id: 'binance-testnet', name: 'Binance Spot Testnet', kind: 'testnet', credentials: ['apiKey', 'secret'], checksPermissions: false, startBalances: null, priceSources: null },
      { id: 'okx-testnet', name: 'OKX Demo Trading', kind: 'testnet', credentials: ['apiKey', 'secret', 'password'], checksPermissions: false, startBalances: null, priceSources: null },
    ]);
  });

  it('binds a Binance testnet key against the testnet, and a task trades there without activation, through the live path', async () => {
    exchange.replay.answer(binance.account as RecordedAnswer);
    const added = await call('POST', '/api/exchange/add', { exchange: 'binance-testnet', name: 'Binance Testnet', ...BINANCE_KEY });
    expect(added.body).toMatchObject({ code: 0, data: { exchange: 'binance-testnet', apiKeyHint: expect.any(String), paperBalances: null } });
    // The key check asked the testnet's balance only (no permissions call: the testnet has none).
    expect(exchange.replay.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual(['GET https://testnet.binance.vision/api/v3/account']);

    exchange.replay.answer(...([orders.exchangeInfo, orders.ticker, orders.account, orders.openOrders, orders.myTrades] as RecordedAnswer[]));
    const strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
    const created = await call('POST', '/api/trade/add', taskPayload(added.body.data.id, strategyId));
    expect(created.body.code).toBe(0);
    const taskId = created.body.data[0].id as string;
    await server.app.engine.tick();
    await server.app.engine.idle();
    const [order] = await server.db.selectFrom('orders').selectAll().where('task_id', '=', taskId).execute();
    expect(order).toMatchObject({ side: 'buy', status: 'closed', exchange_order_id: '28457381' });
    expect(exchange.created).toEqual([order!.client_order_id]);
    // Every request went to the testnet, none to the live exchange.
    expect(new Set(exchange.replay.requests.map((r) => new URL(r.url).host))).toEqual(new Set(['testnet.binance.vision']));
    expect(exchange.replay.unexpected).toEqual([]);
  });

  it('waits out the exchange being unreachable for all its tasks: one outage in the status, no task failure, trading goes on', async () => {
    await server.db.updateTable('users').set({ role: 'operator' }).execute();
    exchange.replay.answer(binance.account as RecordedAnswer);
    const accountId = (await call('POST', '/api/exchange/add', { exchange: 'binance-testnet', name: 'Binance Testnet', ...BINANCE_KEY })).body.data.id;
    const trading = [orders.exchangeInfo, orders.ticker, orders.account, orders.openOrders, orders.myTrades] as RecordedAnswer[];
    exchange.replay.answer(...trading);
    const strategyId = (await call('POST', '/api/strategy/add', quickStrategy)).body.data.id;
    const ids: string[] = [];
    // Two tasks on the one pair the recorded answers price.
    for (const symbol of ['BTC/USDT', 'BTC/USDT']) {
      const created = await call('POST', '/api/trade/add', taskPayload(accountId, strategyId, { coinIdList: [symbol] }));
      expect(created.body, symbol).toMatchObject({ code: 0 });
      ids.push(created.body.data[0].id);
    }
    const tick = async () => {
      await server.app.engine.tick();
      await server.app.engine.idle();
    };
    await tick();
    expect(exchange.created).toHaveLength(2);

    // One tick is enough: both tasks ask the exchange in it, each after the client's own retries.
    exchange.replay.failNetwork();
    const asked = exchange.replay.requests.length;
    await tick();
    // The first task found the exchange down (its reads tried three times); the second did not ask it again in that tick.
    expect(exchange.replay.requests.slice(asked).map((r) => new URL(r.url).pathname)).toEqual(Array(3).fill('/api/v3/ticker/24hr'));
    const status = (await call('GET', '/api/engine/status')).body.data;
    expect(status.outages).toEqual([{ dependency: 'exchange', exchange: 'binance-testnet', since: expect.any(String), failedTicks: 0, message: expect.any(String) }]);
    expect(status.tasks).toMatchObject({ loaded: 2, running: 2, attention: 0, failing: 0 });
    expect(server.logs.filter((line) => line.includes('exchange:binance-testnet is down')).length).toBe(1);
    expect(server.logs.filter((line) => line.includes('price could not be fetched')).length).toBe(0);

    exchange.replay.answer(...trading);
    await tick();
    expect((await call('GET', '/api/engine/status')).body.data.outages).toEqual([]);
    for (const id of ids) {
      expect(server.app.engine.tasks.get(id)).toMatchObject({ failures: 0, attention: null, params: expect.objectContaining({ running: true }) });
      const kinds = (await server.db.selectFrom('task_events').select('kind').where('task_id', '=', id).execute()).map((e) => e.kind);
      expect(kinds).not.toContain('error');
    }
    // No order was sent twice.
    expect(new Set(exchange.created).size).toBe(exchange.created.length);
  });

  it('binds an OKX demo-trading key with the simulated-trading header on every request', async () => {
    exchange.replay.answer(okx.balance as RecordedAnswer);
    const added = await call('POST', '/api/exchange/add', { exchange: 'okx-testnet', name: 'OKX Demo', ...OKX_KEY });
    expect(added.body).toMatchObject({ code: 0, data: { exchange: 'okx-testnet' } });
    expect(exchange.replay.requests).toHaveLength(1);
    expect(exchange.replay.requests[0]).toMatchObject({ method: 'GET', headers: { 'x-simulated-trading': '1', 'OK-ACCESS-KEY': OKX_KEY.apiKey } });
    expect(new URL(exchange.replay.requests[0]!.url).pathname).toBe('/api/v5/account/balance');
  });
});
