import { afterEach, describe, expect, it } from 'vitest';
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
