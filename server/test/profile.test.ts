import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A data URL of `size` bytes starting with the given magic bytes. */
const dataUrl = (mime: string, size: number, magic: Buffer = PNG_SIGNATURE) =>
  `data:${mime};base64,${Buffer.concat([magic, Buffer.alloc(size - magic.length, 7)]).toString('base64')}`;

describe.each(BACKENDS)('profile and security (%s)', (backend) => {
  let server: TestServer;
  let session: Awaited<ReturnType<typeof registerUser>>;

  beforeEach(async () => {
    server = await startServer(backend);
    session = await registerUser(server, { email: 'pat@example.com', nickname: 'Pat' });
  });
  afterEach(async () => server.close());

  const call = (method: string, path: string, body?: unknown, token = session.accessToken) => server.call(method, path, body, { token });
  const login = async (password: string) => server.call('POST', '/api/user/login', { email: 'pat@example.com', password }, { headers: { 'User-Agent': 'second-browser' } });

  it('edits the nickname and the avatar; refuses a bad or oversized image and changes nothing', async () => {
    const avatar = dataUrl('image/png', 40 * 1024);
    const edited = await call('POST', '/api/user/profile', { nickname: '  Patricia  ', avatar });
    expect(edited.body).toMatchObject({ code: 0, data: { id: session.user.id, nickname: 'Patricia', avatar, email: 'pat@example.com' } });
    expect((await call('GET', '/api/user/me')).body.data).toMatchObject({ nickname: 'Patricia', avatar });

    // Without avatar: kept. 48 KB exactly passes (the call allows a larger body than the app's 64 KB).
    expect((await call('POST', '/api/user/profile', { nickname: 'Pat' })).body.data).toMatchObject({ nickname: 'Pat', avatar });
    const jpeg = dataUrl('image/jpeg', 48 * 1024, Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
    expect((await call('POST', '/api/user/profile', { nickname: 'Pat', avatar: jpeg })).body.data.avatar).toBe(jpeg);
    const webp = dataUrl('image/webp', 1024, Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP')]));
    expect((await call('POST', '/api/user/profile', { nickname: 'Pat', avatar: webp })).body.code).toBe(0);

    const refusals: [unknown, number][] = [
      [{ nickname: 'Pat', avatar: dataUrl('image/png', 48 * 1024 + 1) }, 10005],
      [{ nickname: 'Pat', avatar: dataUrl('image/gif', 100, Buffer.from('GIF89a')) }, 10003],
      [{ nickname: 'Pat', avatar: 'https://example.com/me.png' }, 10003],
      [{ nickname: 'Pat', avatar: 'data:image/png;base64,***' }, 10003],
      [{ nickname: 'Pat', avatar: dataUrl('image/png', 100, Buffer.from([0xff, 0xd8, 0xff])) }, 10003],
      [{ nickname: 'P' }, 10004],
      [{ nickname: '   P   ' }, 10004],
      [{ nickname: 'x'.repeat(21) }, 10004],
      [{ nickname: '<script>' }, 10003],
      [{ nickname: 'Pat', role: 'operator' }, 10008],
      [{}, 10000],
    ];
    for (const [body, code] of refusals) expect((await call('POST', '/api/user/profile', body)).body.code, JSON.stringify(body).slice(0, 80)).toBe(code);
    expect((await call('GET', '/api/user/me')).body.data).toMatchObject({ nickname: 'Pat', avatar: webp, role: 'user' });

    // Far over every limit: the body itself is refused.
    const huge = await call('POST', '/api/user/profile', { nickname: 'Pat', avatar: dataUrl('image/png', 120 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe(10005);

    expect((await call('POST', '/api/user/profile', { nickname: 'Pat', avatar: null })).body.data.avatar).toBeNull();
    expect((await server.call('POST', '/api/user/profile', { nickname: 'Pat' })).status).toBe(401);
  });

  it('changes the password: 11002 for a wrong old one, same rules as register, other sessions end, this one stays', async () => {
    const other = await login(session.password);
    expect(other.body.code).toBe(0);
    const otherToken = other.body.data.accessToken as string;

    const change = (body: Record<string, string>) => call('POST', '/api/user/change-password', body);
    expect((await change({ oldPassword: 'Wrong-Passw0rd!', newPassword: 'Brand-New-Passw0rd', secondPassword: 'Brand-New-Passw0rd' })).body.code).toBe(11002);
    expect((await change({ oldPassword: session.password, newPassword: 'Brand-New-Passw0rd', secondPassword: 'Brand-New-Passw0rd?' })).body).toMatchObject({
      code: 10008,
      data: { field: 'secondPassword' },
    });
    expect((await change({ oldPassword: session.password, newPassword: 'short', secondPassword: 'short' })).body.code).toBe(10004);
    expect((await change({ oldPassword: session.password, newPassword: 'password123', secondPassword: 'password123' })).body).toMatchObject({ code: 10008, data: { rule: 'common' } });
    // Unsigned: refused before anything else.
    expect((await server.call('POST', '/api/user/change-password', { oldPassword: session.password, newPassword: 'Brand-New-Passw0rd', secondPassword: 'Brand-New-Passw0rd' }, { token: session.accessToken, sign: false })).body.code).toBe(10000);
    // Nothing changed so far: the other session still works.
    expect((await call('GET', '/api/user/me', undefined, otherToken)).body.code).toBe(0);

    const done = await change({ oldPassword: session.password, newPassword: 'Brand-New-Passw0rd', secondPassword: 'Brand-New-Passw0rd' });
    expect(done.body).toEqual({ code: 0, message: 'ok', data: null });
    expect((await call('GET', '/api/user/me', undefined, otherToken)).status).toBe(401);
    expect((await server.call('PUT', '/api/user/refresh', { refreshToken: other.body.data.refreshToken })).body.code).toBe(11005);
    expect((await call('GET', '/api/user/me')).body.code).toBe(0);
    expect((await server.call('PUT', '/api/user/refresh', { refreshToken: session.refreshToken })).body.code).toBe(0);
    expect((await login(session.password)).body.code).toBe(11002);
    expect((await login('Brand-New-Passw0rd')).body.code).toBe(0);
    expect(server.logs.join('\n')).not.toContain('Brand-New-Passw0rd');
  });

  it('lists active sessions with the current one flagged and revokes only own sessions', async () => {
    const second = await login(session.password);
    const stranger = await registerUser(server, { email: 'stranger@example.com' });
    const list = (await call('GET', '/api/user/sessions')).body.data;
    expect(list).toHaveLength(2);
    const current = list.filter((s: { current: boolean }) => s.current);
    expect(current).toHaveLength(1);
    const otherSession = list.find((s: { current: boolean }) => !s.current);
    expect(otherSession).toMatchObject({ userAgent: 'second-browser', ip: '127.0.0.1' });
    expect(Date.parse(otherSession.createdAt)).not.toBeNaN();
    expect(Date.parse(otherSession.lastSeenAt)).not.toBeNaN();

    // Someone else's session, or none: 10006, and it stays alive.
    const strangers = (await call('GET', '/api/user/sessions', undefined, stranger.accessToken)).body.data;
    expect(strangers).toHaveLength(1);
    expect((await call('POST', '/api/user/sessions/revoke', { id: strangers[0].id })).body.code).toBe(10006);
    expect((await call('POST', '/api/user/sessions/revoke', { id: '00000000-0000-4000-8000-000000000000' })).body.code).toBe(10006);
    expect((await call('POST', '/api/user/sessions/revoke', { id: 'not-a-uuid' })).body.code).toBe(10003);
    expect((await call('GET', '/api/user/me', undefined, stranger.accessToken)).body.code).toBe(0);

    expect((await call('POST', '/api/user/sessions/revoke', { id: otherSession.id })).body.code).toBe(0);
    expect((await call('GET', '/api/user/me', undefined, second.body.data.accessToken)).status).toBe(401);
    expect((await call('GET', '/api/user/sessions')).body.data).toHaveLength(1);

    // The current one: a logout.
    expect((await call('POST', '/api/user/sessions/revoke', { id: current[0].id })).body.code).toBe(0);
    expect((await call('GET', '/api/user/me')).status).toBe(401);
    expect((await server.call('PUT', '/api/user/refresh', { refreshToken: session.refreshToken })).body.code).toBe(11005);
  });
});
