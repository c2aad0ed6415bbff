import { randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import Big from 'big.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset } from '../../src/api/wallet';
import { dropSchema, migrate, openDatabase, type Db } from '../src/db/database';
import { BusinessError } from '../src/http/errors';
import { post, system, user } from '../src/wallet/ledger';
import * as wallet from '../src/wallet/service';
import { BACKENDS, newPglite } from './harness';

/**
 * Random sequences of every money-moving call over a few users with an
 * invitation chain, driven through the wallet's service functions. After
 * each sequence: every asset sums to zero over all accounts, no user balance
 * is negative, every balance equals the sum of its entries (and its last
 * entry's balance_after), held money equals the pending withdrawals, only
 * withdrawals to outside addresses reach the chain's and the fees' system
 * accounts (one to another user's deposit address is a fee-free transfer),
 * and replaying any request under its idempotency key answers the same and
 * moves nothing.
 */

const ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const USERS = 4;

type Op =
  | { op: 'recharge'; who: number; amount: string }
  | { op: 'confirm' | 'rejectDeposit'; pick: number }
  | { op: 'withdraw'; who: number; to: number; amount: string }
  | { op: 'approve' | 'rejectWithdrawal'; pick: number }
  | { op: 'transfer'; who: number; to: number; amount: string }
  | { op: 'exchange'; who: number; pair: number; amount: string }
  | { op: 'points'; who: number; to: number; amount: string }
  | { op: 'reward'; who: number; amount: string }
  | { op: 'fuel'; who: number; amount: string }
  | { op: 'replay'; pick: number };

const who = fc.integer({ min: 0, max: USERS - 1 });
const pick = fc.nat({ max: 50 });
const amount = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 6_000 }).map((n) => new Big(n).div(100).toFixed()) },
  { weight: 2, arbitrary: fc.constantFrom('0.00000001', '1.123456789012345678', '10', '11', '100', '200', '1000') },
);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('recharge' as const), who, amount }),
  fc.record({ op: fc.constantFrom('confirm' as const, 'confirm' as const, 'rejectDeposit' as const), pick }),
  // to: -1 an outside address; a user's number: that user's deposit address (another's: paid internally; one's own: refused).
  fc.record({ op: fc.constant('withdraw' as const), who, to: fc.integer({ min: -1, max: USERS - 1 }), amount }),
  fc.record({ op: fc.constantFrom('approve' as const, 'rejectWithdrawal' as const), pick }),
  fc.record({ op: fc.constant('transfer' as const), who, to: who, amount }),
  fc.record({ op: fc.constant('exchange' as const), who, pair: fc.nat({ max: 3 }), amount }),
  fc.record({ op: fc.constant('points' as const), who, to: who, amount }),
  fc.record({ op: fc.constant('reward' as const), who, amount }),
  fc.record({ op: fc.constant('fuel' as const), who, amount }),
  fc.record({ op: fc.constant('replay' as const), pick }),
);

/** Swap pairs tried: the three offered by default and one that is not. */
const PAIRS: [Asset, Asset][] = [
  ['USDT', 'FUEL'],
  ['USDT', 'CARD'],
  ['POINTS', 'FUEL'],
  ['FUEL', 'USDT'],
];

