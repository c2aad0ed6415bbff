import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { post, system, user } from '../src/wallet/ledger';
import { BACKENDS, registerUser, startOtherProcess, startServer, type OtherProcess, type TestServer } from './harness';

/**
 * Wallet balances are kept per user in each process (db/userCache.ts) and
 * dropped by every write to that user's balances (migration 020), whoever
 * writes: a transfer answered by one process shows in the other's very next
 * balances, for both users; a ledger posting outside the API shows once its
 * notice is heard (at once on PGlite); another user's posting leaves them.
 */
describe.each(BACKENDS)('wallet balances after changes (%s)', { timeout: 60_000 }, (backend) => {
  let server: TestServer;
  let other: OtherProcess | undefined;
  afterEach(async () => {
    await other?.close();
    other = undefined;
    await server?.close();
  });

  it('shows every change in every process: a transfer at once, a posting outside the API once heard', async () => {
    server = await startServer(backend);
    other = await startOtherProcess(server, backend);
    const otherBase = other.base;
    const alice = await registerUser(server, { email: 'alice-balances@example.com' });
    const bob = await registerUser(server, { email: 'bob-balances@example.com' });
    /** The user's available and held amounts per asset, as the other process answers them. */
    const there = async (token: string) => {
      const answer = (await (await fetch(`${otherBase}/api/wallet/balances`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        code: number;
        data: { balances: { asset: string; available: string; held: string }[] };
      };
      expect(answer.code).toBe(0);
      return Object.fromEntries(answer.data.balances.map((b) => [b.asset, b.available]));
    };
    const grant = (userId: string, asset: 'USDT' | 'POINTS', amount: string) =>
      server.db.transaction().execute((trx) => post(trx, { kind: 'invite_reward', userId: null, moves: [{ from: system('rewards', asset), to: user(userId, asset), amount }] }));

    // Read, and kept, in the other process.
    expect(await there(alice.accessToken)).toMatchObject({ USDT: '0', POINTS: '0' });
    expect(await there(bob.accessToken)).toMatchObject({ USDT: '0' });
    expect(await there(alice.accessToken)).toMatchObject({ USDT: '0' });

    // Written outside the API (a posting straight into the ledger): shown once its notice is heard.
    await grant(alice.user.id, 'USDT', '100');
    await server.app.sessionCache.sync();
    expect(await there(alice.accessToken)).toMatchObject({ USDT: '100' });
    expect(await there(bob.accessToken)).toMatchObject({ USDT: '0' });

    // A transfer answered by the first process: the other's very next balances show it, for both users.
    const sent = await server.call('POST', '/api/wallet/transfer', { to: bob.user.email, amount: '30', password: 'Sturdy-Passw0rd!', idempotencyKey: randomUUID() }, { token: alice.accessToken });
    expect(sent.body.code).toBe(0);
    expect(await there(alice.accessToken)).toMatchObject({ USDT: '70' });
    expect(await there(bob.accessToken)).toMatchObject({ USDT: '30' });

    // Another user's posting leaves this user's answer as it is; their own shows.
    await grant(bob.user.id, 'POINTS', '5');
    await server.app.sessionCache.sync();
    expect(await there(alice.accessToken)).toMatchObject({ USDT: '70', POINTS: '0' });
    expect(await there(bob.accessToken)).toMatchObject({ USDT: '30', POINTS: '5' });
  });
});
