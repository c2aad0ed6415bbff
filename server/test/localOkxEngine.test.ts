import Big from 'big.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STUCK_ORDER_MS } from '../src/engine/runner/context';
import { BACKENDS, quickStrategy, registerUser, startServer, taskPayload, type TestServer } from './harness';
import { startLocalOkx, type LocalOkx } from './localExchange/okx';
import { OKX_ORIGIN, pointedAt } from './localExchange/pointed';

/**
 * A task on a bound OKX account trading against the local OKX: a buy that
 * fills in part and never completes has its rest cancelled through OKX's
 * cancel-order once it is stuck, and what filled is booked to the last unit
 * of the exchange's balances; a read's 5XX is asked again within the turn.
 */

const KEY = { apiKey: '2d6f8a1c-3b5e-4f7a-9c0d-1e2f3a4b5c6d', secret: 'A1B2C3D4E5F60718293A4B5C6D7E8F90', password: 'Local-Okx-Engine-1' };

describe.each(BACKENDS)('a task on the local OKX (%s)', (backend) => {
  let server: TestServer;
  let local: LocalOkx;
  let token: string;

  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });
  const tick = async () => {
    await server.app.engine.tick();
    await server.app.engine.idle();
  };

  beforeEach(async () => {
    local = await startLocalOkx();
    server = await startServer(backend, {}, { exchangeFactory: pointedAt({ [OKX_ORIGIN]: local.origin }) });
    token = (await registerUser(server, { email: 'local-okx@example.com', activated: true })).accessToken;
  });
  afterEach(async () => {
    await server.close();
    await local.close();
  });

  it('cancels the rest of a partial fill that never completes and books what filled, exactly; a read through a 5XX is asked again', async () => {
    local.addAccount(KEY.apiKey, KEY.secret, KEY.password, { USDT: '1000' });
    const added = await call('POST', '/api/exchange/add', { exchange: 'okx', name: 'OKX', ...KEY });
    expect(added.body.code).toBe(0);
    // OKX's taker fee (0.15 % on the recorded instruments) asks a higher take profit than the paper exchange's.
    const strategyId = (await call('POST', '/api/strategy/add', { ...quickStrategy, takeProfitPercent: '0.5' })).body.data.id;
    const created = await call('POST', '/api/trade/add', taskPayload(added.body.data.id, strategyId));
    expect(created.body, JSON.stringify(created.body)).toMatchObject({ code: 0 });
    const taskId = created.body.data[0].id as string;

    // The price read meets a 500 (50026) and a gateway's 502, then is answered; the first buy fills half and stays open.
    local.fault('GET /market/ticker', { kind: 'server_error', status: 500 }, { kind: 'server_error', status: 502 });
    local.fault('POST /trade/batch-orders', { kind: 'partial_fill', share: '0.5' });
    const asked = local.requests.length;
    await tick();
    expect(local.requests.slice(asked).filter((request) => request.endpoint === 'GET /market/ticker').map((request) => request.status)).toEqual([500, 502, 200]);
    expect(local.orders.map((order) => order.state)).toEqual(['partially_filled']);
    const orderRows = () => server.db.selectFrom('orders').select(['status', 'filled', 'exchange_order_id']).where('task_id', '=', taskId).execute();
    // Open on the exchange: the task waits for it, and nothing is cancelled before it is stuck.
    expect((await orderRows()).map((row) => row.status)).toEqual(['intent']);
    await tick();
    expect(local.count('POST /trade/cancel-order')).toBe(0);
    expect(local.count('POST /trade/batch-orders')).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, STUCK_ORDER_MS + 100));
    await tick();
    const [order] = local.orders;
    expect(order).toMatchObject({ state: 'canceled', cancelSource: '1' });
    expect(local.count('POST /trade/cancel-order')).toBe(1);
    expect(local.count('POST /trade/batch-orders')).toBe(1);
    const [row] = await orderRows();
    expect(row).toMatchObject({ status: 'closed', exchange_order_id: order!.ordId });
    expect(new Big(row!.filled!).eq(order!.accFillSz)).toBe(true);
    // The task carries what the account received (the fee taken in BTC), at the USDT it paid.
    const task = server.app.engine.tasks.get(taskId)!;
    expect(new Big(task.state.quantity).eq(local.balance(KEY.apiKey, 'BTC'))).toBe(true);
    expect(new Big(task.state.cost).eq(new Big('1000').minus(local.balance(KEY.apiKey, 'USDT')))).toBe(true);
    expect(task.state.pendingOrder).toBeFalsy();
    expect(task.attention).toBeNull();
    // Cancelled by the engine, not by the exchange: no "cancelled by the exchange" line in the task's log.
    const kinds = (await server.db.selectFrom('task_events').select('kind').where('task_id', '=', taskId).execute()).map((event) => event.kind);
    expect(kinds).not.toContain('exchange_canceled');
    expect(kinds).not.toContain('error');
  });
});
