import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/api/errors';
import { decodeMail, registerUser, startServer, type TestServer } from './harness';

/**
 * The account calls (spec section 7, error catalogue of section 8): every
 * call's success and each refusal it can give, against a real server and a
 * real database. A file per database (accounts.pglite.test.ts,
 * accounts.postgres.test.ts), so the two halves run on two workers at once.
 */

const PASSWORD = 'Sturdy-Passw0rd!';
const NEW_PASSWORD = 'Another-Str0ng-Secret';

/** The Subject header of an .eml with its MIME encoded words decoded. */
const subjectOf = (eml: string): string => {
  const head = eml.split(/\r?\n\r?\n/)[0] ?? '';
  const raw = head.match(/^Subject: (.*(?:\r?\n[ \t].*)*)/m)?.[1] ?? '';
  return raw
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_all, kind: string, text: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeURIComponent(text.replace(/_/g, ' ').replace(/=([0-9a-f]{2})/gi, '%$1')),
    )
    .trim();
};

/** Mails in the outbox addressed to one address. */
const mailsTo = (server: TestServer, email: string) => server.outbox().filter((eml) => eml.includes(`To: ${email}`));

/**
 * Sending codes is limited per address (1 a minute); tests that need another
 * code for an address within the minute forget the earlier sends.
 */
const forgetCodeSends = async (server: TestServer) => {
  await server.db.deleteFrom('throttle_counters').where('key', 'like', 'code:%').execute();
};

const sendCode = (server: TestServer, email: string, type: 'register' | 'reset', language = 'zh-CN') =>
  server.call('POST', '/api/user/verify-code', { email, type }, { headers: { 'Accept-Language': language } });

const registerBody = (email: string, captcha: string, overrides: Record<string, unknown> = {}) => ({
  email,
  nickname: 'Trader',
  password: PASSWORD,
  secondPassword: PASSWORD,
  captcha,
  inviteCode: '',
  rememberMe: true,
  ...overrides,
});

const login = (server: TestServer, email: string, password: string) =>
  server.call('POST', '/api/user/login', { email, password });

