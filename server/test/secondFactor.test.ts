import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/api/errors';
import { runOperatorCommand } from '../src/cli/operator';
import { DEMO_EMAIL, DEMO_PASSWORD, ensureDemoAccount } from '../src/demo/account';
import { adjustBalance, BACKENDS, registerUser, startServer, trustAddress, type TestServer } from './harness';

const ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/**
 * Second factors (issue 26, README "Second factors"): TOTP turned on with a
 * first code, the login's second step, trusted devices, step-up on the calls
 * that move money or change security, recovery codes, the operator's reset
 * and the 24-hour hold. The factors' clock is the test's own, moved on by
 * whole 30-second steps, so codes of later steps are real new codes.
 */
describe.each(BACKENDS)('second factors (%s)', { timeout: 60_000 }, (backend) => {
  let server: TestServer;
  let clock = Date.now();
  /** The authenticator app: the code of the next time step. */
  const appCode = (secret: string) => {
    clock += 30_000;
    return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock });
  };
  const login = (email: string, password: string, headers: Record<string, string> = {}) => server.call('POST', '/api/user/login', { email, password }, { headers });
  const secondStep = (ticket: string, code: string, trustDevice = false) =>
    server.call('POST', '/api/user/login/second-factor', { ticket, code, trustDevice });
  const withdraw = (token: string, code?: string) =>
    server.call(
      'POST',
      '/api/wallet/withdraw',
      { amount: '10', address: ADDRESS, password: 'Sturdy-Passw0rd!', idempotencyKey: `w-${Math.random().toString(36).slice(2)}` },
      { token, headers: code ? { 'X-Second-Factor': code } : {} },
    );
  const withdrawals = async (userId: string) => (await server.db.selectFrom('withdrawals').select('id').where('user_id', '=', userId).execute()).length;

  /** A new user (the per-address limit on e-mail codes is no subject here). */
  const register = async (email: string) => {
    await server.db.deleteFrom('throttle_counters').where('key', 'like', 'code:%').execute();
    return registerUser(server, { email });
  };
  /** A user with TOTP on: its secret, recovery codes and a session. */
  const withTotp = async (email: string) => {
    const user = await register(email);
    const setup = await server.call('POST', '/api/security/totp/setup', undefined, { token: user.accessToken });
    expect(setup.body.code).toBe(0);
    const { secret, uri } = setup.body.data as { secret: string; uri: string };
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    const enabled = await server.call('POST', '/api/security/totp/enable', { code: appCode(secret) }, { token: user.accessToken });
    expect(enabled.body.code).toBe(0);
    return { ...user, secret, recoveryCodes: enabled.body.data.recoveryCodes as string[] };
  };

  beforeAll(async () => {
    server = await startServer(backend, {}, { factorClock: () => clock });
  });
  afterAll(async () => server?.close());

  it('turns TOTP on only with a right first code; the secret is sealed and the ten recovery codes hashed; the user is told', async () => {
    const user = await register('first@example.com');
    const { secret } = (await server.call('POST', '/api/security/totp/setup', undefined, { token: user.accessToken })).body.data;
    const wrong = await server.call('POST', '/api/security/totp/enable', { code: '000000' === appCode(secret) ? '111111' : '000000' }, { token: user.accessToken });
    expect(wrong.body.code).toBe(ErrorCode.SECOND_FACTOR_INVALID);
    expect((await server.call('GET', '/api/security/status', undefined, { token: user.accessToken })).body.data.factors).toEqual([]);

    const enabled = await server.call('POST', '/api/security/totp/enable', { code: appCode(secret) }, { token: user.accessToken });
    expect(enabled.body.code).toBe(0);
    const codes = enabled.body.data.recoveryCodes as string[];
    expect(new Set(codes).size).toBe(10);
    const stored = await server.db.selectFrom('second_factors').select(['secret_sealed', 'enabled_at']).where('user_id', '=', user.user.id).executeTakeFirstOrThrow();
    expect(stored.enabled_at).not.toBeNull();
    expect(stored.secret_sealed).not.toContain(secret);
    const hashes = (await server.db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', user.user.id).execute()).map((r) => r.code_hash);
    expect(hashes).toHaveLength(10);
    expect(hashes.some((hash) => codes.some((code) => hash.includes(code.replace('-', ''))))).toBe(false);
    expect(server.logs.join('\n')).not.toContain(secret);
    const status = (await server.call('GET', '/api/security/status', undefined, { token: user.accessToken })).body.data;
    expect(status).toMatchObject({ factors: [{ kind: 'totp' }], recoveryCodesLeft: 10, withdrawalsHeldUntil: null, locked: false });
    const events = await server.db.selectFrom('notification_events').select(['kind', 'payload']).where('user_id', '=', user.user.id).execute();
    expect(events.map((e) => e.kind)).toContain('user.security_changed');
    // A second setup while on is refused and changes nothing.
    expect((await server.call('POST', '/api/security/totp/setup', undefined, { token: user.accessToken })).body.code).toBe(ErrorCode.ALREADY_EXISTS);
  });

  it('asks for the second step at login, refuses a replayed code, and a trusted device skips the step for later logins', async () => {
    const user = await withTotp('login@example.com');
    const first = await login('login@example.com', user.password);
    expect(first.body).toMatchObject({ code: ErrorCode.SECOND_FACTOR_REQUIRED, data: { kinds: ['totp'] } });
    expect(first.body.data.accessToken).toBeUndefined();
    const code = appCode(user.secret);
    const done = await secondStep(first.body.data.ticket, code, true);
    expect(done.body.code).toBe(0);
    expect(done.body.data.accessToken).toEqual(expect.any(String));
    const cookie = done.headers['set-cookie']!;
    expect(cookie).toMatch(/^qt_device=[^;]+; Path=\/api\/user\/login; Max-Age=2592000; HttpOnly; SameSite=Strict/);

    // The same code again, within its window: refused.
    const again = await login('login@example.com', user.password);
    expect((await secondStep(again.body.data.ticket, code)).body.code).toBe(ErrorCode.SECOND_FACTOR_INVALID);
    // A forged ticket is refused.
    expect((await secondStep(`${again.body.data.ticket}x`, appCode(user.secret))).body.code).toBe(ErrorCode.SECOND_FACTOR_INVALID);

    const trusted = await login('login@example.com', user.password, { Cookie: cookie.split(';')[0]! });
    expect(trusted.body.code).toBe(0);
    expect(trusted.body.data.accessToken).toEqual(expect.any(String));
    const stranger = await login('login@example.com', user.password, { Cookie: 'qt_device=forged' });
    expect(stranger.body.code).toBe(ErrorCode.SECOND_FACTOR_REQUIRED);
  });

  it('needs the factor to withdraw, change the password and grant widgets; a replayed code is refused and nothing changes', async () => {
    const user = await withTotp('stepup@example.com');
    await adjustBalance(server, user.user.id, 'USDT', '100');
    // An address of the book whose 24 hours have passed (the wait itself: withdrawalAddresses.test.ts).
    await trustAddress(server, user.user.id, ADDRESS);
    expect((await withdraw(user.accessToken)).body).toMatchObject({ code: ErrorCode.SECOND_FACTOR_REQUIRED, data: { kinds: ['totp'] } });
    expect(await withdrawals(user.user.id)).toBe(0);
    const code = appCode(user.secret);
    expect((await withdraw(user.accessToken, code)).body.code).toBe(0);
    expect((await withdraw(user.accessToken, code)).body.code).toBe(ErrorCode.SECOND_FACTOR_INVALID);
    expect(await withdrawals(user.user.id)).toBe(1);

    const change = { oldPassword: user.password, newPassword: 'Another-Passw0rd!', secondPassword: 'Another-Passw0rd!' };
    expect((await server.call('POST', '/api/user/change-password', change, { token: user.accessToken })).body.code).toBe(ErrorCode.SECOND_FACTOR_REQUIRED);
    const grant = { name: 'My blog', origin: 'https://blog.example.com' };
    expect((await server.call('POST', '/api/user/widget-token', grant, { token: user.accessToken })).body.code).toBe(ErrorCode.SECOND_FACTOR_REQUIRED);
    expect(await server.db.selectFrom('widget_grants').select('id').where('user_id', '=', user.user.id).execute()).toHaveLength(0);
    const granted = await server.call('POST', '/api/user/widget-token', grant, { token: user.accessToken, headers: { 'X-Second-Factor': appCode(user.secret) } });
    expect(granted.body.code).toBe(0);
    const changed = await server.call('POST', '/api/user/change-password', change, { token: user.accessToken, headers: { 'X-Second-Factor': appCode(user.secret) } });
    expect(changed.body.code).toBe(0);
    // Turning the factor off takes it too.
    expect((await server.call('POST', '/api/security/totp/disable', undefined, { token: user.accessToken })).body.code).toBe(ErrorCode.SECOND_FACTOR_REQUIRED);
  });

  it('logs in once with each recovery code, then holds withdrawals for 24 hours', async () => {
    const user = await withTotp('lost@example.com');
    await adjustBalance(server, user.user.id, 'USDT', '100');
    const recovery = user.recoveryCodes[3]!;
    const first = await login('lost@example.com', user.password);
    const done = await secondStep(first.body.data.ticket, recovery.toLowerCase());
    expect(done.body.code).toBe(0);
    const again = await login('lost@example.com', user.password);
    expect((await secondStep(again.body.data.ticket, recovery)).body.code).toBe(ErrorCode.SECOND_FACTOR_INVALID);

    const token = done.body.data.accessToken as string;
    const held = await withdraw(token, appCode(user.secret));
    expect(held.body).toMatchObject({ code: ErrorCode.WITHDRAWALS_HELD, data: { hours: 24 } });
    expect(await withdrawals(user.user.id)).toBe(0);
    expect((await server.call('GET', '/api/security/status', undefined, { token })).body.data).toMatchObject({ recoveryCodesLeft: 9, withdrawalsHeldUntil: expect.any(String) });
  });

  it('the operator console resets a lost factor with an audit line; the account then holds withdrawals', async () => {
    const op = await register('op@example.com');
    expect(await runOperatorCommand(server.db, ['op@example.com'], { log: () => {}, error: () => {} })).toBe(0);
    const user = await withTotp('reset@example.com');
    await adjustBalance(server, user.user.id, 'USDT', '100');
    const path = `/api/admin/users/${user.user.id}/reset-second-factor`;
    expect((await server.call('POST', path, undefined, { token: user.accessToken })).body.code).toBe(ErrorCode.UNAUTHORIZED);

    expect((await server.call('POST', path, undefined, { token: op.accessToken })).body.code).toBe(0);
    const audit = await server.db.selectFrom('audit_log').select(['operator_id', 'action', 'target_id']).where('target_id', '=', user.user.id).execute();
    expect(audit).toEqual([{ operator_id: op.user.id, action: 'user.reset_second_factor', target_id: user.user.id }]);
    // Nothing left to reset: refused, no second audit line.
    expect((await server.call('POST', path, undefined, { token: op.accessToken })).body.code).toBe(ErrorCode.PARAM_NOT_EXIST);

    const after = await login('reset@example.com', user.password);
    expect(after.body.code).toBe(0);
    expect((await withdraw(after.body.data.accessToken)).body.code).toBe(ErrorCode.WITHDRAWALS_HELD);
    const kinds = (await server.db.selectFrom('notification_events').select('payload').where('user_id', '=', user.user.id).where('kind', '=', 'user.security_changed').execute()).map(
      (row) => (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload).change,
    );
    expect(kinds).toEqual(['totp_enabled', 'factors_reset']);
  });

  it('refuses factor changes on the shared demo account', async () => {
    await ensureDemoAccount(server.db, server.config.scryptCost);
    const demo = await login(DEMO_EMAIL, DEMO_PASSWORD);
    const setup = await server.call('POST', '/api/security/totp/setup', undefined, { token: demo.body.data.accessToken });
    expect(setup.body).toMatchObject({ code: ErrorCode.UNAUTHORIZED, data: { reason: 'demo_account' } });
    expect(await server.db.selectFrom('second_factors').select('id').where('user_id', '=', demo.body.data.user.id).execute()).toHaveLength(0);
    expect((await server.call('GET', '/api/security/status', undefined, { token: demo.body.data.accessToken })).body.data.locked).toBe(true);
  });
});
