import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/api/errors';
import { DEFAULT_SETTINGS } from '../src/settings';
import { base58CheckEncode, depositAddressFor, isTronAddress } from '../src/wallet/address';
import { post, system, user } from '../src/wallet/ledger';
import { BACKENDS, registerUser, startServer, trustAddress, type TestServer } from './harness';

/**
 * The wallet calls and the operators' deposit and withdrawal queues over
 * HTTP: every call, each refusal it can give, ownership, idempotency, and the
 * full path recharge -> confirm -> withdraw -> approve / reject with the
 * balances after each step.
 */

const PASSWORD = 'Sturdy-Passw0rd!';
/** A real TRC20 address (the USDT contract), known to be well formed. */
const ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

interface Member {
  id: string;
  email: string;
  token: string;
  inviteCode: string;
}

let seq = 0;
const key = () => `key-${Date.now().toString(36)}-${(seq++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

describe('TRC20 addresses', () => {
  it('encodes and checks Base58Check like TRON does', () => {
    const bytes = Buffer.from('41a614f803b6fd780986a42c78ec9c7f77e6ded13c', 'hex');
    expect(base58CheckEncode(bytes)).toBe(ADDRESS);
    expect(isTronAddress(ADDRESS)).toBe(true);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false); // checksum
    expect(isTronAddress('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe(false);
    expect(isTronAddress(`${ADDRESS} `)).toBe(false);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6')).toBe(false);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj0t')).toBe(false); // 0 is not Base58
  });

  it('derives one stable, valid address per user and secret', () => {
    const a = depositAddressFor('secret-one', '6f1c0c1e-0000-4000-8000-000000000001');
    expect(a).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(isTronAddress(a)).toBe(true);
    expect(depositAddressFor('secret-one', '6f1c0c1e-0000-4000-8000-000000000001')).toBe(a);
    expect(depositAddressFor('secret-two', '6f1c0c1e-0000-4000-8000-000000000001')).not.toBe(a);
    expect(depositAddressFor('secret-one', '6f1c0c1e-0000-4000-8000-000000000002')).not.toBe(a);
  });
});

describe.each(BACKENDS)('wallet (%s)', (backend) => {
  let server: TestServer;
  let operator: Member;

  const join = async (label: string, inviteCode?: string): Promise<Member> => {
    // Code sends are limited per IP; these tests sign up many users within a minute.
    await server.db.deleteFrom('throttle_counters').execute();
    const email = `${label}-${seq++}@example.com`;
    const answer = await registerUser(server, { email, password: PASSWORD, ...(inviteCode ? { inviteCode } : {}) });
    return { id: answer.user.id, email, token: answer.accessToken, inviteCode: answer.user.inviteCode };
  };

  const call = (who: Member, method: string, path: string, body?: unknown) => server.call(method, path, body, { token: who.token });

  const balancesOf = async (who: Member) => {
    const answer = await call(who, 'GET', '/api/wallet/balances');
    expect(answer.body.code).toBe(0);
    return Object.fromEntries(
      (answer.body.data.balances as { asset: string; available: string; held: string }[]).map((b) => [b.asset, { available: b.available, held: b.held }]),
    ) as Record<'USDT' | 'CARD' | 'POINTS' | 'FUEL', { available: string; held: string }>;
  };
  const usdt = async (who: Member) => (await balancesOf(who)).USDT;

  const recharge = (who: Member, amount: string, extra: Record<string, unknown> = {}) =>
    call(who, 'POST', '/api/wallet/recharge', { amount, idempotencyKey: key(), ...extra });

  /** Recharge and confirm: the user's available USDT goes up by `amount`. */
  const fund = async (who: Member, amount: string) => {
    const deposit = await recharge(who, amount);
    expect(deposit.body.code).toBe(0);
    const confirmed = await call(operator, 'PUT', `/api/admin/deposits/${deposit.body.data.id}`, { status: 'confirmed' });
    expect(confirmed.body.code).toBe(0);
  };

  /** A withdrawal to an address of the user's book, usable already (the 24-hour rule has its own tests: withdrawalAddresses.test.ts). */
  const withdraw = async (who: Member, amount: string, extra: Record<string, unknown> = {}) => {
    const address = (extra['address'] as string | undefined) ?? ADDRESS;
    if (typeof address === 'string' && address.startsWith('T')) await trustAddress(server, who.id, address);
    return call(who, 'POST', '/api/wallet/withdraw', { amount, address: ADDRESS, password: PASSWORD, idempotencyKey: key(), ...extra });
  };

  const grantPoints = async (who: Member, amount: string) =>
    server.db.transaction().execute((trx) =>
      post(trx, { kind: 'invite_reward', userId: null, moves: [{ from: system('rewards', 'POINTS'), to: user(who.id, 'POINTS'), amount }] }),
    );

  /** Every money-holding number in the database: nothing may change across a refused call. */
  const snapshot = async () => ({
    accounts: await server.db.selectFrom('ledger_accounts').select(['key', 'balance']).orderBy('key').execute(),
    entries: Number((await server.db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n),
    deposits: await server.db.selectFrom('deposits').select(['id', 'status']).orderBy('id').execute(),
    withdrawals: await server.db.selectFrom('withdrawals').select(['id', 'status']).orderBy('id').execute(),
    audit: Number((await server.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n),
  });

  beforeAll(async () => {
    server = await startServer(backend);
    operator = await join('operator');
    await server.db.updateTable('users').set({ role: 'operator' }).where('id', '=', operator.id).execute();
  });
  afterAll(async () => server?.close());

  it('shows zero balances of all four assets, the configured rules and a stable deposit address', async () => {
    const alice = await join('alice');
    expect(await balancesOf(alice)).toEqual({
      USDT: { available: '0', held: '0' },
      CARD: { available: '0', held: '0' },
      POINTS: { available: '0', held: '0' },
      FUEL: { available: '0', held: '0' },
    });
    const config = await call(alice, 'GET', '/api/wallet/config');
    expect(config.body).toMatchObject({
      code: 0,
      data: {
        depositNetwork: 'TRC20',
        withdrawFee: DEFAULT_SETTINGS.withdrawFee,
        withdrawMin: DEFAULT_SETTINGS.withdrawMin,
        transferMin: DEFAULT_SETTINGS.transferMin,
        swapRates: DEFAULT_SETTINGS.swapRates,
      },
    });
    const address = await call(alice, 'GET', '/api/wallet/deposit-address');
    expect(address.body.code).toBe(0);
    expect(address.body.data).toEqual({ asset: 'USDT', network: 'TRC20', address: depositAddressFor(server.config.tokenSecret, alice.id) });
    expect(isTronAddress(address.body.data.address)).toBe(true);
    expect((await call(alice, 'GET', '/api/wallet/deposit-address')).body.data.address).toBe(address.body.data.address);
    const bob = await join('bob');
    expect((await call(bob, 'GET', '/api/wallet/deposit-address')).body.data.address).not.toBe(address.body.data.address);
    expect((await server.call('GET', '/api/wallet/balances')).status).toBe(401);
    const doc = (await (await fetch(`${server.base}/api/openapi.json`)).json()) as { paths: Record<string, object> };
    for (const path of ['/api/wallet/balances', '/api/wallet/withdraw', '/api/wallet/records', '/api/admin/deposits/{id}', '/api/admin/withdrawals']) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });

  it('stops guessing the password through withdraw: 5 wrong tries in 15 minutes, then 10009', async () => {
    const alice = await join('alice');
    await fund(alice, '50');
    for (let i = 0; i < 5; i += 1) expect((await withdraw(alice, '10', { password: `Wrong-Passw0rd-${i}` })).body.code).toBe(ErrorCode.PASSWORD_ERROR);
    const blocked = await withdraw(alice, '10');
    expect(blocked.body).toMatchObject({ code: ErrorCode.TOO_MANY_REQUESTS, data: { retryAfter: expect.any(Number) } });
    expect(await usdt(alice)).toEqual({ available: '50', held: '0' });
  });

  it("refuses an operator's decision on their own deposit or withdrawal (11005) and changes nothing", async () => {
    const deposit = await recharge(operator, '30');
    for (const body of [{ status: 'confirmed' }, { status: 'rejected', reason: 'mine' }]) {
      expect((await call(operator, 'PUT', `/api/admin/deposits/${deposit.body.data.id}`, body)).body).toMatchObject({ code: ErrorCode.UNAUTHORIZED, data: { reason: 'own_money' } });
    }
    expect(await usdt(operator)).toEqual({ available: '0', held: '0' });
    expect((await call(operator, 'GET', '/api/wallet/deposits')).body.data.list[0]).toMatchObject({ id: deposit.body.data.id, status: 'pending' });
    // Another operator's decision stands.
    const second = await join('second-operator');
    await server.db.updateTable('users').set({ role: 'operator' }).where('id', '=', second.id).execute();
    expect((await call(second, 'PUT', `/api/admin/deposits/${deposit.body.data.id}`, { status: 'confirmed' })).body.code).toBe(0);
    const out = await withdraw(operator, '10');
    expect(out.body.code).toBe(0);
    expect((await call(operator, 'PUT', `/api/admin/withdrawals/${out.body.data.id}`, { status: 'approved' })).body).toMatchObject({ code: ErrorCode.UNAUTHORIZED, data: { reason: 'own_money' } });
    expect(await usdt(operator)).toEqual({ available: '19', held: '11' });
  });

  it('walks recharge -> confirm -> withdraw -> approve, and withdraw -> reject, with the balances after each step', async () => {
    const alice = await join('alice');
    const hash = 'ab'.repeat(32);
    const deposit = await recharge(alice, '100.5', { txHash: `0x${hash}` });
    expect(deposit.body).toMatchObject({
      code: 0,
      data: { asset: 'USDT', amount: '100.5', status: 'pending', txHash: hash, reason: null, decidedAt: null, address: depositAddressFor(server.config.tokenSecret, alice.id) },
    });
    // Nothing moves until an operator confirms.
    expect(await usdt(alice)).toEqual({ available: '0', held: '0' });
    expect((await call(alice, 'GET', '/api/wallet/deposits')).body.data).toMatchObject({ total: 1, list: [{ id: deposit.body.data.id, status: 'pending' }] });
    // The same chain transaction cannot be reported twice.
    expect((await recharge(alice, '100.5', { txHash: hash })).body.code).toBe(ErrorCode.ALREADY_EXISTS);

    const confirmed = await call(operator, 'PUT', `/api/admin/deposits/${deposit.body.data.id}`, { status: 'confirmed' });
    expect(confirmed.body).toMatchObject({ code: 0, data: { id: deposit.body.data.id, status: 'confirmed', userId: alice.id, userEmail: alice.email } });
    expect(confirmed.body.data.decidedAt).toEqual(expect.any(String));
    expect(await usdt(alice)).toEqual({ available: '100.5', held: '0' });
    // A second decision is refused and credits nothing.
    expect((await call(operator, 'PUT', `/api/admin/deposits/${deposit.body.data.id}`, { status: 'confirmed' })).body.code).toBe(ErrorCode.INVALID);
    expect((await call(operator, 'PUT', `/api/admin/deposits/${deposit.body.data.id}`, { status: 'rejected', reason: 'late' })).body.code).toBe(ErrorCode.INVALID);
    expect(await usdt(alice)).toEqual({ available: '100.5', held: '0' });

    const first = await withdraw(alice, '50');
    expect(first.body).toMatchObject({ code: 0, data: { asset: 'USDT', amount: '50', fee: '1', address: ADDRESS, status: 'pending' } });
    expect(await usdt(alice)).toEqual({ available: '49.5', held: '51' });
    const approved = await call(operator, 'PUT', `/api/admin/withdrawals/${first.body.data.id}`, { status: 'approved', txHash: 'cd'.repeat(32) });
    expect(approved.body).toMatchObject({ code: 0, data: { status: 'approved', txHash: 'cd'.repeat(32), userEmail: alice.email } });
    expect(await usdt(alice)).toEqual({ available: '49.5', held: '0' });
    expect((await call(operator, 'PUT', `/api/admin/withdrawals/${first.body.data.id}`, { status: 'rejected', reason: 'x' })).body.code).toBe(ErrorCode.INVALID);

    const second = await withdraw(alice, '20');
    expect(await usdt(alice)).toEqual({ available: '28.5', held: '21' });
    const rejected = await call(operator, 'PUT', `/api/admin/withdrawals/${second.body.data.id}`, { status: 'rejected', reason: 'address on a sanctions list' });
    expect(rejected.body).toMatchObject({ code: 0, data: { status: 'rejected', reason: 'address on a sanctions list' } });
    expect(await usdt(alice)).toEqual({ available: '49.5', held: '0' });
    expect((await call(operator, 'PUT', `/api/admin/withdrawals/${second.body.data.id}`, { status: 'approved' })).body.code).toBe(ErrorCode.INVALID);
    expect(await usdt(alice)).toEqual({ available: '49.5', held: '0' });

    const withdrawals = await call(alice, 'GET', '/api/wallet/withdrawals');
    expect(withdrawals.body.data.total).toBe(2);
    expect(withdrawals.body.data.list.map((w: { id: string; status: string }) => [w.id, w.status])).toEqual([
      [second.body.data.id, 'rejected'],
      [first.body.data.id, 'approved'],
    ]);

    // The money went to the system accounts: paid out 50, fee 1; everything sums to zero.
    const system = Object.fromEntries(
      (await server.db.selectFrom('ledger_accounts').select(['key', 'balance']).where('key', 'like', 'system:%:USDT').execute()).map((r) => [r.key, Number(r.balance)]),
    );
    expect(system['system:withdrawals:USDT']).toBeGreaterThanOrEqual(50);
    expect(system['system:fees:USDT']).toBeGreaterThanOrEqual(1);

    const recordsPage = await call(alice, 'GET', '/api/wallet/records?asset=USDT');
    expect(recordsPage.body.data.list.map((r: { kind: string; amount: string; balanceAfter: string }) => [r.kind, r.amount, r.balanceAfter])).toEqual([
      ['withdraw_reject', '21', '49.5'],
      ['withdraw_hold', '-21', '28.5'],
      ['withdraw_hold', '-51', '49.5'],
      ['recharge', '100.5', '100.5'],
    ]);
    expect(recordsPage.body.data.list[3].detail).toEqual({ depositId: deposit.body.data.id, txHash: hash });
    expect(recordsPage.body.data.list[0].detail).toEqual({ withdrawalId: second.body.data.id });

    const audit = await server.db.selectFrom('audit_log').select(['action', 'target_id', 'operator_id']).where('target_id', 'in', [deposit.body.data.id, first.body.data.id, second.body.data.id]).orderBy('id').execute();
    expect(audit).toEqual([
      { action: 'deposit.confirm', target_id: deposit.body.data.id, operator_id: operator.id },
      { action: 'withdrawal.approve', target_id: first.body.data.id, operator_id: operator.id },
      { action: 'withdrawal.reject', target_id: second.body.data.id, operator_id: operator.id },
    ]);
  });

  it('rejects a deposit with a reason and credits nothing', async () => {
    const alice = await join('alice');
    const deposit = await recharge(alice, '5');
    const rejected = await call(operator, 'PUT', `/api/admin/deposits/${deposit.body.data.id}`, { status: 'rejected', reason: 'no such transfer' });
    expect(rejected.body).toMatchObject({ code: 0, data: { status: 'rejected', reason: 'no such transfer' } });
    expect(await usdt(alice)).toEqual({ available: '0', held: '0' });
    expect((await call(operator, 'PUT', `/api/admin/deposits/${deposit.body.data.id}`, { status: 'confirmed' })).body.code).toBe(ErrorCode.INVALID);
    expect(await usdt(alice)).toEqual({ available: '0', held: '0' });
    expect((await call(operator, 'PUT', `/api/admin/deposits/${deposit.body.data.id}`, { status: 'rejected', reason: '   ' })).body.code).toBe(ErrorCode.PARAM_FORMAT);
    expect((await call(operator, 'PUT', '/api/admin/deposits/00000000-0000-4000-8000-000000000000', { status: 'confirmed' })).body.code).toBe(ErrorCode.PARAM_NOT_EXIST);
    expect((await call(operator, 'PUT', '/api/admin/deposits/nope', { status: 'confirmed' })).body.code).toBe(ErrorCode.PARAM_NOT_EXIST);
    // A decision is confirmed or rejected (with its reason), nothing else.
    const refusals: [unknown, number][] = [
      [{ status: 'rejected' }, ErrorCode.PARAM_REQUIRED],
      [{ status: 'pending' }, ErrorCode.INVALID],
      [{ status: 'confirmed', reason: 'why' }, ErrorCode.INVALID],
      [{ status: 'confirmed', amount: '1000' }, ErrorCode.INVALID],
      [{}, ErrorCode.PARAM_REQUIRED],
    ];
    for (const [body, code] of refusals) expect((await call(operator, 'PUT', `/api/admin/deposits/${deposit.body.data.id}`, body)).body.code, JSON.stringify(body)).toBe(code);
  });

  it('refuses malformed amounts with a clear code and changes nothing', async () => {
    const alice = await join('alice');
    await fund(alice, '100');
    const before = await snapshot();
    for (const [amount, code] of [
      ['1e5', ErrorCode.PARAM_FORMAT],
      ['-1', ErrorCode.PARAM_FORMAT],
      [' 1', ErrorCode.PARAM_FORMAT],
      ['1 ', ErrorCode.PARAM_FORMAT],
      ['01', ErrorCode.PARAM_FORMAT],
      ['1.', ErrorCode.PARAM_FORMAT],
      ['.5', ErrorCode.PARAM_FORMAT],
      ['0x10', ErrorCode.PARAM_FORMAT],
      [`1.${'1'.repeat(19)}`, ErrorCode.PARAM_FORMAT],
      ['0', ErrorCode.PARAM_RANGE],
      ['0.000', ErrorCode.PARAM_RANGE],
      [10, ErrorCode.PARAM_TYPE],
    ] as const) {
      expect((await recharge(alice, amount as string)).body.code, `recharge ${amount}`).toBe(code);
      expect((await withdraw(alice, amount as string)).body.code, `withdraw ${amount}`).toBe(code);
      expect((await call(alice, 'POST', '/api/wallet/transfer', { to: operator.email, amount, password: PASSWORD, idempotencyKey: key() })).body.code, `transfer ${amount}`).toBe(code);
      expect((await call(alice, 'POST', '/api/wallet/exchange', { from: 'USDT', to: 'FUEL', amount, idempotencyKey: key() })).body.code, `exchange ${amount}`).toBe(code);
    }
    // 18 places are accepted.
    expect((await recharge(alice, `1.${'0'.repeat(17)}1`)).body).toMatchObject({ code: 0, data: { amount: `1.${'0'.repeat(17)}1` } });
    expect((await recharge(alice, '1', { idempotencyKey: 'short' })).body.code).toBe(ErrorCode.PARAM_FORMAT);
    expect((await recharge(alice, '1', { extra: true })).body.code).toBe(ErrorCode.INVALID);
    expect((await call(alice, 'POST', '/api/wallet/recharge', { amount: '1' })).body.code).toBe(ErrorCode.PARAM_REQUIRED);
    const after = await snapshot();
    expect(after.accounts).toEqual(before.accounts);
    expect(after.entries).toBe(before.entries);
    expect(after.withdrawals).toEqual(before.withdrawals);
  });

  it('withdraw: 11002 wrong password, 10002 under the minimum, 10003 bad address, 11003 not covered; nothing moves', async () => {
    const alice = await join('alice');
    await fund(alice, '30');
    const before = await snapshot();
    expect((await withdraw(alice, '20', { password: 'Wrong-Passw0rd!' })).body.code).toBe(ErrorCode.PASSWORD_ERROR);
    const low = await withdraw(alice, '9.99');
    expect(low.body).toMatchObject({ code: ErrorCode.PARAM_RANGE, data: { field: 'amount', min: '10' } });
    for (const address of ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c', 'T123']) {
      expect((await withdraw(alice, '20', { address })).body).toMatchObject({ code: ErrorCode.PARAM_FORMAT, data: { field: 'address' } });
    }
    // 30 available: 30 + fee 1 is not covered, 29 + 1 is.
    expect((await withdraw(alice, '30')).body).toMatchObject({ code: ErrorCode.INSUFFICIENT_BALANCE, data: { asset: 'USDT' } });
    expect((await withdraw(alice, '29.5')).body.code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    const after = await snapshot();
    expect(after.accounts).toEqual(before.accounts);
    expect(after.withdrawals).toEqual(before.withdrawals);
    expect((await withdraw(alice, '29')).body.code).toBe(0);
    expect(await usdt(alice)).toEqual({ available: '0', held: '30' });
    // A request without a valid signature is refused before anything happens.
    const unsigned = await server.call(
      'POST',
      '/api/wallet/withdraw',
      { amount: '10', address: ADDRESS, password: PASSWORD, idempotencyKey: key(), uuid: 'a'.repeat(32), timestamp: Math.floor(Date.now() / 1000), sign: 'b'.repeat(64) },
      { token: alice.token, sign: false },
    );
    expect(unsigned.body.code).toBe(ErrorCode.INVALID);
  });

  it('replays a request with the same idempotency key without moving money again, and refuses the key for another request (10007)', async () => {
    const alice = await join('alice');
    const bob = await join('bob');
    await fund(alice, '100');
    const same = key();
    const first = await call(alice, 'POST', '/api/wallet/transfer', { to: bob.email, amount: '10', password: PASSWORD, idempotencyKey: same });
    expect(first.body.code).toBe(0);
    const before = await snapshot();
    const again = await call(alice, 'POST', '/api/wallet/transfer', { to: bob.email, amount: '10', password: PASSWORD, idempotencyKey: same });
    expect(again.body).toEqual(first.body);
    expect(await snapshot()).toEqual(before);
    expect((await call(alice, 'POST', '/api/wallet/transfer', { to: bob.email, amount: '11', password: PASSWORD, idempotencyKey: same })).body).toMatchObject({
      code: ErrorCode.ALREADY_EXISTS,
      data: { field: 'idempotencyKey' },
    });
    await trustAddress(server, alice.id, ADDRESS);
    expect((await call(alice, 'POST', '/api/wallet/withdraw', { amount: '10', address: ADDRESS, password: PASSWORD, idempotencyKey: same })).body.code).toBe(
      ErrorCode.ALREADY_EXISTS,
    );
    expect(await snapshot()).toEqual(before);
    expect(await usdt(alice)).toEqual({ available: '90', held: '0' });
    expect(await usdt(bob)).toEqual({ available: '10', held: '0' });

    // Withdraw and recharge replays too; a replayed withdrawal still needs the right password.
    const wkey = key();
    const w1 = await withdraw(alice, '10', { idempotencyKey: wkey });
    const w2 = await withdraw(alice, '10', { idempotencyKey: wkey });
    expect(w2.body).toEqual(w1.body);
    expect((await withdraw(alice, '10', { idempotencyKey: wkey, password: 'Wrong-Passw0rd!' })).body.code).toBe(ErrorCode.PASSWORD_ERROR);
    expect(await usdt(alice)).toEqual({ available: '79', held: '11' });
    const rkey = key();
    const r1 = await recharge(alice, '5', { idempotencyKey: rkey });
    expect((await recharge(alice, '5', { idempotencyKey: rkey })).body).toEqual(r1.body);
    expect((await call(alice, 'GET', '/api/wallet/deposits')).body.data.total).toBe(2);
    // Keys are per user: bob may use alice's key.
    expect((await recharge(bob, '5', { idempotencyKey: rkey })).body.data.id).not.toBe(r1.body.data.id);
    // A refused call stores nothing: the key can be used again once it would succeed.
    const fresh = key();
    expect((await call(bob, 'POST', '/api/wallet/transfer', { to: alice.email, amount: '50', password: PASSWORD, idempotencyKey: fresh })).body.code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    expect((await call(bob, 'POST', '/api/wallet/transfer', { to: alice.email, amount: '5', password: PASSWORD, idempotencyKey: fresh })).body.code).toBe(0);
  });

  it('transfer: by email or id; 11000 unknown or disabled, 10008 to oneself, 10002 under the minimum, 11003 not covered', async () => {
    const alice = await join('alice');
    const bob = await join('bob');
    const closed = await join('closed');
    await server.db.updateTable('users').set({ disabled: true }).where('id', '=', closed.id).execute();
    await fund(alice, '20');
    const before = await snapshot();
    const transfer = (to: string, amount: string) => call(alice, 'POST', '/api/wallet/transfer', { to, amount, password: PASSWORD, idempotencyKey: key() });
    expect((await transfer('nobody@example.com', '5')).body.code).toBe(ErrorCode.USER_NOT_EXIST);
    expect((await transfer('00000000-0000-4000-8000-000000000000', '5')).body.code).toBe(ErrorCode.USER_NOT_EXIST);
    // A disabled account cannot sign in to use what it is sent: it is refused like an unknown one.
    expect((await transfer(closed.email, '5')).body).toMatchObject({ code: ErrorCode.USER_NOT_EXIST, data: { field: 'to' } });
    expect((await transfer(closed.id, '5')).body.code).toBe(ErrorCode.USER_NOT_EXIST);
    expect((await transfer(alice.email, '5')).body.code).toBe(ErrorCode.INVALID);
    expect((await transfer(alice.id, '5')).body.code).toBe(ErrorCode.INVALID);
    expect((await transfer(bob.email, '0.5')).body).toMatchObject({ code: ErrorCode.PARAM_RANGE, data: { field: 'amount', min: '1' } });
    expect((await transfer(bob.email, '20.01')).body.code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    expect(await snapshot()).toEqual(before);

    const sent = await transfer(bob.email.toUpperCase(), '12.5');
    expect(sent.body).toMatchObject({ code: 0, data: { asset: 'USDT', kind: 'transfer_out', amount: '-12.5', balanceAfter: '7.5' } });
    expect(sent.body.data.detail.counterparty).toMatch(/^bo\*\*\*@example\.com$/);
    expect(JSON.stringify(sent.body.data)).not.toContain(bob.id);
    expect((await transfer(bob.id, '7.5')).body.code).toBe(0);
    expect(await usdt(alice)).toEqual({ available: '0', held: '0' });
    expect(await usdt(bob)).toEqual({ available: '20', held: '0' });

    const bobRecords = await call(bob, 'GET', '/api/wallet/records?asset=USDT');
    expect(bobRecords.body.data.list.map((r: { kind: string; amount: string }) => [r.kind, r.amount])).toEqual([
      ['transfer_in', '7.5'],
      ['transfer_in', '12.5'],
    ]);
    expect(bobRecords.body.data.list[0].detail.counterparty).toMatch(/^al\*\*\*@example\.com$/);
    const inOnly = await call(alice, 'GET', '/api/wallet/records?asset=USDT&kind=transfer_out');
    expect(inOnly.body.data.total).toBe(2);
    expect((await call(alice, 'GET', '/api/wallet/records?asset=USDT&kind=transfer_in')).body.data.total).toBe(0);
    expect((await call(bob, 'GET', '/api/wallet/records?asset=USDT&kind=transfer_in')).body.data.total).toBe(2);
  });

  it('transfer and points transfer are confirmed by the login password (11002, nothing moves); wrong ones count with withdraw toward 10009', async () => {
    const top = await join('top');
    const down = await join('down', top.inviteCode);
    await fund(top, '50');
    await grantPoints(top, '10');
    const before = await snapshot();
    const transfer = (password: string | undefined) =>
      call(top, 'POST', '/api/wallet/transfer', { to: down.email, amount: '5', ...(password === undefined ? {} : { password }), idempotencyKey: key() });
    const points = (password: string) => call(top, 'POST', '/api/wallet/points-transfer', { to: down.email, amount: '5', password, idempotencyKey: key() });
    expect((await transfer(undefined)).body).toMatchObject({ code: ErrorCode.PARAM_REQUIRED, data: { field: 'password' } });
    expect((await transfer('')).body.code).toBe(ErrorCode.PARAM_LENGTH);
    expect((await transfer('Wrong-Passw0rd-1')).body).toMatchObject({ code: ErrorCode.PASSWORD_ERROR, data: { field: 'password' } });
    expect((await points('Wrong-Passw0rd-2')).body).toMatchObject({ code: ErrorCode.PASSWORD_ERROR, data: { field: 'password' } });
    expect(await snapshot()).toEqual(before);
    expect((await transfer(PASSWORD)).body.code).toBe(0);
    expect((await points(PASSWORD)).body.code).toBe(0);
    expect((await balancesOf(down)).USDT.available).toBe('5');
    expect((await balancesOf(down)).POINTS.available).toBe('5');
    // One budget of wrong passwords for every call that moves money out: 2 spent above, 3 more, then 10009.
    expect((await withdraw(top, '10', { password: 'Wrong-Passw0rd-3' })).body.code).toBe(ErrorCode.PASSWORD_ERROR);
    expect((await transfer('Wrong-Passw0rd-4')).body.code).toBe(ErrorCode.PASSWORD_ERROR);
    expect((await points('Wrong-Passw0rd-5')).body.code).toBe(ErrorCode.PASSWORD_ERROR);
    expect((await transfer(PASSWORD)).body).toMatchObject({ code: ErrorCode.TOO_MANY_REQUESTS, data: { retryAfter: expect.any(Number) } });
    expect((await points(PASSWORD)).body.code).toBe(ErrorCode.TOO_MANY_REQUESTS);
  });

  it("withdraw to one's own deposit address is refused (10008 own_address); to another user's it is booked to them at once, without fee or chain", async () => {
    const alice = await join('alice');
    const bob = await join('bob');
    await fund(alice, '100');
    const own = (await call(alice, 'GET', '/api/wallet/deposit-address')).body.data.address as string;
    const before = await snapshot();
    expect((await withdraw(alice, '20', { address: own })).body).toMatchObject({ code: ErrorCode.INVALID, data: { field: 'address', reason: 'own_address' } });
    expect(await snapshot()).toEqual(before);

    // Bob's address as he was shown it.
    const bobs = (await call(bob, 'GET', '/api/wallet/deposit-address')).body.data.address as string;
    const systemBefore = await server.db.selectFrom('ledger_accounts').select(['key', 'balance']).where('kind', '=', 'system').orderBy('key').execute();
    // More than the available balance less the fee would be refused on chain; internally there is no fee.
    const paid = await withdraw(alice, '100', { address: bobs });
    expect(paid.body).toMatchObject({ code: 0, data: { amount: '100', fee: '0', address: bobs, status: 'approved', internal: true } });
    expect(paid.body.data.decidedAt).not.toBeNull();
    expect(await usdt(alice)).toEqual({ available: '0', held: '0' });
    expect(await usdt(bob)).toEqual({ available: '100', held: '0' });
    // No system account moved: nothing left for the chain, no fee taken.
    expect(await server.db.selectFrom('ledger_accounts').select(['key', 'balance']).where('kind', '=', 'system').orderBy('key').execute()).toEqual(systemBefore);
    expect((await call(alice, 'GET', '/api/wallet/withdrawals')).body.data.list[0]).toMatchObject({ id: paid.body.data.id, internal: true, status: 'approved' });
    const aliceRecord = (await call(alice, 'GET', '/api/wallet/records?asset=USDT&kind=transfer_out')).body.data.list[0];
    expect(aliceRecord).toMatchObject({ kind: 'transfer_out', amount: '-100', balanceAfter: '0', detail: { address: bobs } });
    expect(aliceRecord.detail.counterparty).toMatch(/^bo\*\*\*@example\.com$/);
    const bobRecord = (await call(bob, 'GET', '/api/wallet/records?asset=USDT')).body.data.list[0];
    expect(bobRecord).toMatchObject({ kind: 'transfer_in', amount: '100', balanceAfter: '100', detail: { address: bobs } });
    // Operators see it as decided, never in the queue of pending withdrawals.
    const queue = await call(operator, 'GET', '/api/admin/withdrawals?filter=%7B%22status%22%3A%22pending%22%7D');
    expect(JSON.stringify(queue.body.data)).not.toContain(paid.body.data.id);
    expect((await call(operator, 'PUT', `/api/admin/withdrawals/${paid.body.data.id}`, { status: 'rejected', reason: 'no' })).body.code).toBe(ErrorCode.INVALID);
    expect(await usdt(bob)).toEqual({ available: '100', held: '0' });

    // An address recorded by a reported deposit is known too; Bob's own withdrawal to it is refused.
    const carol = await join('carol');
    expect((await recharge(carol, '5')).body.code).toBe(0);
    const carols = depositAddressFor(server.config.tokenSecret, carol.id);
    expect((await withdraw(bob, '10', { address: carols })).body.data).toMatchObject({ internal: true, fee: '0' });
    expect(await usdt(carol)).toEqual({ available: '10', held: '0' });
    expect((await withdraw(carol, '10', { address: carols })).body.data).toMatchObject({ reason: 'own_address' });
    // Under the minimum stays refused, internal or not.
    expect((await withdraw(bob, '9', { address: carols })).body.code).toBe(ErrorCode.PARAM_RANGE);
  });

  it('exchange: at the configured rate, rounded down, whole cards only; 20001 for a pair not offered; 11003 not covered', async () => {
    const alice = await join('alice');
    await fund(alice, '500');
    const before = await snapshot();
    const exchange = (from: string, to: string, amount: string) => call(alice, 'POST', '/api/wallet/exchange', { from, to, amount, idempotencyKey: key() });
    expect((await exchange('FUEL', 'USDT', '1')).body).toMatchObject({ code: ErrorCode.NOT_SUPPORTED, data: { from: 'FUEL', to: 'USDT' } });
    expect((await exchange('USDT', 'USDT', '1')).body.code).toBe(ErrorCode.NOT_SUPPORTED);
    expect((await exchange('USDT', 'BTC', '1')).body.code).toBe(ErrorCode.INVALID);
    // 0.01 card per USDT: 150 USDT would be 1.5 cards.
    expect((await exchange('USDT', 'CARD', '150')).body).toMatchObject({ code: ErrorCode.PARAM_RANGE, data: { field: 'amount', step: '100' } });
    expect((await exchange('USDT', 'CARD', '600')).body.code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    expect((await exchange('POINTS', 'FUEL', '1')).body.code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    expect(await snapshot()).toEqual(before);

    const cards = await exchange('USDT', 'CARD', '200');
    expect(cards.body).toMatchObject({ code: 0, data: { asset: 'USDT', kind: 'swap_out', amount: '-200', balanceAfter: '300' } });
    expect(cards.body.data.detail).toMatchObject({ from: 'USDT', to: 'CARD', rate: '0.01', paid: '200', received: '2' });
    expect((await exchange('USDT', 'FUEL', '0.123456789')).body.code).toBe(0);
    expect(await balancesOf(alice)).toMatchObject({ USDT: { available: '299.876543211' }, CARD: { available: '2' }, FUEL: { available: '0.12345678' } });
    await grantPoints(alice, '3');
    expect((await exchange('POINTS', 'FUEL', '0.00000001')).body.code).toBe(ErrorCode.PARAM_RANGE);
    expect((await exchange('POINTS', 'FUEL', '3')).body.data).toMatchObject({ asset: 'POINTS', amount: '-3', balanceAfter: '0' });
    expect((await balancesOf(alice)).FUEL.available).toBe('1.62345678');
    const cardRecords = await call(alice, 'GET', '/api/wallet/records?asset=CARD');
    expect(cardRecords.body.data.list).toMatchObject([{ kind: 'swap_in', amount: '2', balanceAfter: '2', detail: { from: 'USDT', to: 'CARD' } }]);
  });

  it('points transfer: only down the invitation tree (16000), never to oneself (16001); 11000 unknown; 11003 not covered', async () => {
    const top = await join('top');
    const middle = await join('middle', top.inviteCode);
    const bottom = await join('bottom', middle.inviteCode);
    const sibling = await join('sibling', top.inviteCode);
    const stranger = await join('stranger');
    const closed = await join('closed', top.inviteCode);
    await server.db.updateTable('users').set({ disabled: true }).where('id', '=', closed.id).execute();
    await grantPoints(top, '100');
    await grantPoints(middle, '10');
    const send = (from: Member, to: string, amount: string) => call(from, 'POST', '/api/wallet/points-transfer', { to, amount, password: PASSWORD, idempotencyKey: key() });
    const before = await snapshot();
    expect((await send(top, 'nobody@example.com', '1')).body.code).toBe(ErrorCode.USER_NOT_EXIST);
    expect((await send(top, closed.email, '1')).body.code).toBe(ErrorCode.USER_NOT_EXIST);
    expect((await send(top, top.email, '1')).body.code).toBe(ErrorCode.POINTS_SELF_TRANSFER);
    expect((await send(top, top.id, '1')).body.code).toBe(ErrorCode.POINTS_SELF_TRANSFER);
    expect((await send(middle, top.email, '1')).body.code).toBe(ErrorCode.POINTS_SUBORDINATE_ONLY);
    expect((await send(bottom, middle.email, '1')).body.code).toBe(ErrorCode.POINTS_SUBORDINATE_ONLY);
    expect((await send(middle, sibling.email, '1')).body.code).toBe(ErrorCode.POINTS_SUBORDINATE_ONLY);
    expect((await send(top, stranger.email, '1')).body.code).toBe(ErrorCode.POINTS_SUBORDINATE_ONLY);
    expect((await send(middle, bottom.email, '10.5')).body.code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    expect(await snapshot()).toEqual(before);

    const direct = await send(top, middle.email, '30');
    expect(direct.body).toMatchObject({ code: 0, data: { asset: 'POINTS', kind: 'points_out', amount: '-30', balanceAfter: '70' } });
    expect((await send(top, bottom.id, '20')).body.code).toBe(0); // two levels down
    expect((await send(middle, bottom.email, '40')).body.code).toBe(0);
    expect((await balancesOf(top)).POINTS.available).toBe('50');
    expect((await balancesOf(middle)).POINTS.available).toBe('0');
    expect((await balancesOf(bottom)).POINTS.available).toBe('60');
    const records = await call(bottom, 'GET', '/api/wallet/records?asset=POINTS&kind=points_in');
    expect(records.body.data.list.map((r: { amount: string; detail: { counterparty: string } }) => [r.amount, r.detail.counterparty.slice(0, 2)])).toEqual([
      ['40', 'mi'],
      ['20', 'to'],
    ]);
  });

  it('shows every user only their own deposits, withdrawals and records', async () => {
    const alice = await join('alice');
    const mallory = await join('mallory');
    await fund(alice, '50');
    await withdraw(alice, '10');
    expect((await call(mallory, 'GET', '/api/wallet/deposits')).body.data).toEqual({ list: [], total: 0 });
    expect((await call(mallory, 'GET', '/api/wallet/withdrawals')).body.data).toEqual({ list: [], total: 0 });
    expect((await call(mallory, 'GET', '/api/wallet/records?asset=USDT')).body.data).toEqual({ list: [], total: 0 });
    expect((await call(alice, 'GET', '/api/wallet/deposits')).body.data.total).toBe(1);
    expect((await call(alice, 'GET', '/api/wallet/records?asset=USDT')).body.data.total).toBe(2);
  });

  it('pages and filters records by kind and local date', async () => {
    const alice = await join('alice');
    for (let i = 1; i <= 3; i += 1) await fund(alice, String(i * 10));
    const page1 = await call(alice, 'GET', '/api/wallet/records?asset=USDT&page=1&pageSize=2');
    expect(page1.body.data.total).toBe(3);
    expect(page1.body.data.list.map((r: { amount: string }) => r.amount)).toEqual(['30', '20']);
    const page2 = await call(alice, 'GET', '/api/wallet/records?asset=USDT&page=2&pageSize=2');
    expect(page2.body.data.list.map((r: { amount: string }) => r.amount)).toEqual(['10']);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());
    const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const inDay = async (from: string, to: string) =>
      (await call(alice, 'GET', `/api/wallet/records?asset=USDT&from=${from}&to=${to}&timeZone=Asia/Tokyo`)).body.data.total;
    expect(await inDay(today, today)).toBe(3);
    expect(await inDay(tomorrow, tomorrow)).toBe(0);
    expect(await inDay(yesterday, yesterday)).toBe(0);
    expect((await call(alice, 'GET', '/api/wallet/records?asset=USDT&kind=recharge')).body.data.total).toBe(3);
    expect((await call(alice, 'GET', '/api/wallet/records?asset=USDT&kind=withdraw_hold')).body.data.total).toBe(0);
    expect((await call(alice, 'GET', '/api/wallet/records?asset=USDT&timeZone=Mars/Base')).body.code).toBe(ErrorCode.PARAM_FORMAT);
    expect((await call(alice, 'GET', '/api/wallet/records?asset=USDT&from=2026-13-45')).body.code).toBe(ErrorCode.PARAM_FORMAT);
    expect((await call(alice, 'GET', '/api/wallet/records?asset=USDT&to=2026-02-30')).body.code).toBe(ErrorCode.PARAM_FORMAT);
    expect((await call(alice, 'GET', '/api/wallet/records?asset=USDT&from=26-1-1')).body.code).toBe(ErrorCode.PARAM_FORMAT);
    expect((await call(alice, 'GET', '/api/wallet/records?asset=GOLD')).body.code).toBe(ErrorCode.INVALID);
    expect((await call(alice, 'GET', '/api/wallet/records?asset=USDT&pageSize=1000')).body.code).toBe(ErrorCode.PARAM_RANGE);
  });

  it('operators list and read deposits and withdrawals by status', async () => {
    const alice = await join('alice');
    const deposit = await recharge(alice, '70');
    const list = await call(operator, 'GET', `/api/admin/deposits?filter=${encodeURIComponent(JSON.stringify({ status: 'pending', userId: alice.id }))}&sort=["id","DESC"]`);
    expect(list.body).toMatchObject({ code: 0, data: [{ id: deposit.body.data.id, userId: alice.id, userEmail: alice.email, amount: '70' }] });
    expect(list.headers['content-range']).toBe('deposits 0-0/1');
    expect((await call(operator, 'GET', `/api/admin/deposits/${deposit.body.data.id}`)).body.data).toMatchObject({ status: 'pending', userEmail: alice.email });
    expect((await call(operator, 'GET', '/api/admin/deposits/00000000-0000-4000-8000-000000000000')).body.code).toBe(ErrorCode.PARAM_NOT_EXIST);
    await call(operator, 'PUT', `/api/admin/deposits/${deposit.body.data.id}`, { status: 'confirmed' });
    const deposits = (status: string) => call(operator, 'GET', `/api/admin/deposits?filter=${encodeURIComponent(JSON.stringify({ status, userId: alice.id }))}`);
    expect((await deposits('pending')).headers['content-range']).toBe('deposits */0');
    expect((await deposits('confirmed')).body.data).toHaveLength(1);
    const w = await withdraw(alice, '15');
    const wlist = await call(operator, 'GET', `/api/admin/withdrawals?filter=${encodeURIComponent(JSON.stringify({ status: 'pending', userId: alice.id }))}`);
    expect(wlist.body.data).toMatchObject([{ id: w.body.data.id, amount: '15', fee: '1', userEmail: alice.email, txHash: null }]);
    expect((await call(operator, 'GET', `/api/admin/withdrawals/${w.body.data.id}`)).body.data).toMatchObject({ status: 'pending', address: ADDRESS });
    expect((await call(operator, 'GET', `/api/admin/withdrawals?filter=${encodeURIComponent('{"status":"done"}')}`)).body.code).toBe(ErrorCode.INVALID);
    // By amount, both ways; the total stays in Content-Range.
    await recharge(alice, '5');
    await recharge(alice, '500');
    const amounts = async (order: string) =>
      (await call(operator, 'GET', `/api/admin/deposits?sort=${encodeURIComponent(JSON.stringify(['amount', order]))}&range=[0,1]&filter=${encodeURIComponent(JSON.stringify({ userId: alice.id }))}`)).body.data.map(
        (d: { amount: string }) => d.amount,
      );
    expect(await amounts('ASC')).toEqual(['5', '70']);
    expect(await amounts('DESC')).toEqual(['500', '70']);
  });

  it('refuses every operator call to a non-operator with 11005 and changes nothing', async () => {
    const alice = await join('alice');
    await fund(alice, '40');
    const deposit = await recharge(alice, '10');
    const w = await withdraw(alice, '10');
    const before = await snapshot();
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/deposits'],
      ['GET', `/api/admin/deposits/${deposit.body.data.id}`],
      ['PUT', `/api/admin/deposits/${deposit.body.data.id}`, { status: 'confirmed' }],
      ['PUT', `/api/admin/deposits/${deposit.body.data.id}`, { status: 'rejected', reason: 'no' }],
      ['GET', '/api/admin/withdrawals'],
      ['GET', `/api/admin/withdrawals/${w.body.data.id}`],
      ['PUT', `/api/admin/withdrawals/${w.body.data.id}`, { status: 'approved' }],
      ['PUT', `/api/admin/withdrawals/${w.body.data.id}`, { status: 'rejected', reason: 'no' }],
      ['PUT', `/api/admin/deposits/${deposit.body.data.id}`, { bad: 'body' }],
    ];
    for (const [method, path, body] of calls) {
      const answer = await call(alice, method, path, body);
      expect(answer.body.code, `${method} ${path}`).toBe(ErrorCode.UNAUTHORIZED);
      expect(answer.body.data, `${method} ${path}`).toBeNull();
      expect((await server.call(method, path, body)).status, `${method} ${path} without a token`).toBe(401);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('lets exactly one of two operators decide a withdrawal at the same moment', async () => {
    const alice = await join('alice');
    await fund(alice, '100');
    const w = await withdraw(alice, '50');
    const answers = await Promise.all([
      call(operator, 'PUT', `/api/admin/withdrawals/${w.body.data.id}`, { status: 'approved' }),
      call(operator, 'PUT', `/api/admin/withdrawals/${w.body.data.id}`, { status: 'rejected', reason: 'duplicate' }),
      call(operator, 'PUT', `/api/admin/withdrawals/${w.body.data.id}`, { status: 'approved' }),
    ]);
    expect(answers.map((a) => a.body.code).sort()).toEqual([0, ErrorCode.INVALID, ErrorCode.INVALID]);
    const winner = answers.find((a) => a.body.code === 0)!.body.data.status;
    expect(await usdt(alice)).toEqual(winner === 'approved' ? { available: '49', held: '0' } : { available: '100', held: '0' });
    const audits = await server.db.selectFrom('audit_log').select('action').where('target_id', '=', w.body.data.id).execute();
    expect(audits).toHaveLength(1);
  });
});
