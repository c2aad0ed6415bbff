import { afterEach, describe, expect, it } from 'vitest';
import { DEV_SIGN_SECRET, signBody } from '../../src/api/signing';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';

describe.each(BACKENDS)('accounts smoke (%s)', (backend) => {
  let server: TestServer;
  afterEach(async () => server?.close());

  it('registers with a mailed code, reads the identity and logs out', async () => {
    server = await startServer(backend);
    const session = await registerUser(server, { email: 'alice@example.com', nickname: '爱丽丝' });
    const me = await server.call('GET', '/api/user/me', undefined, { token: session.accessToken });
    expect(me.body).toMatchObject({ code: 0, data: { email: 'alice@example.com', nickname: '爱丽丝', activated: false } });
    expect((await server.call('POST', '/api/user/logout', undefined, { token: session.accessToken })).body.code).toBe(0);
    expect((await server.call('GET', '/api/user/me', undefined, { token: session.accessToken })).status).toBe(401);
  });
});

describe.each(BACKENDS)('shutdown (%s)', (backend) => {
  it('waits for running requests before it closes, even when their client has gone', async () => {
    const server = await startServer(backend, { scryptCost: 2 ** 15 });
    const { password } = await registerUser(server, { email: 'late@example.com' });
    const sessionsBefore = await server.db.selectFrom('sessions').select(server.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const controller = new AbortController();
    const login = fetch(`${server.base}/api/user/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(signBody('POST', '/api/user/login', { email: 'late@example.com', password }, DEV_SIGN_SECRET)),
      signal: controller.signal,
    }).catch(() => null);
    // The client hangs up while the server is still hashing the password.
    await new Promise((resolve) => setTimeout(resolve, 30));
    controller.abort();
    await login;
    await server.app.close();
    const sessionsAfter = await server.db.selectFrom('sessions').select(server.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(sessionsAfter.n)).toBe(Number(sessionsBefore.n) + 1);
    await server.close();
  });
});
