import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../src/db/database';
import { createTelegramChannel, type TelegramChannel } from '../src/notify/channels/telegram';
import { startFakeBotApi } from './fakes/telegramBotApi';
import { channelDb } from './notifyFixtures';

/**
 * Telegram's long polling across processes: two pollers of one bot get 409
 * Conflict (the local Bot API answers as the real one does), so on
 * PostgreSQL only the process holding the bot's advisory lock polls; another
 * takes over when it stops. Each "process" here is a channel with its own
 * connection pool.
 */
const url = process.env.TEST_DATABASE_URL;
const TOKEN = '7000000001:AAH-polling-token-never-logged';

describe.skipIf(!url)('Telegram long polling shared by processes on PostgreSQL', () => {
  let fixture: Awaited<ReturnType<typeof channelDb>> | undefined;
  let other: Db | undefined;
  const channels: TelegramChannel[] = [];
  const children: ChildProcess[] = [];
  let api: Awaited<ReturnType<typeof startFakeBotApi>> | undefined;
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const channel of channels) await channel.stop();
    await api?.close();
    await other?.destroy();
    await fixture?.close();
  });
  const channel = (exclusivePolling: boolean) => {
    const made = createTelegramChannel({ token: TOKEN, apiRoot: api!.apiRoot, timeoutSeconds: 3, pollSeconds: 1, exclusivePolling, lockRetryMs: 200 });
    channels.push(made);
    return made;
  };
  const getUpdates = () => api!.calls.filter((call) => call.method === 'getUpdates').length;
  const replies = (chatId: number) => api!.calls.filter((call) => call.method === 'sendMessage' && call.body.chat_id === chatId).map((call) => String(call.body.text));

  it('without the lock two pollers conflict; with it one polls, links chats, and another takes over when it stops', async () => {
    fixture = await channelDb('postgres');
    other = await openDatabase({ url, schema: fixture.schema });
    api = await startFakeBotApi(TOKEN);

    // Two pollers at once: one of them is ended by 409 Conflict.
    const [first, second] = [channel(false), channel(false)];
    await first.start(fixture.db);
    await second.start(other);
    await vi.waitFor(() => expect(api!.conflicts()).toBeGreaterThan(0), { timeout: 5000, interval: 20 });
    await vi.waitFor(() => expect([first.polling(), second.polling()].filter(Boolean)).toHaveLength(1), { timeout: 5000, interval: 20 });
    await first.stop();
    await second.stop();

    // With the lock: two processes start, one polls.
    const conflicts = api.conflicts();
    const [a, b] = [channel(true), channel(true)];
    await a.start(fixture.db);
    await b.start(other);
    expect([a.polling(), b.polling()]).toEqual([true, false]);
    const before = getUpdates();
    // Two poll rounds of one second, and b's lock retries: no conflict, b never asked for updates.
    await new Promise((resolve) => setTimeout(resolve, 2200));
    expect(api.conflicts()).toBe(conflicts);
    expect(getUpdates() - before).toBeLessThanOrEqual(4);
    expect(b.polling()).toBe(false);

    // A link made in either process is answered by the one that polls.
    const link = await b.createLink(other, fixture.userId);
    api.userWrites(4242, `/start ${link.code}`);
    await vi.waitFor(() => expect(replies(4242)).toHaveLength(1), { timeout: 5000, interval: 20 });
    expect(replies(4242)[0]).toContain('已绑定');
    expect(await b.sender.isLinked(other, fixture.userId)).toBe(true);

    // The polling process stops (or dies: its connection and its lock go): the other takes over.
    await a.stop();
    await vi.waitFor(() => expect(b.polling()).toBe(true), { timeout: 3000, interval: 20 });
    const again = await a.createLink(fixture.db, fixture.userId);
    api.userWrites(5151, `/start ${again.code}`);
    await vi.waitFor(() => expect(replies(5151)).toHaveLength(1), { timeout: 5000, interval: 20 });
    expect((await fixture.db.selectFrom('telegram_links').select('chat_id').executeTakeFirstOrThrow()).chat_id).toBe('5151');
    expect(api.conflicts()).toBe(conflicts);
  }, 30_000);

  it('a polling process killed with SIGKILL: its lock goes with its connection, and another process polls', async () => {
    // The first test's channels have stopped; a new process polls first.
    for (const each of channels.splice(0)) await each.stop();
    const child = spawn(process.execPath, ['--import', 'tsx', join('server', 'test', 'telegramPollerProcess.ts')], {
      cwd: process.cwd(),
      env: { ...process.env, POLLER_DATABASE_URL: url, POLLER_SCHEMA: fixture!.schema, POLLER_TOKEN: TOKEN, POLLER_API_ROOT: api!.apiRoot },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk) => (output += String(chunk)));
    child.stderr!.on('data', (chunk) => (output += String(chunk)));
    await vi.waitFor(() => expect(output).toContain('"ready"'), { timeout: 20_000, interval: 50 });
    expect(JSON.parse(output.split('\n').find((line) => line.includes('"ready"'))!)).toMatchObject({ polling: true });

    const here = channel(true);
    await here.start(other!);
    expect(here.polling()).toBe(false);
    const conflicts = api!.conflicts();
    child.kill('SIGKILL');
    await vi.waitFor(() => expect(here.polling()).toBe(true), { timeout: 5000, interval: 20 });
    const link = await here.createLink(other!, fixture!.userId);
    api!.userWrites(6161, `/start ${link.code}`);
    await vi.waitFor(() => expect(replies(6161)).toHaveLength(1), { timeout: 5000, interval: 20 });
    expect(replies(6161)[0]).toContain('已绑定');
    expect(api!.conflicts()).toBe(conflicts);
  }, 40_000);
});
