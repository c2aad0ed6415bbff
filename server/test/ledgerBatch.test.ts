import Big from 'big.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset } from '../../src/api/wallet';
import { accountKey, post, postBatch, system, user, type PostRequest } from '../src/wallet/ledger';
import { BACKENDS, startServer, type TestServer } from './harness';

/**
 * postBatch books exactly what the same requests posted one by one book: the
 * same balances, the same entries in the same order with the same balances
 * after them, and the same refusal (11003, nothing written) when a move would
 * take a user below zero.
 */
describe.each(BACKENDS)('ledger batches (%s)', (backend) => {
  let server: TestServer;
  const users = { one: [] as string[], batch: [] as string[] };

  beforeAll(async () => {
    server = await startServer(backend);
    for (const side of ['one', 'batch'] as const) {
      for (let i = 0; i < 3; i += 1) {
        const row = await server.db
          .insertInto('users')
          .values({ email: `${side}${i}@example.com`, nickname: `${side}${i}`, password_hash: 'x', invite_code: `${side.toUpperCase()}${i}`, inviter_id: null, avatar: null } as never)
          .returning('id')
          .executeTakeFirstOrThrow();
        users[side].push(row.id);
      }
    }
  });
  afterAll(async () => server.close());

  /** A move from the world to a user, from a user to a user, or from a user to the world. */
  const moveArb = fc.record({
    kind: fc.constantFrom('credit', 'transfer', 'charge'),
    from: fc.integer({ min: 0, max: 2 }),
    to: fc.integer({ min: 0, max: 2 }),
    asset: fc.constantFrom<Asset>('USDT', 'FUEL'),
    amount: fc.integer({ min: 1, max: 5_000 }).map((n) => new Big(n).div(100).toFixed()),
  });

  const toRequest = (ids: string[], m: { kind: string; from: number; to: number; asset: Asset; amount: string }): PostRequest => ({
    kind: 'adjustment',
    userId: null,
    memo: { kind: m.kind },
    moves: [
      m.kind === 'credit'
        ? { from: system('adjustments', m.asset), to: user(ids[m.to]!, m.asset), amount: m.amount }
        : m.kind === 'transfer'
          ? { from: user(ids[m.from]!, m.asset), to: user(ids[m.to === m.from ? (m.to + 1) % 3 : m.to]!, m.asset), amount: m.amount }
          : { from: user(ids[m.from]!, m.asset), to: system('fuel', m.asset), amount: m.amount },
    ],
  });

  const ledgerOf = async (ids: string[]) => {
    const keys = ids.flatMap((id) => (['USDT', 'FUEL'] as const).map((asset) => accountKey(user(id, asset))));
    const accounts = await server.db.selectFrom('ledger_accounts').select(['id', 'key', 'balance']).where('key', 'in', keys).execute();
    const entries = accounts.length
      ? await server.db.selectFrom('ledger_entries').select(['account_id', 'amount', 'balance_after']).where('account_id', 'in', accounts.map((a) => a.id)).orderBy('id').execute()
      : [];
    const index = new Map(ids.map((id, i) => [id, i]));
    const name = (key: string) => key.replace(/user:([^:]+)/, (_, id: string) => `user${index.get(id)}`);
    const keyOf = new Map(accounts.map((a) => [a.id, name(a.key)]));
    return {
      balances: Object.fromEntries(accounts.map((a) => [name(a.key), new Big(a.balance).toFixed()])),
      entries: entries.map((e) => `${keyOf.get(e.account_id)} ${new Big(e.amount).toFixed()} -> ${new Big(e.balance_after).toFixed()}`),
    };
  };

  it('books what posting one by one books, refusals included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(moveArb, { minLength: 1, maxLength: 12 }), async (moves) => {
        const outcome = async (run: () => Promise<unknown>) => {
          try {
            await run();
            return 'ok';
          } catch (error) {
            return (error as { code?: number }).code === 11003 ? 'refused' : `error ${(error as Error).message}`;
          }
        };
        const one = await outcome(() =>
          server.db.transaction().execute(async (trx) => {
            for (const m of moves) await post(trx, toRequest(users.one, m));
          }),
        );
        const batch = await outcome(() => server.db.transaction().execute((trx) => postBatch(trx, moves.map((m) => toRequest(users.batch, m)))));
        expect(batch).toBe(one);
        expect(await ledgerOf(users.batch)).toEqual(await ledgerOf(users.one));
      }),
      { numRuns: backend === 'pglite' ? 40 : 20, seed: 7 },
    );
    // The paths refused some batches and booked others.
    const booked = await ledgerOf(users.batch);
    expect(booked.entries.length).toBeGreaterThan(0);
  });
});
