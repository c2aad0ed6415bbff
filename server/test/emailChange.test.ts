import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/api/errors';
import { DEMO_EMAIL, DEMO_PASSWORD, ensureDemoAccount } from '../src/demo/account';
import { BACKENDS, decodeMail, registerUser, startServer, type TestServer } from './harness';

const PASSWORD = 'Sturdy-Passw0rd!';
const ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/**
 * E-mail change (issue 26, README "E-mail change"): a code mailed to the new
 * address and bound to the user who asked for it, the current password, and
 * the step-up once a factor is on. On success the other sessions end, money
 * leaving is held 24 hours, the old address is told (with the anti-phishing
 * phrase, in the user's language) and user.security_changed is written; every
 * refusal changes nothing.
 */
describe.each(BACKENDS)('e-mail change (%s)', { timeout: 60_000 }, (backend) => {
  let server: TestServer;
  let clock = Date.now();

  /** Every test's code requests come from one address: its per-address limits are no subject here but in their own test. */
  const freshCodeLimits = () => server.db.deleteFrom('throttle_counters').where('key', 'like', 'code:%').execute();
  const register = async (email: string) => {
    await freshCodeLimits();
    await server.db.deleteFrom('throttle_counters').where('key', 'like', 'register:%').execute();
    const user = await registerUser(server, { email });
    // A second device of the same user: the change must end it.
    const other = await server.call('POST', '/api/user/login', { email, password: PASSWORD }, { headers: { 'User-Agent': 'Other Device' } });
    expect(other.body.code).toBe(0);
    return { ...user, otherToken: other.body.data.accessToken as string, otherRefresh: other.body.data.refreshToken as string };
  };
  const askCode = (token: string | undefined, email: string) =>
    server.call('POST', '/api/user/verify-code', { email, type: 'change_email' }, token ? { token } : {});
  const change = (token: string, body: { email: string; captcha: string; password: string }, secondFactor?: string) =>
    server.call('POST', '/api/user/change-email', body, { token, headers: secondFactor ? { 'X-Second-Factor': secondFactor } : {} });
  const me = (token: string) => server.call('GET', '/api/user/me', undefined, { token });
  const mailsTo = (email: string) => server.outbox().filter((eml) => eml.includes(`To: ${email}`)).map(decodeMail);
  const emailEvents = async (userId: string) =>
    (await server.db.selectFrom('notification_events').select(['kind', 'payload']).where('user_id', '=', userId).execute()).filter(
      (event) => (event.payload as { change?: string }).change === 'email_changed',
    );
  const heldUntil = async (userId: string) =>
    (await server.db.selectFrom('users').select('withdrawals_held_until').where('id', '=', userId).executeTakeFirstOrThrow()).withdrawals_held_until;
  const withdraw = (token: string) =>
    server.call('POST', '/api/wallet/withdraw', { amount: '10', address: ADDRESS, password: PASSWORD, idempotencyKey: `w-${Math.random().toString(36).slice(2)}` }, { token });

  /** What a refusal must leave as it was: the address, the other session, no notice, no hold. */
  const expectUnchanged = async (user: Awaited<ReturnType<typeof register>>, email: string) => {
    expect((await me(user.accessToken)).body.data.email).toBe(email);
    expect((await me(user.otherToken)).status).toBe(200);
    expect(await emailEvents(user.user.id)).toEqual([]);
    expect(await heldUntil(user.user.id)).toBeNull();
  };

  beforeAll(async () => {
    server = await startServer(backend, {}, { factorClock: () => clock });
  });
  afterAll(async () => server?.close());

  it('moves the account: the old address is told with its phrase in the user language, other sessions end, money leaving is held, the user is notified', async () => {
    const user = await register('mover@example.com');
    expect((await server.call('POST', '/api/user/anti-phishing', { phrase: '蓝色海豚' }, { token: user.accessToken })).body.code).toBe(0);
    await server.db.updateTable('users').set({ locale: 'en-US' }).where('id', '=', user.user.id).execute();

    const sent = await askCode(user.accessToken, 'Moved@Example.com');
    expect(sent.body).toMatchObject({ code: 0, data: { expiresIn: 600, resendAfter: 60 } });
    // The code goes to the new address, which is not the account's yet, with the account's phrase.
    const [codeMail] = mailsTo('moved@example.com');
    expect(codeMail).toContain('您的防钓鱼码：蓝色海豚');
    expect(codeMail).toContain('您正在把量化交易账户的邮箱改为此地址');

    const changed = await change(user.accessToken, { email: 'Moved@Example.com', captcha: server.lastCode('moved@example.com'), password: PASSWORD });
    expect(changed.body).toMatchObject({ code: 0, data: { id: user.user.id, email: 'moved@example.com' } });

    // The old address got the notice, in the user's language, with the phrase first.
    const notice = mailsTo('mover@example.com').find((mail) => mail.includes('was changed to'));
    expect(notice).toBeDefined();
    const body = notice!.slice(notice!.indexOf('\n\n') + 2);
    expect(body.startsWith('Your anti-phishing code: 蓝色海豚\n\nThe e-mail address of your Quant Trader account was changed to mo***@example.com')).toBe(true);
    expect(notice).not.toContain('moved@example.com');

    // Logins: the new address, not the old one.
    expect((await server.call('POST', '/api/user/login', { email: 'mover@example.com', password: PASSWORD })).body.code).toBe(ErrorCode.PASSWORD_ERROR);
    expect((await server.call('POST', '/api/user/login', { email: 'moved@example.com', password: PASSWORD })).body.code).toBe(0);
    // This session stays; the other device's ends, its refresh token too.
    expect((await me(user.accessToken)).body.data.email).toBe('moved@example.com');
    expect((await me(user.otherToken)).status).toBe(401);
    expect((await server.call('PUT', '/api/user/refresh', { refreshToken: user.otherRefresh })).body.code).not.toBe(0);
    // Told in the app (and by e-mail to the new address through the notifications), held 24 hours.
    expect(await emailEvents(user.user.id)).toEqual([{ kind: 'user.security_changed', payload: { change: 'email_changed' } }]);
    const held = await heldUntil(user.user.id);
    expect(new Date(held!).getTime() - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    const refused = await withdraw(user.accessToken);
    expect(refused.body.code).toBe(ErrorCode.WITHDRAWALS_HELD);
    expect(new Date(refused.body.data.until).getTime()).toBe(new Date(held!).getTime());
    // The code was used up.
    expect((await change(user.accessToken, { email: 'moved@example.com', captcha: server.lastCode('moved@example.com'), password: PASSWORD })).body.code).not.toBe(0);
  });

  it('refuses a wrong code, a wrong password, no code, and a code asked for another address, changing nothing', async () => {
    const user = await register('careful@example.com');
    await askCode(user.accessToken, 'careful-new@example.com');
    const code = server.lastCode('careful-new@example.com');
    const wrongCode = code === '000000' ? '111111' : '000000';

    const wrong = await change(user.accessToken, { email: 'careful-new@example.com', captcha: wrongCode, password: PASSWORD });
    expect(wrong.body).toMatchObject({ code: ErrorCode.CAPTCHA_ERROR, data: { attemptsLeft: 4 } });
    const badPassword = await change(user.accessToken, { email: 'careful-new@example.com', captcha: code, password: 'Not-The-Passw0rd' });
    expect(badPassword.body).toMatchObject({ code: ErrorCode.PASSWORD_ERROR, data: { field: 'password' } });
    // The code went to careful-new@: another address has none.
    const otherAddress = await change(user.accessToken, { email: 'careful-other@example.com', captcha: code, password: PASSWORD });
    expect(otherAddress.body.code).toBe(ErrorCode.CAPTCHA_EXPIRED);
    await expectUnchanged(user, 'careful@example.com');

    // The code survived the wrong password (checked first): it still works.
    expect((await change(user.accessToken, { email: 'careful-new@example.com', captcha: code, password: PASSWORD })).body.code).toBe(0);
  });

  it("refuses another user's code for the same address: a code is good only for the user who asked for it", async () => {
    const asker = await register('asker@example.com');
    const thief = await register('thief@example.com');
    await askCode(asker.accessToken, 'wanted@example.com');
    const code = server.lastCode('wanted@example.com');
    const stolen = await change(thief.accessToken, { email: 'wanted@example.com', captcha: code, password: PASSWORD });
    expect(stolen.body.code).toBe(ErrorCode.CAPTCHA_ERROR);
    await expectUnchanged(thief, 'thief@example.com');
  });

  it('refuses an address already taken (by another account or the caller) when asked for a code and at the change; no mail is sent', async () => {
    const user = await register('owner@example.com');
    await register('taken@example.com');
    const mails = server.outbox().length;
    await freshCodeLimits();
    expect((await askCode(user.accessToken, 'Taken@example.com')).body).toMatchObject({ code: ErrorCode.ALREADY_EXISTS, data: { field: 'email' } });
    await freshCodeLimits();
    expect((await askCode(user.accessToken, 'owner@example.com')).body).toMatchObject({ code: ErrorCode.ALREADY_EXISTS, data: { field: 'email', reason: 'same' } });
    expect(server.outbox()).toHaveLength(mails);
    const taken = await change(user.accessToken, { email: 'taken@example.com', captcha: '123456', password: PASSWORD });
    expect(taken.body).toMatchObject({ code: ErrorCode.ALREADY_EXISTS, data: { field: 'email' } });
    await expectUnchanged(user, 'owner@example.com');
  });

  it('asks for a code only while signed in, and limits code requests (10009 with retryAfter)', async () => {
    const user = await register('limited@example.com');
    const mails = server.outbox().length;
    const guest = await askCode(undefined, 'limited-new@example.com');
    expect(guest.status).toBe(401);
    expect(server.outbox()).toHaveLength(mails);
    await freshCodeLimits();
    expect((await askCode(user.accessToken, 'limited-new@example.com')).body.code).toBe(0);
    const again = await askCode(user.accessToken, 'limited-new@example.com');
    expect(again.body.code).toBe(ErrorCode.TOO_MANY_REQUESTS);
    expect(again.body.data.retryAfter).toBeGreaterThan(0);
    // Another address from the same user within the minute: the user's own limit.
    expect((await askCode(user.accessToken, 'limited-other@example.com')).body.code).toBe(ErrorCode.TOO_MANY_REQUESTS);
    expect(server.outbox()).toHaveLength(mails + 1);
    await expectUnchanged(user, 'limited@example.com');
  });

  it('with a second factor on, needs the step-up: without it 11100 (nothing spent), a wrong one 11101, then the change', async () => {
    const user = await register('guarded@example.com');
    const { secret } = (await server.call('POST', '/api/security/totp/setup', undefined, { token: user.accessToken })).body.data as { secret: string };
    const appCode = () => {
      clock += 30_000;
      return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock });
    };
    expect((await server.call('POST', '/api/security/totp/enable', { code: appCode() }, { token: user.accessToken })).body.code).toBe(0);
    await freshCodeLimits();
    await askCode(user.accessToken, 'guarded-new@example.com');
    const body = { email: 'guarded-new@example.com', captcha: server.lastCode('guarded-new@example.com'), password: PASSWORD };

    expect((await change(user.accessToken, body)).body).toMatchObject({ code: ErrorCode.SECOND_FACTOR_REQUIRED, data: { kinds: ['totp'] } });
    const right = appCode();
    expect((await change(user.accessToken, body, right === '000000' ? '111111' : '000000')).body.code).toBe(ErrorCode.SECOND_FACTOR_INVALID);
    await expectUnchanged(user, 'guarded@example.com');
    // Neither refusal spent the e-mail code nor a password try.
    expect((await change(user.accessToken, body, right)).body).toMatchObject({ code: 0, data: { email: 'guarded-new@example.com' } });
  });

  it('refuses the shared demo account (11005 demo_account): no code, no change; nobody may take its address', async () => {
    await ensureDemoAccount(server.db, server.config.scryptCost);
    const login = await server.call('POST', '/api/user/login', { email: DEMO_EMAIL, password: DEMO_PASSWORD });
    const token = login.body.data.accessToken as string;
    const mails = server.outbox().length;
    await freshCodeLimits();
    expect((await askCode(token, 'demo-new@example.com')).body).toMatchObject({ code: ErrorCode.UNAUTHORIZED, data: { reason: 'demo_account' } });
    expect(server.outbox()).toHaveLength(mails);
    expect((await change(token, { email: 'demo-new@example.com', captcha: '123456', password: DEMO_PASSWORD })).body).toMatchObject({
      code: ErrorCode.UNAUTHORIZED,
      data: { reason: 'demo_account' },
    });
    expect((await me(token)).body.data.email).toBe(DEMO_EMAIL);

    const user = await register('wannabe@example.com');
    await freshCodeLimits();
    expect((await askCode(user.accessToken, DEMO_EMAIL)).body.code).toBe(ErrorCode.ALREADY_EXISTS);
    await expectUnchanged(user, 'wannabe@example.com');
  });
});