describe.each(BACKENDS)('wallet ledger invariants (%s)', (backend) => {
  let db: Db;
  let pglite: PGlite | undefined;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let operatorId: string;
  let run = 0;

  beforeAll(async () => {
    if (backend === 'postgres') {
      db = await openDatabase({ url: process.env.TEST_DATABASE_URL, schema });
    } else {
      pglite = await newPglite();
      db = await openDatabase({ pglite, schema });
    }
    await migrate(db, schema);
    operatorId = (
      await db
        .insertInto('users')
        .values({ email: `operator-${schema}@example.com`, nickname: 'Operator', password_hash: 'x', invite_code: `OP${schema}`.slice(0, 16), inviter_id: null, avatar: null, role: 'operator' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    if (!db) return;
    await dropSchema(db, schema);
    // Destroying the Kysely instance closes its PGlite too.
    await db.destroy();
  });

  /** Four users: 0 <- 1 <- 2 (an invitation chain) and 3 invited by 0. */
  const makeUsers = async (): Promise<{ id: string; email: string }[]> => {
    const made: { id: string; email: string }[] = [];
    const inviterOf = [null, 0, 1, 0];
    run += 1;
    for (let i = 0; i < USERS; i += 1) {
      const inviter = inviterOf[i];
      const row = await db
        .insertInto('users')
        .values({
          email: `u${i}-${run}-${schema}@example.com`,
          nickname: `User ${i}`,
          password_hash: 'x',
          invite_code: `R${run}U${i}${randomBytes(3).toString('hex')}`.toUpperCase(),
          inviter_id: inviter === null || inviter === undefined ? null : made[inviter]!.id,
          avatar: null,
        })
        .returning(['id', 'email'])
        .executeTakeFirstOrThrow();
      made.push(row);
    }
    return made;
  };

  const entryCount = async () => Number((await db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

  const checkInvariants = async (userIds: string[]) => {
    // Every asset sums to zero over all accounts, users and system.
    const sums = await db.selectFrom('ledger_accounts').select(['asset', (eb) => eb.fn.sum<string>('balance').as('total')]).groupBy('asset').execute();
    for (const row of sums) expect(new Big(row.total).eq(0), `${row.asset} sums to ${row.total}`).toBe(true);
    const accounts = await db.selectFrom('ledger_accounts').select(['id', 'key', 'user_id', 'kind', 'balance']).where('user_id', 'in', userIds).execute();
    for (const account of accounts) {
      expect(new Big(account.balance).gte(0), `${account.key} is ${account.balance}`).toBe(true);
      const entries = await db.selectFrom('ledger_entries').select(['amount', 'balance_after']).where('account_id', '=', account.id).orderBy('id').execute();
      const total = entries.reduce((sum, e) => sum.plus(e.amount), new Big(0));
      expect(total.eq(account.balance), `${account.key}: entries ${total.toFixed()} vs balance ${account.balance}`).toBe(true);
      if (entries.length > 0) expect(new Big(entries.at(-1)!.balance_after).eq(account.balance)).toBe(true);
    }
    // Held money is exactly amount + fee of the pending withdrawals.
    for (const userId of userIds) {
      const pending = await db.selectFrom('withdrawals').select(['amount', 'fee']).where('user_id', '=', userId).where('status', '=', 'pending').execute();
      const expected = pending.reduce((sum, w) => sum.plus(w.amount).plus(w.fee), new Big(0));
      const held = accounts.find((a) => a.user_id === userId && a.kind === 'held' && a.key.endsWith(':USDT:held'));
      expect(new Big(held?.balance ?? 0).eq(expected)).toBe(true);
    }
    // What left for the chain and the fees taken are exactly those of the approved outside withdrawals;
    // a withdrawal to another user's deposit address is approved at once, without fee.
    const approved = await db.selectFrom('withdrawals').select(['amount', 'fee', 'internal_user_id']).where('status', '=', 'approved').execute();
    const outside = approved.filter((w) => w.internal_user_id === null);
    for (const w of approved.filter((row) => row.internal_user_id !== null)) expect(new Big(w.fee).eq(0)).toBe(true);
    const systemBalance = async (key: string) => new Big((await db.selectFrom('ledger_accounts').select('balance').where('key', '=', key).executeTakeFirst())?.balance ?? 0);
    expect((await systemBalance('system:withdrawals:USDT')).toFixed()).toBe(outside.reduce((sum, w) => sum.plus(w.amount), new Big(0)).toFixed());
    expect((await systemBalance('system:fees:USDT')).toFixed()).toBe(outside.reduce((sum, w) => sum.plus(w.fee), new Big(0)).toFixed());
    expect(await db.selectFrom('withdrawals').select('id').where('internal_user_id', 'is not', null).where('status', '<>', 'approved').execute()).toEqual([]);
  };

  const numRuns = backend === 'postgres' ? 12 : 30;

  it(
    'keeps every asset balanced, every user balance non-negative and equal to its entries, and replays idempotently',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 5, maxLength: 30 }), async (ops) => {
          const users = await makeUsers();
          const ids = users.map((u) => u.id);
          const deps: wallet.WalletDeps = { db, addressSecret: 'property-secret' };
          // Every user has been shown their deposit address: a withdrawal to it is recognised.
          const addresses: string[] = [];
          for (const id of ids) addresses.push((await wallet.depositAddress(deps, id)).address);
          const deposits: string[] = [];
          const withdrawals: string[] = [];
          const done: { replay: () => Promise<unknown>; answer: unknown }[] = [];
          let keyNo = 0;
          const nextKey = () => `p${run}-${keyNo++}`;
          // Everyone starts with some confirmed USDT, fuel and points, so most calls have money to move.
          for (const id of ids) {
            const deposit = await wallet.recharge(deps, id, { amount: '150', idempotencyKey: nextKey() });
            await wallet.confirmDeposit(db, operatorId, deposit.id);
            await wallet.swap(deps, id, { from: 'USDT', to: 'FUEL', amount: '20', idempotencyKey: nextKey() });
            await db.transaction().execute((trx) =>
              post(trx, { kind: 'invite_reward', userId: null, moves: [{ from: system('rewards', 'POINTS'), to: user(id, 'POINTS'), amount: '40' }] }),
            );
          }

          /** Runs a call; a business refusal is a normal outcome, anything else fails the property. */
          const attempt = async <T>(call: () => Promise<T>): Promise<T | undefined> => {
            try {
              return await call();
            } catch (error) {
              if (error instanceof BusinessError) return undefined;
              throw error;
            }
          };
          /** A keyed call: remembered with its replay when it succeeds; a refusal moves nothing. */
          const keyed = async <T>(call: (key: string) => Promise<T>): Promise<T | undefined> => {
            const key = nextKey();
            const before = await entryCount();
            const answer = await attempt(() => call(key));
            if (answer === undefined) expect(await entryCount()).toBe(before);
            else done.push({ replay: () => call(key), answer });
            return answer;
          };

          for (const step of ops) {
            switch (step.op) {
              case 'recharge': {
                const deposit = await keyed((key) => wallet.recharge(deps, ids[step.who]!, { amount: step.amount, idempotencyKey: key }));
                if (deposit && !deposits.includes(deposit.id)) deposits.push(deposit.id);
                break;
              }
              case 'confirm':
              case 'rejectDeposit': {
                const id = deposits[step.pick % Math.max(1, deposits.length)];
                if (!id) break;
                await attempt(() => (step.op === 'confirm' ? wallet.confirmDeposit(db, operatorId, id) : wallet.rejectDeposit(db, operatorId, id, 'property test')));
                break;
              }
              case 'withdraw': {
                const address = step.to < 0 ? ADDRESS : addresses[step.to]!;
                const made = await keyed((key) => wallet.withdraw(deps, ids[step.who]!, { amount: step.amount, address, idempotencyKey: key }));
                if (step.to === step.who) expect(made).toBeUndefined();
                if (made && !withdrawals.includes(made.id)) withdrawals.push(made.id);
                break;
              }
              case 'approve':
              case 'rejectWithdrawal': {
                const id = withdrawals[step.pick % Math.max(1, withdrawals.length)];
                if (!id) break;
                await attempt(() => (step.op === 'approve' ? wallet.approveWithdrawal(db, operatorId, id) : wallet.rejectWithdrawal(db, operatorId, id, 'property test')));
                break;
              }
              case 'transfer':
                await keyed((key) => wallet.transfer(deps, ids[step.who]!, { to: users[step.to]!.email, amount: step.amount, idempotencyKey: key }));
                break;
              case 'exchange': {
                const [from, to] = PAIRS[step.pair]!;
                await keyed((key) => wallet.swap(deps, ids[step.who]!, { from, to, amount: step.amount, idempotencyKey: key }));
                break;
              }
              case 'points':
                await keyed((key) => wallet.pointsTransfer(deps, ids[step.who]!, { to: ids[step.to]!, amount: step.amount, idempotencyKey: key }));
                break;
              case 'reward':
                await db.transaction().execute((trx) =>
                  post(trx, { kind: 'invite_reward', userId: null, moves: [{ from: system('rewards', 'POINTS'), to: user(ids[step.who]!, 'POINTS'), amount: step.amount }] }),
                );
                break;
              case 'fuel': {
                const before = await entryCount();
                const charged = await attempt(() =>
                  db.transaction().execute((trx) =>
                    post(trx, { kind: 'fuel_charge', userId: ids[step.who]!, moves: [{ from: user(ids[step.who]!, 'FUEL'), to: system('fuel', 'FUEL'), amount: step.amount }] }),
                  ),
                );
                if (charged === undefined) expect(await entryCount()).toBe(before);
                break;
              }
              case 'replay': {
                const earlier = done[step.pick % Math.max(1, done.length)];
                if (!earlier) break;
                const before = await entryCount();
                expect(await earlier.replay()).toEqual(earlier.answer);
                expect(await entryCount()).toBe(before);
                break;
              }
            }
          }
          await checkInvariants(ids);
          // Every successful keyed request, replayed: the same answer, nothing moves.
          const before = await entryCount();
          for (const earlier of done) expect(await earlier.replay()).toEqual(earlier.answer);
          expect(await entryCount()).toBe(before);
          await checkInvariants(ids);
        }),
        { numRuns },
      );
      // The sequences did reach withdrawals to another user's deposit address (the internal path), not only outside ones.
      expect(await db.selectFrom('withdrawals').select('id').where('internal_user_id', 'is not', null).execute()).not.toEqual([]);
    },
    300_000,
  );
});
