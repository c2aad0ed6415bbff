import { randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { AUTH_CHANNEL, TASKS_CHANNEL } from './migrations/017_change_notices';

/**
 * The database's change notices (migration 017's triggers) as one feed per
 * database handle, for the caches of this process (http/sessionCache.ts,
 * trade/listCache.ts). A cache keeps answers only while its feed is live,
 * and drops them on every message and whenever the feed starts afresh.
 *
 * - Embedded database (PGlite, one process by its lock): PGlite delivers each
 *   message within the query whose commit sends it, before that query's
 *   answer, so a listener hears a change before its writer goes on.
 * - PostgreSQL (several processes): one dedicated connection per process
 *   LISTENs; PostgreSQL hands a committed transaction's messages to every
 *   listening connection at its commit, in commit order. A call that wrote
 *   answers only once this process's listener has heard everything committed
 *   before (sync below), so when its client goes on, every process has been
 *   told. While that connection is down or reconnecting the feed is not live:
 *   the caches are emptied and every call asks the database; on reconnecting
 *   they start afresh.
 */
export interface ChangeHandlers {
  /** A message on the channel subscribed to. */
  message: (payload: string) => void;
  /** Forget everything: the feed went down, or came (back) up and may have missed messages. */
  reset: () => void;
}

export interface ChangeSubscription {
  /** Whether messages are heard now (a cache keeps answers only then). */
  live(): boolean;
  /**
   * Resolves once this process has heard every message committed before the
   * call (at once on PGlite, which delivers them within the writing query).
   */
  sync(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL: the server process id of the listening connection while live (tests, diagnostics); otherwise null. */
  listenerPid(): number | null;
}

/** Channel of the feed's own markers (sync). */
const SYNC_CHANNEL = 'qt_sync';
const CHANNELS = [AUTH_CHANNEL, TASKS_CHANNEL, SYNC_CHANNEL];
/** Wait before reconnecting a lost listening connection. */
const RECONNECT_MS = 500;
/** A sync marker not heard by then: the connection is taken for lost (the caches stop keeping) and opened again. */
const SYNC_TIMEOUT_MS = 2_000;
/**
 * A connection that dies without a word (a network cut) tells nothing: the
 * listener sends itself a marker this often, and the feed counts as live only
 * while one came back within LEASE_MS, so a silent listener stops the caches
 * within that time.
 */
const HEARTBEAT_MS = 500;
const LEASE_MS = 2_000;

interface Subscriber extends ChangeHandlers {
  channel: string;
}

interface Feed {
  live(): boolean;
  sync(): Promise<void>;
  add(subscriber: Subscriber): void;
  /** Removes it; true when none is left (then shut it down). */
  remove(subscriber: Subscriber): boolean;
  shutdown(): Promise<void>;
  listenerPid?: () => number | null;
}

const dispatch = (subscribers: Set<Subscriber>, channel: string, payload: string) => {
  for (const s of subscribers) if (s.channel === channel) s.message(payload);
};

const embeddedFeed = (pglite: PGlite): Feed => {
  const subscribers = new Set<Subscriber>();
  let live = false;
  const stops = Promise.all(CHANNELS.slice(0, 2).map((channel) => pglite.listen(channel, (payload) => dispatch(subscribers, channel, payload)))).then(
    (unlisten) => {
      live = true;
      for (const s of subscribers) s.reset();
      return unlisten;
    },
    () => [] as (() => Promise<void>)[],
  );
  return {
    live: () => live,
    sync: () => Promise.resolve(),
    add: (s) => void subscribers.add(s),
    remove: (s) => subscribers.delete(s) && subscribers.size === 0,
    async shutdown() {
      live = false;
      for (const unlisten of await stops) await unlisten().catch(() => undefined);
    },
  };
};

const serverFeed = (url: string): Feed => {
  const subscribers = new Set<Subscriber>();
  const syncs = new Map<string, () => void>();
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  /** When the listener last proved that it hears (connected, or a marker of its own came back). */
  let proven = 0;

  const reset = () => {
    for (const s of subscribers) s.reset();
  };

  const lost = (which: pg.Client) => {
    if (client !== which) return;
    client = null;
    live = false;
    reset();
    for (const done of syncs.values()) done();
    syncs.clear();
    which.end().catch(() => undefined);
    if (!closed) {
      retry = setTimeout(connect, RECONNECT_MS);
      retry.unref();
    }
  };

  const connect = () => {
    if (closed) return;
    const next = new pg.Client({ connectionString: url, keepAlive: true });
    client = next;
    next.on('notification', (notice) => {
      if (client !== next) return;
      const payload = notice.payload ?? '';
      if (notice.channel === SYNC_CHANNEL) {
        const done = syncs.get(payload);
        if (done) {
          syncs.delete(payload);
          done();
        }
        return;
      }
      dispatch(subscribers, notice.channel, payload);
    });
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    next
      .connect()
      .then(() => next.query(CHANNELS.map((channel) => `listen ${channel}`).join('; ')))
      .then(
        () => {
          if (client !== next || closed) return;
          // Whatever was kept before may have missed messages: start afresh.
          live = true;
          proven = Date.now();
          reset();
        },
        () => lost(next),
      );
  };
  connect();
  const heartbeat = setInterval(() => void feed.sync(), HEARTBEAT_MS);
  heartbeat.unref();

  const feed: Feed = {
    live: () => live && Date.now() - proven < LEASE_MS,
    sync() {
      const listening = client;
      if (!live || !listening) return Promise.resolve();
      const marker = randomUUID();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          if (syncs.delete(marker)) {
            resolve();
            lost(listening);
          }
        }, SYNC_TIMEOUT_MS);
        syncs.set(marker, () => {
          clearTimeout(timer);
          if (client === listening) proven = Date.now();
          resolve();
        });
        // Sent on the listening connection itself: it is delivered after every message committed before it.
        listening.query('select pg_notify($1, $2)', [SYNC_CHANNEL, marker]).catch(() => lost(listening));
      });
    },
    add: (s) => void subscribers.add(s),
    remove: (s) => subscribers.delete(s) && subscribers.size === 0,
    async shutdown() {
      closed = true;
      live = false;
      clearTimeout(retry);
      clearInterval(heartbeat);
      for (const done of syncs.values()) done();
      syncs.clear();
      const last = client;
      client = null;
      await last?.end().catch(() => undefined);
    },
    listenerPid: () => (live ? ((client as unknown as { processID?: number } | null)?.processID ?? null) : null),
  };
  return feed;
};

