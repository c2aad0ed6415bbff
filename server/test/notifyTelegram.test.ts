import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTelegramChannel, type TelegramChannel } from '../src/notify/channels/telegram';
import { FAULTS, startFakeBotApi } from './fakes/telegramBotApi';
import { BACKENDS } from './harness';
import { channelDb, message } from './notifyFixtures';

const TOKEN = '7000000001:AAH-test-token-never-logged';

describe.each(BACKENDS)('the Telegram channel against a local Bot API (%s)', (backend) => {
  let fixture: Awaited<ReturnType<typeof channelDb>>;
  let api: Awaited<ReturnType<typeof startFakeBotApi>>;
  let telegram: TelegramChannel;

  beforeAll(async () => {
    fixture = await channelDb(backend);
    api = await startFakeBotApi(TOKEN);
    telegram = createTelegramChannel({ token: TOKEN, apiRoot: api.apiRoot, timeoutSeconds: 1, pollSeconds: 1, publicUrl: 'https://trader.example' });
  });
  afterAll(async () => {
    await telegram.stop();
    await api.close();
    await fixture.close();
  });

  it('links a chat through /start <code> received by long polling; the code works once', async () => {
    await telegram.start(fixture.db);
    expect(await telegram.sender.isLinked(fixture.db, fixture.userId)).toBe(false);
    const link = await telegram.createLink(fixture.db, fixture.userId);
    expect(link.url).toBe(`https://t.me/qt_notify_bot?start=${link.code}`);
    expect(link.code).toMatch(/^[A-Za-z0-9_-]{16,64}$/);

    api.userWrites(4242, `/start ${link.code}`);
    await vi.waitFor(() => expect(api.calls.some((call) => call.method === 'sendMessage' && call.body.chat_id === 4242)).toBe(true), { timeout: 5000 });
    expect(api.calls.find((call) => call.method === 'sendMessage' && call.body.chat_id === 4242)!.body.text).toContain('已绑定');
    expect(await telegram.sender.isLinked(fixture.db, fixture.userId)).toBe(true);
    expect((await fixture.db.selectFrom('telegram_links').select('chat_id').executeTakeFirstOrThrow()).chat_id).toBe('4242');

    // The same code again, from another chat: refused, the link stays.
    api.userWrites(777, `/start ${link.code}`);
    await vi.waitFor(() => expect(api.calls.some((call) => call.method === 'sendMessage' && call.body.chat_id === 777)).toBe(true), { timeout: 5000 });
    expect(api.calls.find((call) => call.method === 'sendMessage' && call.body.chat_id === 777)!.body.text).toMatch(/invalid or expired/);
    expect((await fixture.db.selectFrom('telegram_links').select('chat_id').executeTakeFirstOrThrow()).chat_id).toBe('4242');
    expect(await fixture.db.selectFrom('telegram_link_codes').selectAll().execute()).toEqual([]);
  });

  it('refuses an expired code', async () => {
    const expired = createTelegramChannel({ token: TOKEN, apiRoot: api.apiRoot, codeTtlMs: -1 });
    const link = await expired.createLink(fixture.db, fixture.userId);
    expect(await expired.linkChat(fixture.db, link.code, '999')).toBe(false);
  });

  it('delivers with sendMessage; 429 retries after retry_after, 403 turns the channel off, a timeout retries', async () => {
    const sent = message(fixture.userId);
    expect(await telegram.sender.deliver(fixture.db, sent)).toEqual({ ok: true });
    const call = api.calls.filter((each) => each.method === 'sendMessage').at(-1)!;
    expect(call.body).toMatchObject({ chat_id: '4242', text: `${sent.title}\n${sent.text}\nhttps://trader.example/#/tasks/abc/show` });

    api.fault(FAULTS.tooManyRequests(5));
    expect(await telegram.sender.deliver(fixture.db, sent)).toMatchObject({ ok: false, retry: true, retryAfterMs: 5000 });
    api.fault('hang');
    const timedOut = await telegram.sender.deliver(fixture.db, sent);
    expect(timedOut).toMatchObject({ ok: false, retry: true });
    api.fault(FAULTS.chatNotFound);
    expect(await telegram.sender.deliver(fixture.db, sent)).toMatchObject({ ok: false, retry: false });
    api.fault(FAULTS.blocked);
    const blocked = await telegram.sender.deliver(fixture.db, sent);
    expect(blocked).toMatchObject({ ok: false, retry: false, disable: true, error: expect.stringContaining('blocked') });
    for (const outcome of [timedOut, blocked]) expect(JSON.stringify(outcome)).not.toContain(TOKEN.split(':')[1]);

    await telegram.sender.disable(fixture.db, fixture.userId, 'blocked');
    expect(await telegram.sender.isLinked(fixture.db, fixture.userId)).toBe(false);
    expect(await telegram.sender.deliver(fixture.db, sent)).toMatchObject({ ok: false, retry: false });
  });
});
