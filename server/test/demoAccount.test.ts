import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/api/errors';
import { DEMO_EMAIL, DEMO_PASSWORD, demoAccountDecision, demoAccountLine, ensureDemoAccount } from '../src/demo/account';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';

/**
 * The demo account (README "Run", "Wallet"): created only on the embedded
 * database and never in production, the start log saying which path was
 * taken; and, its password being public, it never moves money out.
 */

describe('which start creates the demo account', () => {
  const embedded = { demoAccount: true, databaseUrl: undefined };
  const postgres = { demoAccount: true, databaseUrl: 'postgresql://db.internal/quant' };

  it('creates it only on the embedded database, outside production, unless DEMO_ACCOUNT=false', () => {
    expect(demoAccountDecision(embedded, undefined)).toEqual({ create: true });
    expect(demoAccountDecision(embedded, 'development')).toEqual({ create: true });
    expect(demoAccountDecision(embedded, 'production')).toEqual({ create: false, reason: 'production' });
    expect(demoAccountDecision(postgres, undefined)).toEqual({ create: false, reason: 'postgres' });
    expect(demoAccountDecision(postgres, 'production')).toEqual({ create: false, reason: 'production' });
    expect(demoAccountDecision({ demoAccount: false, databaseUrl: undefined }, undefined)).toEqual({ create: false, reason: 'disabled' });
  });

  it('says in the start log which path was taken, the password only when one was created', () => {
    const created = demoAccountLine({ create: true }, { email: DEMO_EMAIL, password: DEMO_PASSWORD });
    expect(created).toContain(`${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
    expect(created).toContain('embedded database only');
    expect(demoAccountLine({ create: true }, null)).not.toContain(DEMO_PASSWORD);
    expect(demoAccountLine({ create: false, reason: 'production' }, null)).toBe('  No demo account: NODE_ENV=production');
    expect(demoAccountLine({ create: false, reason: 'postgres' }, null)).toMatch(/No demo account: PostgreSQL/);
    expect(demoAccountLine({ create: false, reason: 'disabled' }, null)).toBe('  No demo account: DEMO_ACCOUNT=false');
    for (const reason of ['production', 'postgres', 'disabled'] as const) expect(demoAccountLine({ create: false, reason }, null)).not.toContain(DEMO_PASSWORD);
  });
});

describe.each(BACKENDS)('the demo account moves no money out (%s)', (backend) => {
  let server: TestServer;
  let token: string;
  let demoId: string;
  const PASSWORD = 'Sturdy-Passw0rd!';
  let n = 0;
  const key = () => `demo-${Date.now().toString(36)}-${n++}`;
  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body, { token });

  beforeAll(async () => {
    server = await startServer(backend);
    await ensureDemoAccount(server.db, server.config.scryptCost);
    const login = await server.call('POST', '/api/user/login', { email: DEMO_EMAIL, password: DEMO_PASSWORD });
    expect(login.body.code).toBe(0);
    token = login.body.data.accessToken;
    demoId = login.body.data.user.id;
  });
  afterAll(async () => server?.close());

  it('refuses withdraw, transfer and points transfer with 11005 demo_account, and changes nothing', async () => {
    const friend = await registerUser(server, { email: 'friend-of-demo@example.com', password: PASSWORD });
    const demo = await server.db.selectFrom('users').select('invite_code').where('id', '=', demoId).executeTakeFirstOrThrow();
    const downline = await registerUser(server, { email: 'downline-of-demo@example.com', password: PASSWORD, inviteCode: demo.invite_code });
    const friendAddress = (await server.call('GET', '/api/wallet/deposit-address', undefined, { token: friend.accessToken })).body.data.address as string;
    const balances = async () => (await call('GET', '/api/wallet/balances')).body.data.balances;
    const entries = async () => Number((await server.db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    const before = { balances: await balances(), entries: await entries() };
    expect(before.balances).toContainEqual({ asset: 'USDT', available: '1000', held: '0' });

    const refusals = [
      await call('POST', '/api/wallet/withdraw', { amount: '20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', password: DEMO_PASSWORD, idempotencyKey: key() }),
      // Not even internally, to another user's deposit address.
      await call('POST', '/api/wallet/withdraw', { amount: '20', address: friendAddress, password: DEMO_PASSWORD, idempotencyKey: key() }),
      await call('POST', '/api/wallet/transfer', { to: friend.user.email ?? 'friend-of-demo@example.com', amount: '5', password: DEMO_PASSWORD, idempotencyKey: key() }),
      await call('POST', '/api/wallet/points-transfer', { to: downline.user.id, amount: '1', password: DEMO_PASSWORD, idempotencyKey: key() }),
    ];
    for (const refused of refusals) expect(refused.body).toMatchObject({ code: ErrorCode.UNAUTHORIZED, data: { reason: 'demo_account' } });
    expect(await balances()).toEqual(before.balances);
    expect(await entries()).toBe(before.entries);
    expect(await server.db.selectFrom('withdrawals').select('id').where('user_id', '=', demoId).execute()).toEqual([]);
    expect((await server.call('GET', '/api/wallet/balances', undefined, { token: friend.accessToken })).body.data.balances).toContainEqual({ asset: 'USDT', available: '0', held: '0' });

    // Inside its own wallet it still works: a conversion, a reported deposit.
    expect((await call('POST', '/api/wallet/exchange', { from: 'USDT', to: 'FUEL', amount: '10', idempotencyKey: key() })).body.code).toBe(0);
    expect((await call('POST', '/api/wallet/recharge', { amount: '10', idempotencyKey: key() })).body.code).toBe(0);
  });

  it('books its starting funds with a reason the dashboard translates', async () => {
    const records = (await call('GET', '/api/wallet/records?asset=USDT&kind=adjustment')).body.data.list;
    expect(records[0].detail).toEqual({ reason: 'demo_account' });
  });
});