const userCount = async (server: TestServer) =>
  Number((await server.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

/** A 6-digit code that is not the given one. */
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** Opening an account: verify-code and register. */
export const describeAccountCalls = (backend: 'pglite' | 'postgres') => {
  describe(`verify-code (${backend})`, () => {
    let server: TestServer;
    afterEach(async () => server?.close());

    it('mails a register code in the language of the request', async () => {
      server = await startServer(backend);
      const languages = [
        ['zh-CN', 'cn@example.com', '量化交易注册验证码'],
        ['en-US', 'us@example.com', 'Your Quant Trader sign-up code'],
        ['zh-TW', 'tw@example.com', '量化交易註冊驗證碼'],
      ] as const;
      for (const [language, email] of languages) {
        const answer = await sendCode(server, email, 'register', language);
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ code: 0, data: { expiresIn: 600, resendAfter: 60 } });
      }
      const subjects = languages.map(([, email, subject]) => {
        const mails = mailsTo(server, email);
        expect(mails).toHaveLength(1);
        expect(subjectOf(mails[0]!)).toBe(subject);
        expect(decodeMail(mails[0]!)).toMatch(/\b\d{6}\b/);
        return subjectOf(mails[0]!);
      });
      expect(new Set(subjects).size).toBe(3);
    });

    it('falls back to zh-CN for an unsupported language and ranks by quality', async () => {
      server = await startServer(backend);
      expect((await sendCode(server, 'fr@example.com', 'register', 'fr-FR')).body.code).toBe(0);
      expect((await sendCode(server, 'q@example.com', 'register', 'fr;q=1, en-US;q=0.9, zh-CN;q=0.5')).body.code).toBe(0);
      expect(subjectOf(mailsTo(server, 'fr@example.com')[0]!)).toBe('量化交易注册验证码');
      expect(subjectOf(mailsTo(server, 'q@example.com')[0]!)).toBe('Your Quant Trader sign-up code');
    });

    it('refuses a register code for a taken email with 10007 and sends nothing', async () => {
      server = await startServer(backend);
      await registerUser(server, { email: 'taken@example.com' });
      await forgetCodeSends(server);
      const before = server.outbox().length;
      const answer = await sendCode(server, 'Taken@Example.com', 'register');
      expect(answer.status).toBe(200);
      expect(answer.body.code).toBe(ErrorCode.ALREADY_EXISTS);
      expect(server.outbox()).toHaveLength(before);
    });

    it('answers a reset for an unknown email like any other but mails nothing', async () => {
      server = await startServer(backend);
      await registerUser(server, { email: 'known@example.com' });
      await forgetCodeSends(server);
      const before = server.outbox().length;

      const unknown = await sendCode(server, 'nobody@example.com', 'reset');
      const known = await sendCode(server, 'known@example.com', 'reset');
      expect(unknown.body.code).toBe(0);
      expect(known.body.code).toBe(0);
      // Same answer whether or not the address is registered.
      expect(unknown.body).toEqual(known.body);
      expect(mailsTo(server, 'nobody@example.com')).toHaveLength(0);
      expect(server.outbox()).toHaveLength(before + 1);
      expect(subjectOf(mailsTo(server, 'known@example.com').at(-1)!)).toBe('量化交易找回密码验证码');
      const stored = await server.db.selectFrom('verification_codes').select('email').where('email', '=', 'nobody@example.com').execute();
      expect(stored).toHaveLength(0);
    });

    it('refuses a type outside the enum (10008), a bad email (10003) and a missing field (10000)', async () => {
      server = await startServer(backend);
      const badType = await server.call('POST', '/api/user/verify-code', { email: 'a@example.com', type: 'login' });
      expect(badType.status).toBe(200);
      expect(badType.body.code).toBe(ErrorCode.INVALID);
      const badEmail = await server.call('POST', '/api/user/verify-code', { email: 'not-an-email', type: 'register' });
      expect(badEmail.body.code).toBe(ErrorCode.PARAM_FORMAT);
      expect(badEmail.body.data).toMatchObject({ field: 'email' });
      const missing = await server.call('POST', '/api/user/verify-code', { email: 'a@example.com' });
      expect(missing.body.code).toBe(ErrorCode.PARAM_REQUIRED);
      expect(missing.body.data).toMatchObject({ field: 'type' });
      expect(server.outbox()).toHaveLength(0);
    });

    it('sends at most one code a minute to one address (10009 with the seconds to wait)', async () => {
      server = await startServer(backend);
      expect((await sendCode(server, 'rate@example.com', 'register')).body.code).toBe(0);
      const again = await sendCode(server, 'rate@example.com', 'register');
      expect(again.body.code).toBe(ErrorCode.TOO_MANY_REQUESTS);
      expect(again.body.data.retryAfter).toBeGreaterThan(0);
      expect(again.body.data.retryAfter).toBeLessThanOrEqual(60);
      expect(mailsTo(server, 'rate@example.com')).toHaveLength(1);
    });
  });

  describe(`register (${backend})`, () => {
    let server: TestServer;
    afterEach(async () => {
      await server?.close();
      server = undefined as unknown as TestServer;
    });

    /** Sends a register code to the address and returns it. */
    const codeFor = async (email: string) => {
      expect((await sendCode(server, email, 'register')).body.code).toBe(0);
      return server.lastCode(email);
    };
    const register = (body: Record<string, unknown>) => server.call('POST', '/api/user/register', body);

    it('creates the account and answers like login', async () => {
      server = await startServer(backend);
      const captcha = await codeFor('new@example.com');
      const answer = await register(registerBody('New@Example.com', captcha, { nickname: '  新用户  ' }));
      expect(answer.status).toBe(200);
      expect(answer.body.code).toBe(0);
      const { accessToken, refreshToken, user } = answer.body.data;
      expect(typeof accessToken).toBe('string');
      expect(accessToken.split('.')).toHaveLength(3);
      expect(typeof refreshToken).toBe('string');
      expect(refreshToken.length).toBeGreaterThanOrEqual(20);
      expect(user).toMatchObject({ email: 'new@example.com', nickname: '新用户', avatar: null, level: 0, activated: false, role: 'user' });
      expect(user.inviteCode).toMatch(/^[A-Z2-9]{8}$/);
      expect(user.password_hash).toBeUndefined();

      // The same shape as a login answer, and the tokens work.
      const loggedIn = await login(server, 'new@example.com', PASSWORD);
      expect(loggedIn.body.code).toBe(0);
      expect(Object.keys(loggedIn.body.data).sort()).toEqual(Object.keys(answer.body.data).sort());
      expect(Object.keys(loggedIn.body.data.user).sort()).toEqual(Object.keys(user).sort());
      const me = await server.call('GET', '/api/user/me', undefined, { token: accessToken });
      expect(me.body).toMatchObject({ code: 0, data: { id: user.id, email: 'new@example.com' } });
      const refreshed = await server.call('PUT', '/api/user/refresh', { refreshToken });
      expect(refreshed.body.code).toBe(0);
    });

    it('refuses two different passwords with 10008 without using up the code', async () => {
      server = await startServer(backend);
      const captcha = await codeFor('differ@example.com');
      const answer = await register(registerBody('differ@example.com', captcha, { secondPassword: 'Sturdy-Passw0rd?' }));
      expect(answer.body.code).toBe(ErrorCode.INVALID);
      expect(answer.body.data).toMatchObject({ field: 'secondPassword' });
      expect(await userCount(server)).toBe(0);
      expect((await register(registerBody('differ@example.com', captcha))).body.code).toBe(0);
    });

    it.each(['password123', '12345678', 'PASSWORD123'])('refuses the common password %s with 10008', async (password) => {
      server = await startServer(backend);
      const captcha = await codeFor('common@example.com');
      const answer = await register(registerBody('common@example.com', captcha, { password, secondPassword: password }));
      expect(answer.body.code).toBe(ErrorCode.INVALID);
      expect(answer.body.data).toMatchObject({ field: 'password', rule: 'common' });
      expect(await userCount(server)).toBe(0);
    });

    it('refuses the email itself or its local part as the password with 10008', async () => {
      server = await startServer(backend);
      const captcha = await codeFor('somebody.long@example.com');
      for (const password of ['somebody.long@example.com', 'Somebody.Long']) {
        const answer = await register(registerBody('somebody.long@example.com', captcha, { password, secondPassword: password }));
        expect(answer.body.code).toBe(ErrorCode.INVALID);
      }
    });

    it('refuses a too short password with 10004 and a too long nickname with 10004', async () => {
      server = await startServer(backend);
      const captcha = await codeFor('short@example.com');
      const short = await register(registerBody('short@example.com', captcha, { password: 'Ab1!x', secondPassword: 'Ab1!x' }));
      expect(short.body.code).toBe(ErrorCode.PARAM_LENGTH);
      expect(short.body.data).toMatchObject({ field: 'password' });
      const longName = await register(registerBody('short@example.com', captcha, { nickname: 'N'.repeat(21) }));
      expect(longName.body.code).toBe(ErrorCode.PARAM_LENGTH);
      expect(longName.body.data).toMatchObject({ field: 'nickname' });
      // Blank padding does not make a nickname long enough.
      const blank = await register(registerBody('short@example.com', captcha, { nickname: ' a ' }));
      expect(blank.body.code).toBe(ErrorCode.PARAM_LENGTH);
      // Invisible formatting cannot disguise a name: a right-to-left override, a zero-width space.
      for (const nickname of ['abc\u202Egpj.exe', 'ad\u200Bmin']) {
        const hidden = await register(registerBody('short@example.com', captcha, { nickname }));
        expect(hidden.body.code).not.toBe(0);
        expect(hidden.body.data).toMatchObject({ field: 'nickname' });
      }
      expect(await userCount(server)).toBe(0);
      expect((await register(registerBody('short@example.com', captcha, { nickname: 'N'.repeat(20) }))).body.code).toBe(0);
    });

    it('refuses a taken email with 10007', async () => {
      server = await startServer(backend);
      await registerUser(server, { email: 'first@example.com' });
      const answer = await register(registerBody('FIRST@example.com', '123456'));
      expect(answer.body.code).toBe(ErrorCode.ALREADY_EXISTS);
      expect(answer.body.data).toMatchObject({ field: 'email' });
      expect(await userCount(server)).toBe(1);
    });

    it('refuses an unknown invite code with 10006', async () => {
      server = await startServer(backend);
      const captcha = await codeFor('invited@example.com');
      const answer = await register(registerBody('invited@example.com', captcha, { inviteCode: 'NOSUCH22' }));
      expect(answer.body.code).toBe(ErrorCode.PARAM_NOT_EXIST);
      expect(answer.body.data).toMatchObject({ field: 'inviteCode' });
      expect(await userCount(server)).toBe(0);
    });

    it('places a user registered with an invite code under the inviter', async () => {
      server = await startServer(backend);
      const inviter = await registerUser(server, { email: 'inviter@example.com' });
      const invitee = await registerUser(server, { email: 'invitee@example.com', inviteCode: inviter.user.inviteCode.toLowerCase() });
      const loner = await registerUser(server, { email: 'loner@example.com' });
      const rows = await server.db.selectFrom('users').select(['id', 'inviter_id']).execute();
      const inviterOf = new Map(rows.map((row) => [row.id, row.inviter_id]));
      expect(inviterOf.get(invitee.user.id)).toBe(inviter.user.id);
      expect(inviterOf.get(inviter.user.id)).toBeNull();
      expect(inviterOf.get(loner.user.id)).toBeNull();
      expect(new Set([inviter.user.inviteCode, invitee.user.inviteCode, loner.user.inviteCode]).size).toBe(3);
    });

    it('refuses a wrong code with 10101 and kills the code after 5 wrong tries', async () => {
      server = await startServer(backend);
      const captcha = await codeFor('guess@example.com');
      const wrong = otherCode(captcha);
      for (let attempt = 1; attempt <= 5; attempt++) {
        const answer = await register(registerBody('guess@example.com', wrong));
        expect(answer.body.code).toBe(ErrorCode.CAPTCHA_ERROR);
        expect(answer.body.data).toEqual({ attemptsLeft: 5 - attempt });
      }
      const right = await register(registerBody('guess@example.com', captcha));
      expect(right.body.code).toBe(ErrorCode.CAPTCHA_EXPIRED);
      expect(await userCount(server)).toBe(0);
    });

    it('refuses an expired code with 10100', async () => {
      server = await startServer(backend);
      const captcha = await codeFor('late@example.com');
      await server.db.updateTable('verification_codes').set({ expires_at: new Date(Date.now() - 1000) }).execute();
      const answer = await register(registerBody('late@example.com', captcha));
      expect(answer.body.code).toBe(ErrorCode.CAPTCHA_EXPIRED);
      expect(await userCount(server)).toBe(0);
    });

    it('refuses a code for another address or purpose with 10100', async () => {
      server = await startServer(backend);
      const captcha = await codeFor('owner@example.com');
      expect((await register(registerBody('thief@example.com', captcha))).body.code).toBe(ErrorCode.CAPTCHA_EXPIRED);
      expect(await userCount(server)).toBe(0);
    });

    it('accepts a code once (a second register with it gets 10100)', async () => {
      server = await startServer(backend);
      const captcha = await codeFor('once@example.com');
      expect((await register(registerBody('once@example.com', captcha))).body.code).toBe(0);
      // Another address cannot reuse it either; the same address is taken by now.
      const again = await register(registerBody('once@example.com', captcha));
      expect(again.body.code).toBe(ErrorCode.ALREADY_EXISTS);
      await server.db.deleteFrom('refresh_tokens').execute();
      await server.db.deleteFrom('sessions').execute();
      await server.db.deleteFrom('users').execute();
      const afterDelete = await register(registerBody('once@example.com', captcha));
      expect(afterDelete.body.code).toBe(ErrorCode.CAPTCHA_EXPIRED);
    });

    it('only the newest code of an address works', async () => {
      server = await startServer(backend);
      const first = await codeFor('twice@example.com');
      await forgetCodeSends(server);
      const second = await codeFor('twice@example.com');
      if (first !== second) {
        expect((await register(registerBody('twice@example.com', first))).body.code).toBe(ErrorCode.CAPTCHA_ERROR);
      }
      expect((await register(registerBody('twice@example.com', second))).body.code).toBe(0);
    });

    // Malformed bodies are refused before anything is stored or counted: one server for them all, and each
    // case checks that nothing was stored.
    describe('malformed bodies', () => {
      let shared: TestServer;
      beforeAll(async () => {
        shared = await startServer(backend);
      });
      afterAll(async () => shared?.close());
      const refused = async (body: Record<string, unknown>) => {
        const answer = await shared.call('POST', '/api/user/register', body);
        expect(await userCount(shared)).toBe(0);
        return answer;
      };

      it.each(['email', 'nickname', 'password', 'secondPassword', 'captcha'])('refuses a body without %s with 10000', async (field) => {
        const body: Record<string, unknown> = registerBody('missing@example.com', '123456');
        delete body[field];
        const answer = await refused(body);
        expect(answer.status).toBe(200);
        expect(answer.body.code).toBe(ErrorCode.PARAM_REQUIRED);
        expect(answer.body.data).toMatchObject({ field });
      });

      it('refuses a nickname with angle brackets (10003) and a malformed captcha (10003)', async () => {
        const script = await refused(registerBody('x@example.com', '123456', { nickname: '<script>' }));
        expect(script.body.code).toBe(ErrorCode.PARAM_FORMAT);
        const captcha = await refused(registerBody('x@example.com', '12345a'));
        expect(captcha.body.code).toBe(ErrorCode.PARAM_FORMAT);
        expect(captcha.body.data).toMatchObject({ field: 'captcha' });
      });
    });
  });
};

