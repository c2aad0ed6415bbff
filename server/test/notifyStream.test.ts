import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvents } from '../src/notify/events';
import { BACKENDS, registerUser, startOtherProcess, startServer, type OtherProcess, type TestServer } from './harness';

/** Opens the notification stream at `base` and collects its events as they come. */
const openStream = async (base: string, token: string) => {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/notifications/stream`, { headers: { Authorization: `Bearer ${token}` }, signal: controller.signal });
  const events: EventSourceMessage[] = [];
  const waiters: (() => void)[] = [];
  const parser = createParser({
    onEvent: (event) => {
      events.push(event);
      waiters.splice(0).forEach((wake) => wake());
    },
  });
  const ended = (async () => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // aborted
    }
  })();
  /** The first event after `from` (an index into events) that matches, within `ms`. */
  const next = async (match: (event: EventSourceMessage) => boolean, from: number, ms: number) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = events.slice(from).find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event within ${ms} ms (got ${JSON.stringify(events)})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  return { response, events, next, ended, close: () => controller.abort() };
};

const unread = (count: number) => (event: EventSourceMessage) => event.event === 'unread' && (JSON.parse(event.data) as { count: number }).count === count;

describe.each(BACKENDS)('live notifications (%s)', (backend) => {
  let server: TestServer;
  let other: OtherProcess;
  let token: string;
  let userId: string;

  beforeAll(async () => {
    server = await startServer(backend);
    other = await startOtherProcess(server, backend);
    const me = await registerUser(server, { email: 'live@example.com' });
    token = me.accessToken;
    userId = me.user.id;
  }, 120_000);
  afterAll(async () => {
    await other?.close();
    await server?.close();
  });

  it('streams the unread count at once and within 2 s of an event another process wrote; refuses without a token', async () => {
    expect((await fetch(`${other.base}/api/notifications/stream`)).status).toBe(401);
    const stream = await openStream(other.base, token);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await stream.next(unread(0), 0, 2_000);

    // Written by the other process's database handle, in a transaction of its own (as the wallet or the engine do).
    const from = stream.events.length;
    const started = Date.now();
    await server.db.transaction().execute((trx) =>
      recordEvents(trx, [{ userId, kind: 'wallet.deposit_credited', taskId: null, payload: { amount: '25', asset: 'USDT' } }]),
    );
    await stream.next(unread(1), from, 2_000);
    expect(Date.now() - started).toBeLessThan(2_000);

    // Marking read is a change too: the count follows.
    const after = stream.events.length;
    expect((await server.call('POST', '/api/notifications/read', { all: true }, { token })).body.data).toEqual({ count: 0 });
    await stream.next(unread(0), after, 2_000);
    stream.close();
    await stream.ended;
  });

  it("tells a user only of their own events, and ends every stream at once when the server stops", async () => {
    const stranger = await registerUser(server, { email: 'live-other@example.com' });
    const mine = await openStream(other.base, token);
    const theirs = await openStream(other.base, stranger.accessToken);
    await mine.next(unread(0), 0, 2_000);
    await theirs.next(unread(0), 0, 2_000);
    await server.db.transaction().execute((trx) =>
      recordEvents(trx, [{ userId: stranger.user.id, kind: 'wallet.transfer_received', taskId: null, payload: { amount: '1', asset: 'USDT', from: 'x' } }]),
    );
    await theirs.next(unread(1), 0, 2_000);
    expect(mine.events.filter((event) => event.event === 'unread').map((event) => event.data)).toEqual(['{"count":0}']);

    const started = Date.now();
    const stopping = other;
    other = undefined as never;
    await stopping.close();
    await Promise.all([mine.ended, theirs.ended]);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('ends a stream when the access token that opened it expires (the page opens a new one with a fresh token)', async () => {
    const short = await startServer(backend, { accessTokenTtlSeconds: 2 });
    try {
      const me = await registerUser(short, { email: 'short@example.com' });
      const stream = await openStream(short.base, me.accessToken);
      await stream.next(unread(0), 0, 2_000);
      const started = Date.now();
      await stream.ended;
      expect(Date.now() - started).toBeLessThan(2_500);
    } finally {
      await short.close();
    }
  });
});
