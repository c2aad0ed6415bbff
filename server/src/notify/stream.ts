/**
 * Live notifications (issue 25): the open pages of a user hear, as Server-Sent
 * Events, that their unread count changed, without waiting for the bell's poll.
 *
 * One hub per server process. It listens once to the `qt_notify` change
 * notices (migration 022's trigger: a new or changed event names its user), so
 * an event written by another process on PostgreSQL reaches this one's pages
 * too; on PGlite the notice comes within the writing query. A burst of notices
 * for one user becomes one count query (after `settleMs`) shared by all that
 * user's streams; notices for users with no open page cost a map lookup. When
 * the feed goes down or starts afresh (it may have missed notices), every
 * stream is told its count again.
 */
import { PassThrough } from 'node:stream';
import type { Db } from '../db/database';
import { listenChanges } from '../db/database';
import { NOTIFY_CHANNEL } from '../db/migrations/022_notifications';
import { unreadCount } from './service';

export interface HubOptions {
  /** Notices of one user within this long are answered with one count. */
  settleMs?: number;
  /** A comment line this often keeps proxies and the browser from taking the stream for dead. */
  heartbeatMs?: number;
  log?: { warn: (data: object, message: string) => void };
}

interface Stream {
  userId: string;
  out: PassThrough;
}

/** One Server-Sent Event: `event: <name>` and its JSON data. */
export const sseEvent = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

export const createNotifyHub = (db: Db, options: HubOptions = {}) => {
  const settleMs = options.settleMs ?? 150;
  const heartbeatMs = options.heartbeatMs ?? 25_000;
  const byUser = new Map<string, Set<Stream>>();
  const due = new Map<string, NodeJS.Timeout>();
  let closed = false;

  const tell = async (userId: string) => {
    due.delete(userId);
    const streams = byUser.get(userId);
    if (!streams || streams.size === 0 || closed) return;
    try {
      const line = sseEvent('unread', await unreadCount(db, userId));
      for (const stream of byUser.get(userId) ?? []) stream.out.write(line);
    } catch (error) {
      // The page's slow poll still runs; the next notice tries again.
      options.log?.warn({ error: String(error) }, 'notification stream: unread count failed');
    }
  };
  const soon = (userId: string) => {
    if (!byUser.has(userId) || due.has(userId) || closed) return;
    const timer = setTimeout(() => void tell(userId), settleMs);
    timer.unref();
    due.set(userId, timer);
  };

  const feed = listenChanges(db, NOTIFY_CHANNEL, {
    message: (userId) => soon(userId),
    reset: () => {
      for (const userId of byUser.keys()) soon(userId);
    },
  });

  const heartbeat = setInterval(() => {
    for (const streams of byUser.values()) for (const stream of streams) stream.out.write(': ping\n\n');
  }, heartbeatMs);
  heartbeat.unref();

  const drop = (stream: Stream) => {
    const streams = byUser.get(stream.userId);
    streams?.delete(stream);
    if (streams?.size === 0) byUser.delete(stream.userId);
  };

  return {
    /**
     * A new stream for the user: its first event is the current count, then
     * one each time it changes. It ends after `maxMs` (the page opens a new
     * one, authenticating again: an ended session stops hearing) or when the
     * hub closes.
     */
    open: (userId: string, maxMs: number): PassThrough => {
      const out = new PassThrough();
      const stream: Stream = { userId, out };
      if (closed) {
        out.end();
        return out;
      }
      // Reconnect after 3 s if the stream breaks (EventSource's `retry`; fetch readers read it too).
      out.write('retry: 3000\n\n');
      const streams = byUser.get(userId) ?? new Set<Stream>();
      streams.add(stream);
      byUser.set(userId, streams);
      const limit = setTimeout(() => out.end(), maxMs);
      limit.unref();
      out.on('close', () => {
        clearTimeout(limit);
        drop(stream);
      });
      void tell(userId);
      return out;
    },
    /** Streams open now (tests, diagnostics). */
    size: () => [...byUser.values()].reduce((sum, streams) => sum + streams.size, 0),
    /** Ends every stream (before the server stops listening: an open stream would hold its shutdown). */
    close: async () => {
      closed = true;
      clearInterval(heartbeat);
      for (const timer of due.values()) clearTimeout(timer);
      due.clear();
      for (const streams of byUser.values()) for (const stream of streams) stream.out.end();
      byUser.clear();
      await feed.close();
    },
  };
};

export type NotifyHub = ReturnType<typeof createNotifyHub>;
