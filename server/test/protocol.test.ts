import { sql } from 'kysely';
import { SignJWT, decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/api/errors';
import { DEV_SIGN_SECRET, SIGN_WINDOW_SECONDS, signBody, unixSeconds } from '../../src/api/signing';
import { createAccessTokens } from '../src/http/auth';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';

/**
 * The wire protocol (design section 4): signed calls, the `{code, message,
 * data}` envelope of every answer, the HTTP statuses, and the API document.
 */

const PASSWORD = 'Sturdy-Passw0rd!';
const LOGIN = '/api/user/login';

const credentials = { email: 'signer@example.com', password: PASSWORD };

describe.each(BACKENDS)('signed calls (%s)', (backend) => {
  let server: TestServer;
  afterEach(async () => server?.close());

  it('accepts a correctly signed call and refuses its replay with 10007', async () => {
    server = await startServer(backend);
    await registerUser(server, { email: credentials.email });
    const raw = JSON.stringify(signBody('POST', LOGIN, credentials, DEV_SIGN_SECRET));
    const first = await server.call('POST', LOGIN, undefined, { raw });
    expect(first.body.code).toBe(0);
    const replay = await server.call('POST', LOGIN, undefined, { raw });
    expect(replay.status).toBe(200);
    expect(replay.body.code).toBe(ErrorCode.ALREADY_EXISTS);
    expect(replay.body.data).toBeNull();
    // A fresh uuid with the same content goes through.
    expect((await server.call('POST', LOGIN, credentials)).body.code).toBe(0);
  });

  it('refuses a replay even when the first call was refused for its content', async () => {
    server = await startServer(backend);
    const uuid = 'a'.repeat(32);
    const first = await server.call('POST', LOGIN, { email: 'nobody@example.com', password: 'Wrong-Passw0rd' }, { signAt: { uuid } });
    expect(first.body.code).toBe(ErrorCode.PASSWORD_ERROR);
    const second = await server.call('POST', LOGIN, { email: 'nobody@example.com', password: 'Other-Passw0rd' }, { signAt: { uuid } });
    expect(second.body.code).toBe(ErrorCode.ALREADY_EXISTS);
  });

  it('refuses a timestamp outside the window with 10002, either side', async () => {
    server = await startServer(backend);
    await registerUser(server, { email: credentials.email });
    const now = unixSeconds();
    const stale = await server.call('POST', LOGIN, credentials, { signAt: { timestamp: now - 120 } });
    expect(stale.status).toBe(200);
    expect(stale.body.code).toBe(ErrorCode.PARAM_RANGE);
    const future = await server.call('POST', LOGIN, credentials, { signAt: { timestamp: now + 120 } });
    expect(future.body.code).toBe(ErrorCode.PARAM_RANGE);
    const inside = await server.call('POST', LOGIN, credentials, { signAt: { timestamp: now - SIGN_WINDOW_SECONDS + 10 } });
    expect(inside.body.code).toBe(0);
  });

  it('judges the timestamp by the server clock', async () => {
    const serverNow = Date.now() + 10 * 60_000;
    server = await startServer(backend, {}, { now: () => serverNow });
    const late = await server.call('POST', LOGIN, credentials);
    expect(late.body.code).toBe(ErrorCode.PARAM_RANGE);
    const onTime = await server.call('POST', LOGIN, { email: 'x@example.com', password: PASSWORD }, { signAt: { timestamp: unixSeconds(serverNow) } });
    expect(onTime.body.code).toBe(ErrorCode.PASSWORD_ERROR);
  });

  it('refuses a key field changed after signing with 10008', async () => {
    server = await startServer(backend);
    await registerUser(server, { email: credentials.email });
    await registerUser(server, { email: 'victim@example.com', password: 'Victim-Passw0rd!' });
    const signed = signBody('POST', LOGIN, credentials, DEV_SIGN_SECRET);
    const tampered = await server.call('POST', LOGIN, undefined, {
      raw: JSON.stringify({ ...signed, email: 'victim@example.com', password: 'Victim-Passw0rd!' }),
    });
    expect(tampered.status).toBe(200);
    expect(tampered.body.code).toBe(ErrorCode.INVALID);
    expect(tampered.body.data).toBeNull();
    const otherTimestamp = await server.call('POST', LOGIN, undefined, { raw: JSON.stringify({ ...signed, timestamp: signed.timestamp - 1 }) });
    expect(otherTimestamp.body.code).toBe(ErrorCode.INVALID);
    const otherUuid = await server.call('POST', LOGIN, undefined, { raw: JSON.stringify({ ...signed, uuid: 'b'.repeat(32) }) });
    expect(otherUuid.body.code).toBe(ErrorCode.INVALID);
    // The untampered body still works: refused attempts did not burn its uuid.
    expect((await server.call('POST', LOGIN, undefined, { raw: JSON.stringify(signed) })).body.code).toBe(0);
  });

  it('refuses a sign made with another secret with 10008', async () => {
    server = await startServer(backend);
    const raw = JSON.stringify(signBody('POST', LOGIN, credentials, 'some-other-secret'));
    expect((await server.call('POST', LOGIN, undefined, { raw })).body.code).toBe(ErrorCode.INVALID);
  });

  it('refuses a call without sign, uuid or timestamp with 10000', async () => {
    server = await startServer(backend);
    const signed = signBody('POST', LOGIN, credentials, DEV_SIGN_SECRET);
    for (const field of ['sign', 'uuid', 'timestamp'] as const) {
      const body: Record<string, unknown> = { ...signed };
      delete body[field];
      const answer = await server.call('POST', LOGIN, undefined, { raw: JSON.stringify(body) });
      expect(answer.status).toBe(200);
      expect(answer.body.code).toBe(ErrorCode.PARAM_REQUIRED);
      expect(answer.body.data).toMatchObject({ field });
    }
    const unsigned = await server.call('POST', LOGIN, credentials, { sign: false });
    expect(unsigned.body.code).toBe(ErrorCode.PARAM_REQUIRED);
  });

  it('refuses a malformed sign or uuid with 10003', async () => {
    server = await startServer(backend);
    const signed = signBody('POST', LOGIN, credentials, DEV_SIGN_SECRET);
    const upper = await server.call('POST', LOGIN, undefined, { raw: JSON.stringify({ ...signed, sign: signed.sign.toUpperCase() }) });
    expect(upper.body.code).toBe(ErrorCode.PARAM_FORMAT);
    const dashed = await server.call('POST', LOGIN, undefined, { raw: JSON.stringify({ ...signed, uuid: crypto.randomUUID() }) });
    expect(dashed.body.code).toBe(ErrorCode.PARAM_FORMAT);
  });

  it('refuses a body signed for another call with 10008', async () => {
    server = await startServer(backend);
    await registerUser(server, { email: credentials.email });
    for (const [method, path] of [
      ['POST', '/api/user/register'],
      ['POST', '/api/user/verify-code'],
      ['PUT', '/api/user/refresh'],
    ] as const) {
      const signed = signBody(method, path, credentials, DEV_SIGN_SECRET);
      const answer = await server.call('POST', LOGIN, undefined, { raw: JSON.stringify(signed) });
      expect(answer.body.code).toBe(ErrorCode.INVALID);
    }
  });
});

describe.each(BACKENDS)('envelope and statuses (%s)', (backend) => {
  let server: TestServer;
  afterEach(async () => server?.close());

  it('answers an unknown route with 404 and code 10006', async () => {
    server = await startServer(backend);
    for (const [method, path] of [
      ['GET', '/api/user/nothing-here'],
      ['POST', '/api/nope'],
      ['DELETE', '/api/user/login'],
    ] as const) {
      const answer = await server.call(method, path);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: ErrorCode.PARAM_NOT_EXIST, data: null });
      expect(answer.body.message).toContain(path);
    }
  });

  it('answers malformed JSON with 400 and code 10003', async () => {
    server = await startServer(backend);
    for (const raw of ['{"email": ', '{email: "a@example.com"}', 'null x']) {
      const answer = await server.call('POST', LOGIN, undefined, { raw });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: ErrorCode.PARAM_FORMAT, data: null });
    }
  });

  it('answers a body of another media type with 415 and code 10003 (plain text: 10001)', async () => {
    server = await startServer(backend);
    for (const type of ['application/x-www-form-urlencoded', 'application/xml']) {
      const answer = await server.call('POST', LOGIN, undefined, { raw: 'email=a', headers: { 'Content-Type': type } });
      expect(answer.status).toBe(415);
      expect(answer.body).toMatchObject({ code: ErrorCode.PARAM_FORMAT, data: null });
    }
    // Plain text is parsed as a string, which is not the object the call takes.
    const text = await server.call('POST', LOGIN, undefined, { raw: 'email=a', headers: { 'Content-Type': 'text/plain' } });
    expect(text.status).toBe(200);
    expect(text.body.code).toBe(ErrorCode.PARAM_TYPE);
  });

  it('answers a body over 64 KB with 413 and code 10005', async () => {
    server = await startServer(backend);
    const raw = JSON.stringify(signBody('POST', LOGIN, { email: 'big@example.com', password: 'x'.repeat(70 * 1024) }, DEV_SIGN_SECRET));
    const answer = await server.call('POST', LOGIN, undefined, { raw });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ code: ErrorCode.PARAM_SIZE, data: null });
    // The server is still serving.
    expect((await server.call('POST', LOGIN, { email: 'big@example.com', password: 'x' })).body.code).toBe(ErrorCode.PASSWORD_ERROR);
  });

  it('answers wrong types with 10001, never 500', async () => {
    server = await startServer(backend);
    const cases: Record<string, unknown>[] = [
      { email: 'a@example.com', password: 123 },
      { email: ['a'], password: PASSWORD },
      { email: { address: 'a@example.com' }, password: PASSWORD },
      { email: null, password: PASSWORD },
      { email: 'a@example.com', password: true },
    ];
    for (const body of cases) {
      const answer = await server.call('POST', LOGIN, body);
      expect(answer.status).toBe(200);
      expect(answer.body.code).toBe(ErrorCode.PARAM_TYPE);
    }
    const timestampText = signBody('POST', LOGIN, credentials, DEV_SIGN_SECRET);
    const asText = await server.call('POST', LOGIN, undefined, { raw: JSON.stringify({ ...timestampText, timestamp: String(timestampText.timestamp) }) });
    expect(asText.body.code).toBe(ErrorCode.PARAM_TYPE);
    const notObject = await server.call('POST', LOGIN, undefined, { raw: '["a@example.com"]' });
    expect(notObject.status).toBe(200);
    expect(notObject.body.code).toBe(ErrorCode.PARAM_TYPE);
    const refresh = await server.call('PUT', '/api/user/refresh', { refreshToken: 12345678901234567890 });
    expect(refresh.body.code).toBe(ErrorCode.PARAM_TYPE);
    const register = await server.call('POST', '/api/user/register', {
      email: 'a@example.com',
      nickname: 'Nick',
      password: PASSWORD,
      secondPassword: PASSWORD,
      captcha: '123456',
      rememberMe: 'yes',
    });
    expect(register.body.code).toBe(ErrorCode.PARAM_TYPE);
  });

  it('answers an unknown field with 10008 naming it', async () => {
    server = await startServer(backend);
    const answer = await server.call('POST', LOGIN, { ...credentials, isAdmin: true });
    expect(answer.status).toBe(200);
    expect(answer.body.code).toBe(ErrorCode.INVALID);
    expect(answer.body.data).toMatchObject({ field: 'isAdmin' });
  });

  it('answers an unexpected failure with 500, code 99999 and an error id found in the log', async () => {
    server = await startServer(backend);
    await registerUser(server, { email: credentials.email });
    await sql`drop table users cascade`.execute(server.db);
    const answer = await server.call('POST', LOGIN, credentials);
    expect(answer.status).toBe(500);
    expect(answer.body.code).toBe(ErrorCode.UNDEFINED_ERROR);
    const errorId: string = answer.body.data.errorId;
    expect(errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(answer.body.data)).toEqual(['errorId']);
    const text = JSON.stringify(answer.body);
    expect(text).not.toMatch(/\bat .*\(|\.ts:\d+|node_modules|stack/);
    expect(text).not.toMatch(/relation|users|select/i);
    const logged = server.logs.filter((line) => line.includes(errorId));
    expect(logged.length).toBeGreaterThan(0);
    // The log has what the operator needs: the cause and its stack.
    expect(logged.join('\n')).toMatch(/users/);
    expect(JSON.parse(logged[0]!)).toMatchObject({ level: 50, errorId });
  });

  it('uses HTTP 401 only for a missing, invalid or expired access token', async () => {
    server = await startServer(backend);
    const session = await registerUser(server, { email: 'bearer@example.com' });
    const me = (headers: Record<string, string>) => server.call('GET', '/api/user/me', undefined, { headers });
    const claims = decodeJwt(session.accessToken);

    expect((await me({ Authorization: `Bearer ${session.accessToken}` })).status).toBe(200);

    const foreign = await new SignJWT({ sid: claims.sid, role: 'operator' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.sub))
      .setIssuer('quant-trader')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('another-secret-of-at-least-32-characters!'));
    const nowSeconds = Math.floor(Date.now() / 1000);
    const expired = await createAccessTokens(server.config.tokenSecret, 5).issue(
      { id: String(claims.sub), sessionId: String(claims.sid), role: 'user' },
      nowSeconds - 60,
    );
    const [header, , signature] = session.accessToken.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, role: 'operator' })).toString('base64url');
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${session.accessToken.split('.')[1]}.`;

    const refusals: Record<string, string>[] = [
      {},
      { Authorization: '' },
      { Authorization: 'Bearer ' },
      { Authorization: session.accessToken },
      { Authorization: `Basic ${session.accessToken}` },
      { Authorization: 'Bearer not-a-token' },
      { Authorization: `Bearer ${foreign}` },
      { Authorization: `Bearer ${expired}` },
      { Authorization: `Bearer ${header}.${forgedPayload}.${signature}` },
      { Authorization: `Bearer ${unsigned}` },
    ];
    for (const headers of refusals) {
      const answer = await me(headers);
      expect(answer.status, JSON.stringify(headers)).toBe(401);
      expect(answer.body).toMatchObject({ code: ErrorCode.UNAUTHORIZED, data: null });
    }

    // Business refusals and validation failures are HTTP 200.
    expect((await server.call('POST', LOGIN, { email: 'bearer@example.com', password: 'Wrong-Passw0rd' })).status).toBe(200);
    expect((await server.call('PUT', '/api/user/refresh', { refreshToken: 'z'.repeat(40) })).status).toBe(200);
    expect((await server.call('POST', LOGIN, { email: 'bearer@example.com' })).status).toBe(200);
  });

  it('answers every success as {code: 0, message, data}', async () => {
    server = await startServer(backend);
    const sent = await server.call('POST', '/api/user/verify-code', { email: 'shape@example.com', type: 'register' });
    expect(Object.keys(sent.body).sort()).toEqual(['code', 'data', 'message']);
    expect(sent.body).toMatchObject({ code: 0, message: 'ok' });
    const refused = await server.call('POST', LOGIN, { email: 'shape@example.com', password: 'Wrong-Passw0rd' });
    expect(Object.keys(refused.body).sort()).toEqual(['code', 'data', 'message']);
    expect(refused.body.message.length).toBeGreaterThan(0);
  });

  it('publishes an OpenAPI document listing the user calls', async () => {
    server = await startServer(backend);
    const response = await fetch(`${server.base}/api/openapi.json`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths['/api/user/login']!)).toContain('post');
    expect(Object.keys(doc.paths['/api/user/register']!)).toContain('post');
    expect(Object.keys(doc.paths['/api/user/verify-code']!)).toContain('post');
    expect(Object.keys(doc.paths['/api/user/reset-password']!)).toContain('post');
    expect(Object.keys(doc.paths['/api/user/logout']!)).toContain('post');
    expect(Object.keys(doc.paths['/api/user/refresh']!)).toContain('put');
    expect(Object.keys(doc.paths['/api/user/me']!)).toContain('get');
    expect(doc.paths['/api/openapi.json']).toBeUndefined();
  });
});
