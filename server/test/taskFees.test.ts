import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseOf } from '../src/engine/core/fills';
import { BACKENDS, addPaperTask, quickStrategy, registerUser, startServer, type TestServer } from './harness';

describe.each(BACKENDS)('fees paid by a task with a cycle under way (%s)', (backend) => {
  let server: TestServer;
  let token: string;
  let taskId: string;
  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });

  beforeAll(async () => {
    server = await startServer(backend);
    token = (await registerUser(server, { email: 'fees@example.com', activated: true })).accessToken;
    // No level within reach and a far take profit: the first buy fills and the cycle stays open.
    taskId = await addPaperTask(server, token, { strategy: { ...quickStrategy, name: 'Wide', levels: [{ dropPercent: '50', multiple: '1' }], takeProfitPercent: '50' } });
    for (let i = 0; i < 5; i += 1) await server.app.engine.tick();
  }, 120_000);
  afterAll(async () => server?.close());

  it('counts the open cycle\'s fees, whatever asset they were paid in, as the orders list them', async () => {
    const orders = await server.db.selectFrom('orders').selectAll().where('task_id', '=', taskId).where('status', '=', 'closed').execute();
    expect(orders.length).toBeGreaterThan(0);
    // What the orders paid, in quote: a fee in the coin at its fill price, a fee in USDT as it is.
    const paid = orders.reduce((sum, o) => sum.plus(o.fee_currency === baseOf(o.symbol) ? new Big(o.fee).times(o.price!) : o.fee), new Big(0));
    expect(paid.gt(0)).toBe(true);
    const answer = (await call('GET', `/api/trade/returns?taskId=${taskId}`)).body;
    expect(answer.code).toBe(0);
    expect(answer.data.cyclesClosed).toBe(0);
    // The engine books a fee's quote value rounded up to 8 decimals.
    expect(new Big(answer.data.fees).minus(paid).abs().lte('0.00000001')).toBe(true);
  });
});
