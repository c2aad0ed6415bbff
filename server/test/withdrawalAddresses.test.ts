import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/api/errors';
import { DEMO_EMAIL, DEMO_PASSWORD, ensureDemoAccount } from '../src/demo/account';
import { depositAddressFor } from '../src/wallet/address';
import { adjustBalance, BACKENDS, decodeMail, registerUser, startServer, type TestServer } from './harness';

/**
 * Safe withdrawals (issue 26): the address book and its whitelist, the 24
 * hours a new address waits (told in the app and by e-mail), the
 * anti-phishing phrase in every mail, and the demo account changing none of it.
 */
const PASSWORD = 'Sturdy-Passw0rd!';
const ADDRESS_A = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const ADDRESS_B = depositAddressFor('another-wallet', 'b');
const ADDRESS_C = depositAddressFor('another-wallet', 'c');
const DAY_MS = 24 * 3_600_000;

describe.each(BACKENDS)('withdrawal addresses (%s)', (backend) => {
  let server: TestServer;
  let me: { id: string; token: string; email: string };
  let n = 0;
  const key = () => `addr-${Date.now().toString(36)}-${n++}`;
  const call = (method: string, path: string, body?: unknown, token = me.token) => server.call(method, path, body, { token });
  const withdraw = (address: string, amount = '10') => call('POST', '/api/wallet/withdraw', { amount, address, password: PASSWORD, idempotencyKey: key() });
  const book = async () => (await call('GET', '/api/wallet/addresses')).body.data as { whitelist: boolean; list: { id: string; address: string; label: string; network: string; createdAt: string; usableAt: string }[] };
  const inbox = async (kind: string) => (await call('GET', `/api/notifications?kind=${kind}`)).body.data as { total: number; list: { payload: Record<string, unknown> }[] };
  /** Moves an address's usable time to a minute ago: its 24 hours have passed. */
  const age = (address: string) =>
    server.db
      .updateTable('withdrawal_addresses')
      .set({ usable_at: new Date(Date.now() - 60_000) })
      .where('user_id', '=', me.id)
      .where('address', '=', address)
      .execute();
  const rows = () => server.db.selectFrom('withdrawal_addresses').select(['address', 'label']).where('user_id', '=', me.id).orderBy('address').execute();

  beforeAll(async () => {
    server = await startServer(backend);
    const email = 'addresses@example.com';
    const answer = await registerUser(server, { email, password: PASSWORD });
    me = { id: answer.user.id, token: answer.accessToken, email };
    await adjustBalance(server, me.id, 'USDT', '1000');
  });
  afterAll(async () => server?.close());

  it('with the whitelist off, a first use enters the book and waits 24 hours, saying until when; the user is told in the app and by e-mail', async () => {
    const refused = await withdraw(ADDRESS_A);
    expect(refused.body).toMatchObject({ code: ErrorCode.INVALID, data: { field: 'address', reason: 'address_waiting' } });
    const [entry] = (await book()).list;
    expect(entry).toMatchObject({ address: ADDRESS_A, label: '', network: 'TRC20' });
    // The exact time: 24 hours after it entered the book, as the refusal says.
    expect(Date.parse(entry!.usableAt) - Date.parse(entry!.createdAt)).toBe(DAY_MS);
    expect(refused.body.data.usableAt).toBe(entry!.usableAt);
    // Asked again: the same time, not a new wait; no money held.
    expect((await withdraw(ADDRESS_A)).body.data.usableAt).toBe(entry!.usableAt);
    expect(await server.db.selectFrom('withdrawals').select('id').where('user_id', '=', me.id).execute()).toEqual([]);
    const told = await inbox('user.withdrawal_address_added');
    expect(told.list.map((t) => t.payload)).toEqual([{ address: ADDRESS_A, label: '', network: 'TRC20', usableAt: entry!.usableAt }]);
    // By e-mail (a security notice: always), in the user's language, with the time in UTC.
    await server.app.notify.runOutboxOnce({ quietMs: 0 });
    const mail = server.outbox().map(decodeMail).find((text) => text.includes(ADDRESS_A));
    expect(mail).toContain(`${entry!.usableAt.slice(0, 10)} ${entry!.usableAt.slice(11, 16)} UTC`);
    await age(ADDRESS_A);
    const sent = await withdraw(ADDRESS_A);
    expect(sent.body).toMatchObject({ code: 0, data: { address: ADDRESS_A, status: 'pending' } });
  });

  it('with the whitelist on, only addresses of the book are used, once their wait is over; off and removal need the password and are told', async () => {
    expect((await call('POST', '/api/wallet/addresses/whitelist', { enabled: true })).body).toMatchObject({ code: 0, data: { whitelist: true } });
    const before = await rows();
    expect((await withdraw(ADDRESS_B)).body).toMatchObject({ code: ErrorCode.INVALID, data: { field: 'address', reason: 'not_whitelisted' } });
    // Refused: nothing entered the book.
    expect(await rows()).toEqual(before);

    expect((await call('POST', '/api/wallet/addresses/add', { address: ADDRESS_B, label: ' Cold wallet ', password: 'Wrong-Passw0rd!' })).body.code).toBe(ErrorCode.PASSWORD_ERROR);
    const added = await call('POST', '/api/wallet/addresses/add', { address: ADDRESS_B, label: ' Cold wallet ', password: PASSWORD });
    expect(added.body).toMatchObject({ code: 0, data: { address: ADDRESS_B, label: 'Cold wallet', network: 'TRC20' } });
    expect(Date.parse(added.body.data.usableAt) - Date.parse(added.body.data.createdAt)).toBe(DAY_MS);
    expect((await withdraw(ADDRESS_B)).body).toMatchObject({ code: ErrorCode.INVALID, data: { reason: 'address_waiting', usableAt: added.body.data.usableAt } });
    await age(ADDRESS_B);
    expect((await withdraw(ADDRESS_B)).body.code).toBe(0);

    const securityBefore = (await inbox('user.security_changed')).total;
    expect((await call('POST', '/api/wallet/addresses/whitelist', { enabled: false })).body).toMatchObject({ code: ErrorCode.PARAM_REQUIRED, data: { field: 'password' } });
    expect((await call('POST', '/api/wallet/addresses/whitelist', { enabled: false, password: 'Wrong-Passw0rd!' })).body.code).toBe(ErrorCode.PASSWORD_ERROR);
    expect((await book()).whitelist).toBe(true);
    expect((await call('POST', '/api/wallet/addresses/whitelist', { enabled: false, password: PASSWORD })).body.data.whitelist).toBe(false);

    const id = (await book()).list.find((a) => a.address === ADDRESS_B)!.id;
    expect((await call('POST', '/api/wallet/addresses/remove', { id: '6f1c0c1e-0000-4000-8000-000000000001', password: PASSWORD })).body.code).toBe(ErrorCode.PARAM_NOT_EXIST);
    expect((await call('POST', '/api/wallet/addresses/remove', { id, password: PASSWORD })).body).toMatchObject({ code: 0, data: null });
    expect((await rows()).map((r) => r.address)).toEqual([ADDRESS_A]);
    const changes = (await inbox('user.security_changed')).list.slice(0, 2).map((t) => t.payload['change']);
    expect(changes).toEqual(['withdrawal_address_removed', 'withdrawal_whitelist_off']);
    expect((await inbox('user.security_changed')).total).toBe(securityBefore + 2);
    // Removed and named again: a new address, waiting again.
    expect((await withdraw(ADDRESS_B)).body.data.reason).toBe('address_waiting');
  });

  it('refuses a malformed address or label, a duplicate and the own deposit address, writing nothing', async () => {
    const before = await rows();
    const add = (body: Record<string, unknown>) => call('POST', '/api/wallet/addresses/add', { label: 'x', password: PASSWORD, ...body });
    expect((await add({ address: 'T-not-an-address' })).body).toMatchObject({ code: ErrorCode.PARAM_FORMAT, data: { field: 'address' } });
    expect((await add({ address: ADDRESS_A.slice(0, -1) + 'u' })).body.code).toBe(ErrorCode.PARAM_FORMAT);
    expect((await add({ address: 'TXYZ', label: '<b>x</b>' })).body).toMatchObject({ code: ErrorCode.PARAM_FORMAT, data: { field: 'label' } });
    expect((await add({ address: ADDRESS_A, label: 'y'.repeat(41) })).body.code).toBe(ErrorCode.PARAM_LENGTH);
    expect((await add({ address: ADDRESS_A })).body).toMatchObject({ code: ErrorCode.ALREADY_EXISTS, data: { field: 'address' } });
    const own = (await call('GET', '/api/wallet/deposit-address')).body.data.address as string;
    expect((await add({ address: own })).body).toMatchObject({ code: ErrorCode.INVALID, data: { reason: 'own_address' } });
    expect((await call('POST', '/api/wallet/addresses/add', { address: ADDRESS_A, password: PASSWORD })).body.code).toBe(ErrorCode.PARAM_REQUIRED);
    expect((await call('POST', '/api/wallet/addresses/whitelist', { enabled: 'yes' })).body.code).toBe(ErrorCode.PARAM_TYPE);
    expect(await rows()).toEqual(before);
  });

  it('keeps an anti-phishing phrase (trimmed, at most 20 characters, no markup) and shows it first in every mail, in its language', async () => {
    const set = (phrase: string) => call('POST', '/api/user/anti-phishing', { phrase });
    expect((await call('GET', '/api/user/anti-phishing')).body.data).toEqual({ phrase: null });
    expect((await set('<script>')).body).toMatchObject({ code: ErrorCode.PARAM_FORMAT, data: { field: 'phrase' } });
    expect((await set('x'.repeat(21))).body).toMatchObject({ code: ErrorCode.PARAM_LENGTH, data: { field: 'phrase' } });
    expect((await set('a\u0001b')).body.code).toBe(ErrorCode.PARAM_FORMAT);
    expect((await call('GET', '/api/user/anti-phishing')).body.data).toEqual({ phrase: null });
    expect((await set('  蓝色海豚 42  ')).body).toEqual({ code: 0, message: expect.any(String), data: { phrase: '蓝色海豚 42' } });
    expect((await inbox('user.security_changed')).list[0]!.payload).toEqual({ change: 'anti_phishing_phrase_set' });
    // A verification mail (zh-CN) and a notification mail (en-US) both carry it.
    const sent = await server.call('POST', '/api/user/verify-code', { email: me.email, type: 'reset' }, { headers: { 'Accept-Language': 'zh-CN' } });
    expect(sent.body.code).toBe(0);
    const reset = decodeMail(server.outbox().at(-1)!);
    expect(reset).toContain('您的防钓鱼码：蓝色海豚 42');
    await server.db.updateTable('users').set({ locale: 'en-US' }).where('id', '=', me.id).execute();
    await call('POST', '/api/wallet/addresses/add', { address: ADDRESS_C, label: 'Mail test', password: PASSWORD });
    await server.app.notify.runOutboxOnce({ quietMs: 0 });
    const notice = server.outbox().map(decodeMail).find((text) => text.includes(ADDRESS_C));
    expect(notice).toContain('Your anti-phishing code: 蓝色海豚 42');
    // Cleared: mails go without it.
    expect((await set('')).body.data).toEqual({ phrase: null });
    await server.db.deleteFrom('throttle_counters').execute();
    await server.call('POST', '/api/user/verify-code', { email: me.email, type: 'reset' });
    expect(decodeMail(server.outbox().at(-1)!)).not.toContain('蓝色海豚');
  });

  it('the shared demo account cannot set a phrase nor change its addresses or whitelist (11005 demo_account)', async () => {
    await ensureDemoAccount(server.db, server.config.scryptCost);
    const login = await server.call('POST', '/api/user/login', { email: DEMO_EMAIL, password: DEMO_PASSWORD });
    const token = login.body.data.accessToken as string;
    const demoId = login.body.data.user.id as string;
    const refused = { code: ErrorCode.UNAUTHORIZED, data: { reason: 'demo_account' } };
    expect((await call('POST', '/api/user/anti-phishing', { phrase: 'gotcha' }, token)).body).toMatchObject(refused);
    expect((await call('POST', '/api/wallet/addresses/whitelist', { enabled: true }, token)).body).toMatchObject(refused);
    expect((await call('POST', '/api/wallet/addresses/add', { address: ADDRESS_A, label: 'x', password: DEMO_PASSWORD }, token)).body).toMatchObject(refused);
    // Its withdrawals are refused as before, and leave nothing in its book.
    expect((await call('POST', '/api/wallet/withdraw', { amount: '10', address: ADDRESS_A, password: DEMO_PASSWORD, idempotencyKey: key() }, token)).body).toMatchObject(refused);
    const demo = await server.db.selectFrom('users').select(['withdrawal_whitelist', 'anti_phishing_phrase']).where('id', '=', demoId).executeTakeFirstOrThrow();
    expect(demo).toEqual({ withdrawal_whitelist: false, anti_phishing_phrase: null });
    expect(await server.db.selectFrom('withdrawal_addresses').select('id').where('user_id', '=', demoId).execute()).toEqual([]);
  });
});
