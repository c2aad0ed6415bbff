import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/api/errors';
import { BACKENDS, startServer, type TestServer } from './harness';

/**
 * Passwords, verification codes and tokens never reach the log, and the
 * database keeps only hashes of them.
 */

const EMAIL = 'secretive@example.com';
const PASSWORD = 'Plain-Text-Passw0rd-1';
const WRONG_PASSWORD = 'Wrong-Guess-Passw0rd-2';
const NEW_PASSWORD = 'Brand-New-Passw0rd-3';

/** Every row of every account table as JSON text. */
const databaseText = async (server: TestServer): Promise<string> => {
  const tables = ['users', 'verification_codes', 'sessions', 'refresh_tokens', 'request_nonces', 'throttle_counters'];
  const parts: string[] = [];
  for (const table of tables) {
    const { rows } = await sql<{ row: unknown }>`select row_to_json(t) as row from ${sql.table(table)} t`.execute(server.db);
    parts.push(JSON.stringify(rows.map((r) => r.row)));
  }
  return parts.join('\n');
};

const ok = <T extends { body: { code: number } }>(answer: T): T => {
  expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
  return answer;
};

describe.each(BACKENDS)('secrets (%s)', (backend) => {
  let server: TestServer;
  afterEach(async () => server?.close());

  it.each(['info', 'trace'])('keeps passwords, codes and tokens out of the log at level %s and stores only hashes', async (logLevel) => {
    server = await startServer(backend, { logLevel });
    const secrets: Record<string, string> = {
      password: PASSWORD,
      wrongPassword: WRONG_PASSWORD,
      newPassword: NEW_PASSWORD,
    };

    ok(await server.call('POST', '/api/user/verify-code', { email: EMAIL, type: 'register' }));
    secrets.registerCode = server.lastCode(EMAIL);
    // A wrong code first, then the right one.
    const wrongCode = String((Number(secrets.registerCode) + 1) % 1_000_000).padStart(6, '0');
    const base = { email: EMAIL, nickname: 'Secretive', password: PASSWORD, secondPassword: PASSWORD, inviteCode: '', rememberMe: true };
    expect((await server.call('POST', '/api/user/register', { ...base, captcha: wrongCode })).body.code).toBe(ErrorCode.CAPTCHA_ERROR);
    const registered = ok(await server.call('POST', '/api/user/register', { ...base, captcha: secrets.registerCode })).body.data;
    secrets.registerAccess = registered.accessToken;
    secrets.registerRefresh = registered.refreshToken;

    expect((await server.call('POST', '/api/user/login', { email: EMAIL, password: WRONG_PASSWORD })).body.code).toBe(ErrorCode.PASSWORD_ERROR);
    const loggedIn = ok(await server.call('POST', '/api/user/login', { email: EMAIL, password: PASSWORD })).body.data;
    secrets.loginAccess = loggedIn.accessToken;
    secrets.loginRefresh = loggedIn.refreshToken;

    const refreshed = ok(await server.call('PUT', '/api/user/refresh', { refreshToken: loggedIn.refreshToken })).body.data;
    secrets.refreshedAccess = refreshed.accessToken;
    secrets.refreshedRefresh = refreshed.refreshToken;
    ok(await server.call('GET', '/api/user/me', undefined, { token: refreshed.accessToken }));
    ok(await server.call('POST', '/api/user/logout', undefined, { token: refreshed.accessToken }));
    // Refused uses of tokens are logged without them too.
    expect((await server.call('PUT', '/api/user/refresh', { refreshToken: refreshed.refreshToken })).body.code).toBe(ErrorCode.UNAUTHORIZED);
    expect((await server.call('GET', '/api/user/me', undefined, { token: refreshed.accessToken })).status).toBe(401);

    await server.db.deleteFrom('throttle_counters').where('key', 'like', 'code:%').execute();
    ok(await server.call('POST', '/api/user/verify-code', { email: EMAIL, type: 'reset' }));
    secrets.resetCode = server.lastCode(EMAIL);
    ok(await server.call('POST', '/api/user/reset-password', { email: EMAIL, newPassword: NEW_PASSWORD, captcha: secrets.resetCode }));
    const afterReset = ok(await server.call('POST', '/api/user/login', { email: EMAIL, password: NEW_PASSWORD })).body.data;
    secrets.finalAccess = afterReset.accessToken;
    secrets.finalRefresh = afterReset.refreshToken;

    // The server did log the flow (the check below is not vacuous).
    const log = server.logs.join('');
    expect(log).toMatch(/\/api\/user\/reset-password/);
    expect(log).toMatch(/mail written to the outbox/);
    expect(log).not.toContain(EMAIL);
    for (const [name, secret] of Object.entries(secrets)) {
      const leaks = server.logs.filter((line) => line.includes(secret));
      expect(leaks, `${name} appears in the log`).toEqual([]);
    }

    const rows = await server.db.selectFrom('users').select('password_hash').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.password_hash.startsWith('scrypt$')).toBe(true);

    const codes = await server.db.selectFrom('verification_codes').select(['code_hash', 'purpose']).execute();
    expect(codes.map((c) => c.purpose).sort()).toEqual(['register', 'reset']);
    for (const { code_hash } of codes) {
      expect(code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(code_hash).not.toContain(secrets.registerCode);
      expect(code_hash).not.toContain(secrets.resetCode);
    }

    const tokens = await server.db.selectFrom('refresh_tokens').select('token_hash').execute();
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    for (const { token_hash } of tokens) expect(token_hash).toMatch(/^[0-9a-f]{64}$/);

    const stored = await databaseText(server);
    for (const name of ['password', 'wrongPassword', 'newPassword', 'registerAccess', 'registerRefresh', 'loginAccess', 'loginRefresh', 'refreshedAccess', 'refreshedRefresh', 'finalAccess', 'finalRefresh']) {
      expect(stored.includes(secrets[name]!), `${name} is stored in the database`).toBe(false);
    }
  });

  it('logs an unexpected failure without the password of the request', async () => {
    server = await startServer(backend);
    await sql`drop table users cascade`.execute(server.db);
    const answer = await server.call('POST', '/api/user/login', { email: EMAIL, password: PASSWORD });
    expect(answer.body.code).toBe(ErrorCode.UNDEFINED_ERROR);
    expect(server.logs.some((line) => line.includes(answer.body.data.errorId))).toBe(true);
    expect(server.logs.filter((line) => line.includes(PASSWORD))).toEqual([]);
  });
});