/** Where a database handle's notices come from (set by openDatabase). */
export type FeedSource = { pglite: PGlite } | { url: string };

const feeds = new WeakMap<object, Feed>();

/** Subscribes to a channel of the handle's feed (one per handle and process, opened by the first subscriber). */
export const subscribe = (handle: object, source: FeedSource | undefined, channel: string, handlers: ChangeHandlers): ChangeSubscription => {
  if (!source) {
    // A database not opened by openDatabase: nothing is heard, nothing is kept.
    return { live: () => false, sync: () => Promise.resolve(), close: () => Promise.resolve(), listenerPid: () => null };
  }
  let feed = feeds.get(handle);
  if (!feed) {
    feed = 'pglite' in source ? embeddedFeed(source.pglite) : serverFeed(source.url);
    feeds.set(handle, feed);
  }
  const subscriber: Subscriber = { channel, ...handlers };
  feed.add(subscriber);
  const own = feed;
  let closed = false;
  return {
    live: () => !closed && own.live(),
    sync: () => own.sync(),
    listenerPid: () => own.listenerPid?.() ?? null,
    async close() {
      if (closed) return;
      closed = true;
      if (!own.remove(subscriber)) return;
      if (feeds.get(handle) === own) feeds.delete(handle);
      await own.shutdown();
    },
  };
};