/** Signing in and the session: login, refresh, reset-password, logout, me. */
export const describeSessionCalls = (backend: 'pglite' | 'postgres') => {
  describe(`login (${backend})`, () => {
    let server: TestServer;
    afterEach(async () => server?.close());

    it('answers tokens and the user for the right password, whatever the email case', async () => {
      server = await startServer(backend);
      const registered = await registerUser(server, { email: 'login@example.com', nickname: 'Logger' });
      const answer = await login(server, 'Login@Example.COM', PASSWORD);
      expect(answer.status).toBe(200);
      expect(answer.body.code).toBe(0);
      expect(answer.body.data.user).toEqual(registered.user);
      expect(answer.body.data.accessToken).not.toBe(registered.accessToken);
      expect(answer.body.data.refreshToken).not.toBe(registered.refreshToken);
      const me = await server.call('GET', '/api/user/me', undefined, { token: answer.body.data.accessToken });
      expect(me.body.data.id).toBe(registered.user.id);
    });

    it('gives a wrong password and an unknown email the same answer (11002)', async () => {
      server = await startServer(backend);
      await registerUser(server, { email: 'real@example.com' });
      const wrongPassword = await login(server, 'real@example.com', 'Not-The-Passw0rd');
      const unknownEmail = await login(server, 'ghost@example.com', PASSWORD);
      expect(wrongPassword.status).toBe(200);
      expect(wrongPassword.body.code).toBe(ErrorCode.PASSWORD_ERROR);
      expect(unknownEmail.status).toBe(200);
      expect(unknownEmail.body).toEqual(wrongPassword.body);
    });

    it('slows an account from one address after 4 failures (10009 with retryAfter), even for the right password', async () => {
      server = await startServer(backend);
      await registerUser(server, { email: 'target@example.com' });
      await registerUser(server, { email: 'bystander@example.com' });
      for (let attempt = 0; attempt < 4; attempt++) {
        expect((await login(server, 'target@example.com', `Wrong-Passw0rd-${attempt}`)).body.code).toBe(ErrorCode.PASSWORD_ERROR);
      }
      const locked = await login(server, 'target@example.com', PASSWORD);
      expect(locked.status).toBe(200);
      expect(locked.body.code).toBe(ErrorCode.TOO_MANY_REQUESTS);
      expect(locked.body.data.retryAfter).toBeGreaterThan(0);
      expect(locked.body.data.retryAfter).toBeLessThanOrEqual(900);
      // Other accounts are not locked by it.
      expect((await login(server, 'bystander@example.com', PASSWORD)).body.code).toBe(0);
    });

    it('clears the per-account counter on success', async () => {
      server = await startServer(backend);
      await registerUser(server, { email: 'forgetful@example.com' });
      for (let round = 0; round < 2; round++) {
        for (let attempt = 0; attempt < 3; attempt++) {
          expect((await login(server, 'forgetful@example.com', `Wrong-Passw0rd-${attempt}`)).body.code).toBe(ErrorCode.PASSWORD_ERROR);
        }
        expect((await login(server, 'forgetful@example.com', PASSWORD)).body.code).toBe(0);
      }
    });

    it('refuses a missing password (10000) and an empty one (10004) without counting a failure', async () => {
      server = await startServer(backend);
      await registerUser(server, { email: 'blank@example.com' });
      const missing = await server.call('POST', '/api/user/login', { email: 'blank@example.com' });
      expect(missing.body.code).toBe(ErrorCode.PARAM_REQUIRED);
      const empty = await login(server, 'blank@example.com', '');
      expect(empty.body.code).toBe(ErrorCode.PARAM_LENGTH);
      const events = await server.db.selectFrom('throttle_counters').select('key').where('key', 'like', 'login:%').execute();
      expect(events).toHaveLength(0);
    });
  });

  describe(`refresh (${backend})`, () => {
    let server: TestServer;
    afterEach(async () => server?.close());

    const refresh = (refreshToken: string) => server.call('PUT', '/api/user/refresh', { refreshToken });
    const me = (token: string) => server.call('GET', '/api/user/me', undefined, { token });

    it('rotates the pair; a rotated token used after the grace period ends the whole session', async () => {
      server = await startServer(backend, { refreshGraceSeconds: 0 });
      const first = await registerUser(server, { email: 'rotate@example.com' });
      const other = await login(server, 'rotate@example.com', PASSWORD);

      const second = await refresh(first.refreshToken);
      expect(second.status).toBe(200);
      expect(second.body.code).toBe(0);
      expect(second.body.data.refreshToken).not.toBe(first.refreshToken);
      expect(second.body.data.accessToken).not.toBe(first.accessToken);
      expect((await me(second.body.data.accessToken)).body.code).toBe(0);
      const third = await refresh(second.body.data.refreshToken);
      expect(third.body.code).toBe(0);

      // Reuse of a rotated token: refused, and the family is revoked.
      const reused = await refresh(first.refreshToken);
      expect(reused.status).toBe(200);
      expect(reused.body.code).toBe(ErrorCode.UNAUTHORIZED);
      expect((await refresh(third.body.data.refreshToken)).body.code).toBe(ErrorCode.UNAUTHORIZED);
      const sessionMe = await me(third.body.data.accessToken);
      expect(sessionMe.status).toBe(401);
      expect(sessionMe.body.code).toBe(ErrorCode.UNAUTHORIZED);
      expect((await me(first.accessToken)).status).toBe(401);

      // Another session of the same user lives on.
      expect((await me(other.body.data.accessToken)).body.code).toBe(0);
      expect((await refresh(other.body.data.refreshToken)).body.code).toBe(0);
    });

    it('within the grace period a second use gives a sibling pair of the same session', async () => {
      server = await startServer(backend, { refreshGraceSeconds: 30 });
      const first = await registerUser(server, { email: 'tabs@example.com' });
      const tabA = await refresh(first.refreshToken);
      const tabB = await refresh(first.refreshToken);
      expect(tabA.body.code).toBe(0);
      expect(tabB.body.code).toBe(0);
      expect(tabB.body.data.refreshToken).not.toBe(tabA.body.data.refreshToken);
      expect((await me(tabA.body.data.accessToken)).body.code).toBe(0);
      expect((await me(tabB.body.data.accessToken)).body.code).toBe(0);
      expect((await refresh(tabA.body.data.refreshToken)).body.code).toBe(0);
      expect((await refresh(tabB.body.data.refreshToken)).body.code).toBe(0);
      const sessions = await server.db.selectFrom('sessions').select('id').execute();
      expect(sessions).toHaveLength(1);
    });

    it('refuses a garbage token with 11005 and a too short one with 10004', async () => {
      server = await startServer(backend);
      await registerUser(server, { email: 'garbage@example.com' });
      const garbage = await refresh('x'.repeat(43));
      expect(garbage.status).toBe(200);
      expect(garbage.body.code).toBe(ErrorCode.UNAUTHORIZED);
      expect((await refresh('short')).body.code).toBe(ErrorCode.PARAM_LENGTH);
      expect((await refresh('y'.repeat(201))).body.code).toBe(ErrorCode.PARAM_LENGTH);
      const missing = await server.call('PUT', '/api/user/refresh', {});
      expect(missing.body.code).toBe(ErrorCode.PARAM_REQUIRED);
    });

    it('refuses an expired refresh token with 11005', async () => {
      server = await startServer(backend);
      const session = await registerUser(server, { email: 'stale@example.com' });
      await server.db.updateTable('refresh_tokens').set({ expires_at: new Date(Date.now() - 1000) }).execute();
      expect((await refresh(session.refreshToken)).body.code).toBe(ErrorCode.UNAUTHORIZED);
    });
  });

  describe(`reset-password (${backend})`, () => {
    let server: TestServer;
    afterEach(async () => server?.close());

    const resetCode = async (email: string) => {
      await forgetCodeSends(server);
      expect((await sendCode(server, email, 'reset')).body.code).toBe(0);
      return server.lastCode(email);
    };
    const reset = (email: string, captcha: string, newPassword = NEW_PASSWORD) =>
      server.call('POST', '/api/user/reset-password', { email, newPassword, captcha });

    it('sets the new password and ends every session of the user', async () => {
      server = await startServer(backend);
      const first = await registerUser(server, { email: 'reset@example.com' });
      const second = (await login(server, 'reset@example.com', PASSWORD)).body.data;
      const bystander = await registerUser(server, { email: 'bystander@example.com' });
      const captcha = await resetCode('reset@example.com');

      const answer = await reset('Reset@example.com', captcha);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ code: 0, message: 'ok', data: null });

      expect((await login(server, 'reset@example.com', PASSWORD)).body.code).toBe(ErrorCode.PASSWORD_ERROR);
      expect((await login(server, 'reset@example.com', NEW_PASSWORD)).body.code).toBe(0);
      for (const session of [first, second]) {
        expect((await server.call('GET', '/api/user/me', undefined, { token: session.accessToken })).status).toBe(401);
        expect((await server.call('PUT', '/api/user/refresh', { refreshToken: session.refreshToken })).body.code).toBe(ErrorCode.UNAUTHORIZED);
      }
      // Someone else's session is untouched.
      expect((await server.call('GET', '/api/user/me', undefined, { token: bystander.accessToken })).body.code).toBe(0);
      // The code was single use.
      expect((await reset('reset@example.com', captcha, 'Third-Str0ng-Secret')).body.code).toBe(ErrorCode.CAPTCHA_EXPIRED);
    });

    it('lifts a login lock', async () => {
      server = await startServer(backend);
      await registerUser(server, { email: 'locked@example.com' });
      for (let attempt = 0; attempt < 5; attempt++) await login(server, 'locked@example.com', `Wrong-Passw0rd-${attempt}`);
      expect((await login(server, 'locked@example.com', PASSWORD)).body.code).toBe(ErrorCode.TOO_MANY_REQUESTS);
      expect((await reset('locked@example.com', await resetCode('locked@example.com'))).body.code).toBe(0);
      expect((await login(server, 'locked@example.com', NEW_PASSWORD)).body.code).toBe(0);
    });

    it('refuses a wrong code (10101), no code (10100), a register code (10100) and keeps the password', async () => {
      server = await startServer(backend);
      await registerUser(server, { email: 'keep@example.com' });
      expect((await reset('keep@example.com', '123456')).body.code).toBe(ErrorCode.CAPTCHA_EXPIRED);
      expect((await reset('ghost@example.com', '123456')).body.code).toBe(ErrorCode.CAPTCHA_EXPIRED);
      // A register code is no reset code.
      expect((await sendCode(server, 'fresh@example.com', 'register')).body.code).toBe(0);
      expect((await reset('fresh@example.com', server.lastCode('fresh@example.com'))).body.code).toBe(ErrorCode.CAPTCHA_EXPIRED);
      const captcha = await resetCode('keep@example.com');
      expect((await reset('keep@example.com', otherCode(captcha))).body.code).toBe(ErrorCode.CAPTCHA_ERROR);
      expect((await login(server, 'keep@example.com', PASSWORD)).body.code).toBe(0);
      expect((await login(server, 'keep@example.com', NEW_PASSWORD)).body.code).toBe(ErrorCode.PASSWORD_ERROR);
    });

    it('refuses a weak new password (10008 common, 10004 short) without using up the code', async () => {
      server = await startServer(backend);
      await registerUser(server, { email: 'weak@example.com' });
      const captcha = await resetCode('weak@example.com');
      const common = await reset('weak@example.com', captcha, 'password123');
      expect(common.body.code).toBe(ErrorCode.INVALID);
      const short = await reset('weak@example.com', captcha, 'Ab1!');
      expect(short.body.code).toBe(ErrorCode.PARAM_LENGTH);
      expect((await login(server, 'weak@example.com', PASSWORD)).body.code).toBe(0);
      expect((await reset('weak@example.com', captcha)).body.code).toBe(0);
    });

    it('refuses a body without the code (10000)', async () => {
      server = await startServer(backend);
      const answer = await server.call('POST', '/api/user/reset-password', { email: 'a@example.com', newPassword: NEW_PASSWORD });
      expect(answer.body.code).toBe(ErrorCode.PARAM_REQUIRED);
      expect(answer.body.data).toMatchObject({ field: 'captcha' });
    });
  });

  describe(`logout (${backend})`, () => {
    let server: TestServer;
    afterEach(async () => server?.close());

    it('ends the current session only', async () => {
      server = await startServer(backend);
      const session = await registerUser(server, { email: 'leave@example.com' });
      const other = (await login(server, 'leave@example.com', PASSWORD)).body.data;
      const answer = await server.call('POST', '/api/user/logout', undefined, { token: session.accessToken });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ code: 0, message: 'ok', data: null });

      const me = await server.call('GET', '/api/user/me', undefined, { token: session.accessToken });
      expect(me.status).toBe(401);
      expect(me.body.code).toBe(ErrorCode.UNAUTHORIZED);
      expect((await server.call('PUT', '/api/user/refresh', { refreshToken: session.refreshToken })).body.code).toBe(ErrorCode.UNAUTHORIZED);
      const twice = await server.call('POST', '/api/user/logout', undefined, { token: session.accessToken });
      expect(twice.status).toBe(401);

      expect((await server.call('GET', '/api/user/me', undefined, { token: other.accessToken })).body.code).toBe(0);
    });

    it('answers HTTP 401 with code 11005 without a token', async () => {
      server = await startServer(backend);
      const answer = await server.call('POST', '/api/user/logout');
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ code: ErrorCode.UNAUTHORIZED, data: null });
      expect(typeof answer.body.message).toBe('string');
    });
  });

  describe(`me (${backend})`, () => {
    let server: TestServer;
    afterEach(async () => server?.close());

    it('answers the public fields of the signed-in user and nothing else', async () => {
      server = await startServer(backend);
      const session = await registerUser(server, { email: 'self@example.com', nickname: 'Myself' });
      const answer = await server.call('GET', '/api/user/me', undefined, { token: session.accessToken });
      expect(answer.status).toBe(200);
      expect(answer.body.code).toBe(0);
      expect(Object.keys(answer.body.data).sort()).toEqual(['activated', 'avatar', 'email', 'id', 'inviteCode', 'level', 'nickname', 'role']);
      expect(answer.body.data).toEqual({
        id: session.user.id,
        email: 'self@example.com',
        nickname: 'Myself',
        avatar: null,
        inviteCode: session.user.inviteCode,
        level: 0,
        activated: false,
        role: 'user',
      });
      const text = JSON.stringify(answer.body);
      expect(text).not.toMatch(/password|hash|scrypt/i);
    });

    it('follows changes of the account in the database', async () => {
      server = await startServer(backend);
      const session = await registerUser(server, { email: 'promoted@example.com' });
      await server.db.updateTable('users').set({ role: 'operator', level: 2, activated: true }).execute();
      const answer = await server.call('GET', '/api/user/me', undefined, { token: session.accessToken });
      expect(answer.body.data).toMatchObject({ role: 'operator', level: 2, activated: true });
    });

    it('shuts out a disabled account at once', async () => {
      server = await startServer(backend);
      const session = await registerUser(server, { email: 'banned@example.com' });
      await server.db.updateTable('users').set({ disabled: true }).execute();
      expect((await server.call('GET', '/api/user/me', undefined, { token: session.accessToken })).status).toBe(401);
      expect((await server.call('PUT', '/api/user/refresh', { refreshToken: session.refreshToken })).body.code).toBe(ErrorCode.UNAUTHORIZED);
      expect((await login(server, 'banned@example.com', PASSWORD)).body.code).toBe(ErrorCode.PASSWORD_ERROR);
    });
  });
};
