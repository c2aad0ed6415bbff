import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/api/errors';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';
import { createSoftAuthenticator, passkeyHeader, type SoftPasskey } from './softAuthenticator';

/**
 * Passkeys (issue 26, README "Passkeys"), over HTTP with a software
 * authenticator (an ES256 key pair made in the test): registration, the
 * login's second step, step-up on a call, and the passkey login of its own.
 * Every challenge is single use and bound to its user and action; a counter
 * that does not grow (a cloned authenticator) is refused.
 */
describe.each(BACKENDS)('passkeys (%s)', { timeout: 60_000 }, (backend) => {
  let server: TestServer;
  let authenticator: ReturnType<typeof createSoftAuthenticator>;

  const register = async (email: string) => {
    await server.db.deleteFrom('throttle_counters').where('key', 'like', 'code:%').execute();
    return registerUser(server, { email });
  };
  /** A user with one passkey (its first factor): the passkey and the recovery codes. */
  const withPasskey = async (email: string) => {
    const user = await register(email);
    const options = await server.call('POST', '/api/security/passkeys/options', undefined, { token: user.accessToken });
    expect(options.body.code).toBe(0);
    const { passkey, response } = authenticator.register(options.body.data);
    const kept = await server.call('POST', '/api/security/passkeys', { name: 'Laptop', response }, { token: user.accessToken });
    expect(kept.body.code).toBe(0);
    return { ...user, passkey, registration: response, recoveryCodes: kept.body.data.recoveryCodes as string[] | null };
  };
  const loginTicket = async (email: string, password: string) => {
    const first = await server.call('POST', '/api/user/login', { email, password });
    expect(first.body).toMatchObject({ code: ErrorCode.SECOND_FACTOR_REQUIRED, data: { kinds: ['passkey'] } });
    return first.body.data.ticket as string;
  };
  const loginOptions = async (ticket?: string) => {
    const answer = await server.call('POST', '/api/user/login/passkey/options', ticket ? { ticket } : {});
    expect(answer.body.code).toBe(0);
    return answer.body.data as { challenge: string; allowCredentials?: { id: string }[] };
  };

  beforeAll(async () => {
    server = await startServer(backend);
    authenticator = createSoftAuthenticator(server.base);
  });
  afterAll(async () => server?.close());

  it('registers a named passkey with ten recovery codes; its stored key, counter and transports; a replayed registration is refused', async () => {
    const user = await withPasskey('enrol@example.com');
    expect(user.recoveryCodes).toHaveLength(10);
    const status = (await server.call('GET', '/api/security/status', undefined, { token: user.accessToken })).body.data;
    expect(status.factors).toEqual([{ kind: 'passkey', enabledAt: expect.any(String) }]);
    expect(status.passkeys).toEqual([{ id: expect.any(String), name: 'Laptop', createdAt: expect.any(String), lastUsedAt: null }]);
    const row = await server.db.selectFrom('second_factors').selectAll().where('user_id', '=', user.user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'passkey', credential_id: user.passkey.credentialId.toString('base64url'), transports: '["internal"]' });
    expect(Number(row.counter)).toBe(0);
    expect(row.public_key).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    // The same response again: its challenge was taken; nothing is added.
    const again = await server.call('POST', '/api/security/passkeys', { name: 'Again', response: user.registration }, { token: user.accessToken, headers: {} });
    expect(again.body.code).toBe(ErrorCode.SECOND_FACTOR_REQUIRED);
    // A second passkey with the factor on needs step-up; the first passkey gives it.
    const options = (await server.call('POST', '/api/security/passkeys/options', undefined, { token: user.accessToken })).body.data;
    expect(options.excludeCredentials).toEqual([expect.objectContaining({ id: user.passkey.credentialId.toString('base64url') })]);
    const second = authenticator.register(options);
    const refused = await server.call('POST', '/api/security/passkeys', { name: 'Phone', response: second.response }, { token: user.accessToken });
    expect(refused.body.code).toBe(ErrorCode.SECOND_FACTOR_REQUIRED);
    const header = passkeyHeader(authenticator.assert(user.passkey, refused.body.data.passkey));
    const kept = await server.call('POST', '/api/security/passkeys', { name: 'Phone', response: second.response }, { token: user.accessToken, headers: { 'X-Second-Factor': header } });
    expect(kept.body).toMatchObject({ code: 0, data: { recoveryCodes: null } });
    const replayed = await server.call('POST', '/api/security/passkeys', { name: 'Phone 2', response: second.response }, { token: user.accessToken, headers: { 'X-Second-Factor': header } });
    expect(replayed.body.code).toBe(ErrorCode.PASSKEY_INVALID);
    const names = (await server.call('GET', '/api/security/status', undefined, { token: user.accessToken })).body.data.passkeys.map((p: { name: string }) => p.name);
    expect(names).toEqual(['Laptop', 'Phone']);
  });

  it('completes the login’s second step with a passkey; a replayed assertion and another user’s passkey are refused', async () => {
    const alice = await withPasskey('alice@example.com');
    const bob = await withPasskey('bob@example.com');
    const ticket = await loginTicket('alice@example.com', alice.password);
    const options = await loginOptions(ticket);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([alice.passkey.credentialId.toString('base64url')]);
    const assertion = passkeyHeader(authenticator.assert(alice.passkey, options));
    const done = await server.call('POST', '/api/user/login/second-factor', { ticket, code: assertion, trustDevice: false });
    expect(done.body.code).toBe(0);
    expect(done.body.data.accessToken).toEqual(expect.any(String));

    // The same assertion again, on a new ticket: its challenge is gone.
    const again = await loginTicket('alice@example.com', alice.password);
    expect((await server.call('POST', '/api/user/login/second-factor', { ticket: again, code: assertion, trustDevice: false })).body.code).toBe(ErrorCode.PASSKEY_INVALID);
    // Bob's passkey on Alice's challenge: refused, and it does not open Alice's account.
    const aliceOptions = await loginOptions(again);
    const bobs = passkeyHeader(authenticator.assert(bob.passkey, aliceOptions));
    expect((await server.call('POST', '/api/user/login/second-factor', { ticket: again, code: bobs, trustDevice: false })).body.code).toBe(ErrorCode.PASSKEY_INVALID);
    // Alice's challenge answered on Bob's ticket: bound to Alice, refused.
    const bobTicket = await loginTicket('bob@example.com', bob.password);
    const crossed = passkeyHeader(authenticator.assert(bob.passkey, await loginOptions(again)));
    expect((await server.call('POST', '/api/user/login/second-factor', { ticket: bobTicket, code: crossed, trustDevice: false })).body.code).toBe(ErrorCode.PASSKEY_INVALID);
  });

  it('steps up a call with a passkey bound to that call; removing a passkey asks for it, and the last one takes the recovery codes', async () => {
    const user = await withPasskey('stepup@example.com');
    const remove = (id: string, header?: string) =>
      server.call('POST', '/api/security/passkeys/remove', { id }, { token: user.accessToken, headers: header ? { 'X-Second-Factor': header } : {} });
    const [{ id }] = (await server.call('GET', '/api/security/status', undefined, { token: user.accessToken })).body.data.passkeys;
    const asked = await remove(id);
    expect(asked.body).toMatchObject({ code: ErrorCode.SECOND_FACTOR_REQUIRED, data: { kinds: ['passkey'], passkey: { challenge: expect.any(String) } } });

    // A challenge of another call (the password change) does not step up this one.
    const other = await server.call(
      'POST',
      '/api/user/change-password',
      { oldPassword: user.password, newPassword: 'Another-Passw0rd!', secondPassword: 'Another-Passw0rd!' },
      { token: user.accessToken },
    );
    expect(other.body.code).toBe(ErrorCode.SECOND_FACTOR_REQUIRED);
    expect((await remove(id, passkeyHeader(authenticator.assert(user.passkey, other.body.data.passkey)))).body.code).toBe(ErrorCode.PASSKEY_INVALID);
    expect(await server.db.selectFrom('second_factors').select('id').where('user_id', '=', user.user.id).execute()).toHaveLength(1);

    const header = passkeyHeader(authenticator.assert(user.passkey, asked.body.data.passkey));
    expect((await remove(id, header)).body.code).toBe(0);
    const status = (await server.call('GET', '/api/security/status', undefined, { token: user.accessToken })).body.data;
    expect(status).toMatchObject({ factors: [], passkeys: [], recoveryCodesLeft: 0 });
  });

  it('logs in with a passkey alone; a replay, a cloned authenticator and an unknown passkey are refused', async () => {
    const user = await withPasskey('alone@example.com');
    const options = await loginOptions();
    expect(options.allowCredentials ?? []).toEqual([]);
    const assertion = authenticator.assert(user.passkey, options);
    const done = await server.call('POST', '/api/user/login/passkey', { response: assertion });
    expect(done.body).toMatchObject({ code: 0, data: { user: { id: user.user.id }, accessToken: expect.any(String) } });
    const me = await server.call('GET', '/api/user/me', undefined, { token: done.body.data.accessToken });
    expect(me.body.data.email).toBe('alone@example.com');

    expect((await server.call('POST', '/api/user/login/passkey', { response: assertion })).body.code).toBe(ErrorCode.PASSKEY_INVALID);
    // A clone: a copy of the key whose counter lags behind the one the server saw.
    const clone: SoftPasskey = { ...user.passkey };
    const cloned = authenticator.assert(clone, await loginOptions(), user.passkey.counter);
    expect((await server.call('POST', '/api/user/login/passkey', { response: cloned })).body.code).toBe(ErrorCode.PASSKEY_INVALID);
    const stranger = createSoftAuthenticator(server.base).register({ challenge: 'x', user: { id: 'nobody' } }).passkey;
    expect((await server.call('POST', '/api/user/login/passkey', { response: authenticator.assert(stranger, await loginOptions()) })).body.code).toBe(
      ErrorCode.PASSKEY_INVALID,
    );
    // A live challenge answered from another origin is refused too.
    const elsewhere = createSoftAuthenticator('http://evil.example').assert(user.passkey, await loginOptions());
    expect((await server.call('POST', '/api/user/login/passkey', { response: elsewhere })).body.code).toBe(ErrorCode.PASSKEY_INVALID);
    // The genuine authenticator still works.
    expect((await server.call('POST', '/api/user/login/passkey', { response: authenticator.assert(user.passkey, await loginOptions()) })).body.code).toBe(0);
  });
});
