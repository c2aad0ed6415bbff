import { afterEach, describe, expect, it } from 'vitest';
import { DEV_SIGN_SECRET, signBody } from '../../src/api/signing';
import { createTickerFeed } from '../src/engine/venues/tickerFeed';
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

  it('closes in order: the requests still running, then the engine, then the ticker streams', async () => {
    // The login's signature check reads the clock: then the request is running.
    let arrived = () => {};
    const loginRunning = new Promise<void>((resolve) => (arrived = resolve));
    let watching = false;
    const now = () => {
      if (watching) arrived();
      return Date.now();
    };
    const feed = createTickerFeed({
      createExchange: () => {
        throw new Error('no exchange in this test');
      },
    });
    const atFeedClose: { engineRunning: boolean; sessions: number }[] = [];
    const sessions = async () => Number((await server.db.selectFrom('sessions').select(server.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const server = await startServer(
      backend,
      { scryptCost: 2 ** 15 },
      {
        now,
        tickerFeed: {
          ...feed,
          close: async () => {
            atFeedClose.push({ engineRunning: server.app.engine.status().running, sessions: await sessions() });
            await feed.close();
          },
        },
      },
    );
    const { password } = await registerUser(server, { email: 'order@example.com' });
    const before = await sessions();
    expect(server.app.engine.status().running).toBe(true);
    watching = true;
    // Injected, not over a socket: the server need not wait for the client's kept-alive connection.
    const login = server.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: signBody('POST', '/api/user/login', { email: 'order@example.com', password }, DEV_SIGN_SECRET),
    });
    await loginRunning;
    await server.app.close();
    expect((await login).json()).toMatchObject({ code: 0 });
    // The engine's stop closes the streams too: each close found the login done and the engine stopped.
    expect(atFeedClose.length).toBeGreaterThan(0);
    for (const seen of atFeedClose) expect(seen).toEqual({ engineRunning: false, sessions: before + 1 });
    await server.close();
  });
});
