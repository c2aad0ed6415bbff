import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/api/errors';
import { BACKENDS, registerUser, startServer, trustAddress, type TestServer } from './harness';

/**
 * Concurrency over real HTTP: many signed requests racing for one balance,
 * and one request sent many times at once under one idempotency key.
 */

const PASSWORD = 'Sturdy-Passw0rd!';
const ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

describe.each(BACKENDS)('wallet under concurrency (%s)', { timeout: 60_000 }, (backend) => {
  let server: TestServer;
  let operatorToken: string;
  let seq = 0;

  const join = async (label: string) => {
    await server.db.deleteFrom('throttle_counters').execute();
    const email = `${label}-${seq++}@example.com`;
    const answer = await registerUser(server, { email, password: PASSWORD });
    // Withdrawals go to an address of the book, usable already (the 24-hour rule: withdrawalAddresses.test.ts).
    await trustAddress(server, answer.user.id, ADDRESS);
    return { id: answer.user.id as string, email, token: answer.accessToken };
  };

  const fund = async (token: string, amount: string) => {
    const deposit = await server.call('POST', '/api/wallet/recharge', { amount, idempotencyKey: `fund-${seq++}-${Date.now()}` }, { token });
    const confirmed = await server.call('PUT', `/api/admin/deposits/${deposit.body.data.id}`, { status: 'confirmed' }, { token: operatorToken });
    expect(confirmed.body.code).toBe(0);
  };

  /**
   * Sends `count` requests at once. A money-moving call's password check answers 10009 (nothing stored)
   * when the password hashing queue is full or its slot does not come within 5 s: on a slow machine some
   * of 50 racing calls get that, so those are sent again after a second, all at once, until each has its
   * real answer. The race for the balance is the same.
   */
  const race = async (count: number, send: (i: number) => Promise<{ status: number; body: { code: number } }>) => {
    const answers = await Promise.all(Array.from({ length: count }, (_, i) => send(i)));
    for (let round = 0; round < 30; round += 1) {
      const again = answers.flatMap((answer, i) => (answer.body.code === ErrorCode.TOO_MANY_REQUESTS ? [i] : []));
      if (again.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await Promise.all(again.map(async (i) => (answers[i] = await send(i))));
    }
    return answers;
  };

  const usdt = async (token: string) =>
    (await server.call('GET', '/api/wallet/balances', undefined, { token })).body.data.balances.find((b: { asset: string }) => b.asset === 'USDT');

  beforeAll(async () => {
    server = await startServer(backend);
    const operator = await join('operator');
    await server.db.updateTable('users').set({ role: 'operator' }).where('id', '=', operator.id).execute();
    operatorToken = operator.token;
  });
  afterAll(async () => server?.close());

  it('50 concurrent withdrawals of the whole balance: exactly one succeeds, 49 get 11003', async () => {
    const alice = await join('alice');
    await fund(alice.token, '101');
    const answers = await race(50, (i) =>
      server.call('POST', '/api/wallet/withdraw', { amount: '100', address: ADDRESS, password: PASSWORD, idempotencyKey: `race-${i}-${alice.id}` }, { token: alice.token }),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const codes = answers.map((a) => a.body.code);
    expect(codes.filter((c) => c === 0)).toHaveLength(1);
    expect(codes.filter((c) => c === ErrorCode.INSUFFICIENT_BALANCE)).toHaveLength(49);
    expect(await usdt(alice.token)).toEqual({ asset: 'USDT', available: '0', held: '101' });
    const rows = await server.db.selectFrom('withdrawals').select('id').where('user_id', '=', alice.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('50 concurrent transfers of the whole balance: exactly one succeeds', async () => {
    const alice = await join('alice');
    const bob = await join('bob');
    await fund(alice.token, '25');
    const answers = await race(50, (i) =>
      server.call('POST', '/api/wallet/transfer', { to: bob.email, amount: '25', password: PASSWORD, idempotencyKey: `t-race-${i}-${alice.id}` }, { token: alice.token }),
    );
    const codes = answers.map((a) => a.body.code);
    expect(codes.filter((c) => c === 0)).toHaveLength(1);
    expect(codes.filter((c) => c === ErrorCode.INSUFFICIENT_BALANCE)).toHaveLength(49);
    expect((await usdt(alice.token)).available).toBe('0');
    expect((await usdt(bob.token)).available).toBe('25');
  });

  it('10 concurrent requests with the same idempotency key move money once and all answer the same', async () => {
    const alice = await join('alice');
    await fund(alice.token, '100');
    const idempotencyKey = `same-${alice.id}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        server.call('POST', '/api/wallet/withdraw', { amount: '30', address: ADDRESS, password: PASSWORD, idempotencyKey }, { token: alice.token }),
      ),
    );
    expect(answers.map((a) => a.body.code)).toEqual(Array(10).fill(0));
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    expect(await usdt(alice.token)).toEqual({ asset: 'USDT', available: '69', held: '31' });
    const holds = await server.db
      .selectFrom('ledger_transactions')
      .select('id')
      .where('user_id', '=', alice.id)
      .where('kind', '=', 'withdraw_hold')
      .execute();
    expect(holds).toHaveLength(1);
  });
});
