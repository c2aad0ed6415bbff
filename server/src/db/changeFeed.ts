import { randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { AUTH_CHANNEL, TASKS_CHANNEL } from './migrations/017_change_notices';
import { WALLET_CHANNEL } from './migrations/020_wallet_notices';
import { NOTIFY_CHANNEL } from './migrations/022_notifications';

/**
 * The database's change notices (the triggers of migrations 017, 019 and 020) as one feed per
 * database handle, for the caches of this process (http/sessionCache.ts,
 * db/userCache.ts). A cache keeps answers only while its feed is live,
 * and drops them on every message and whenever the feed starts afresh.
 *
 * - Embedded database (PGlite, one process by its lock): PGlite delivers each
 *   message within the query whose commit sends it, before that query's
 *   answer, so a listener hears a change before its writer goes on.
 * - PostgreSQL (several processes): one dedicated connection per process
 *   LISTENs; PostgreSQL hands a committed transaction's messages to every
 *   listening connection at its commit, in commit order. A call that wrote
 *   answers only once every listening process has said that it heard
 *   everything committed before (sync below: a marker all of them hear, each
 *   answering it after handing the earlier messages to its caches), so when
 *   its client goes on, every process has dropped what the write changed.
 *   While that connection is down or reconnecting the feed is not live:
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
/** The channels of the triggers' messages (migrations 017, 019, 020, 022). */
const NOTICE_CHANNELS = [AUTH_CHANNEL, TASKS_CHANNEL, WALLET_CHANNEL, NOTIFY_CHANNEL];
const CHANNELS = [...NOTICE_CHANNELS, SYNC_CHANNEL];
/** Wait before reconnecting a lost listening connection. */
const RECONNECT_MS = 500;
/**
 * A sync's own marker not back by then: the connection is taken for lost (the
 * caches stop keeping) and opened again; another process's answer not heard
 * by then: that process has not heard its own heartbeat for longer than its
 * lease, so its caches no longer answer, and the sync ends.
 */
const SYNC_TIMEOUT_MS = 2_500;
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
  const stops = Promise.all(NOTICE_CHANNELS.map((channel) => pglite.listen(channel, (payload) => dispatch(subscribers, channel, payload)))).then(
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

/**
 * PostgreSQL. Markers on the sync channel, sent on the listening connection:
 * `h:<feed>` a heartbeat (every feed hears every other's: who is listening),
 * `s:<feed>:<marker>` a sync asked, `a:<marker>:<feed>` a feed's answer that
 * it has heard everything up to that sync, `b:<feed>` a feed closing.
 */
const serverFeed = (url: string): Feed => {
  const self = randomUUID();
  const subscribers = new Set<Subscriber>();
  /** Syncs of this feed: called with the marker's message once its own marker comes back, then with each answer. */
  const syncs = new Map<string, (kind: 'back' | 'answer', from: string) => void>();
  /** Other feeds heard lately, and when. */
  const peers = new Map<string, number>();
  let client: pg.Client | null = null;
  let connected = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  /** When this feed last heard its own heartbeat: it hears everything sent up to then. */
  let proven = 0;

  const reset = () => {
    for (const s of subscribers) s.reset();
  };
  const send = (which: pg.Client, payload: string) => {
    which.query('select pg_notify($1, $2)', [SYNC_CHANNEL, payload]).catch(() => lost(which));
  };

  const lost = (which: pg.Client) => {
    if (client !== which) return;
    client = null;
    connected = false;
    proven = 0;
    reset();
    for (const done of syncs.values()) done('back', '');
    syncs.clear();
    which.end().catch(() => undefined);
    if (!closed) {
      retry = setTimeout(connect, RECONNECT_MS);
      retry.unref();
    }
  };

  const onSync = (which: pg.Client, payload: string) => {
    const [kind, first = '', second = ''] = payload.split(':');
    const now = Date.now();
    if (kind === 'h') {
      if (first === self) proven = now;
      else peers.set(first, now);
    } else if (kind === 's') {
      if (first === self) syncs.get(second)?.('back', '');
      // Everything committed before this sync has been handed to the caches above: say so.
      else send(which, `a:${second}:${self}`);
    } else if (kind === 'a') {
      peers.set(second, now);
      syncs.get(first)?.('answer', second);
    } else if (kind === 'b' && first !== self) {
      // A feed closing: nothing to wait for from it.
      peers.delete(first);
      for (const done of syncs.values()) done('answer', first);
    }
  };

  const connect = () => {
    if (closed) return;
    const next = new pg.Client({ connectionString: url, keepAlive: true });
    client = next;
    next.on('notification', (notice) => {
      if (client !== next) return;
      const payload = notice.payload ?? '';
      if (notice.channel === SYNC_CHANNEL) onSync(next, payload);
      else dispatch(subscribers, notice.channel, payload);
    });
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    next
      .connect()
      .then(() => next.query(CHANNELS.map((channel) => `listen ${channel}`).join('; ')))
      .then(
        () => {
          if (client !== next || closed) return;
          // Whatever was kept before may have missed messages: start afresh, live once the first heartbeat comes back.
          connected = true;
          reset();
          send(next, `h:${self}`);
        },
        () => lost(next),
      );
  };
  connect();
  const heartbeat = setInterval(() => {
    if (client && connected) send(client, `h:${self}`);
    const old = Date.now() - LEASE_MS - HEARTBEAT_MS;
    for (const [peer, seen] of peers) if (seen < old) peers.delete(peer);
  }, HEARTBEAT_MS);
  heartbeat.unref();

  const feed: Feed = {
    live: () => connected && Date.now() - proven < LEASE_MS,
    sync() {
      const listening = client;
      if (!connected || !listening) return Promise.resolve();
      const marker = randomUUID();
      return new Promise<void>((resolve) => {
        let waiting: Set<string> | null = null;
        const answered = new Set<string>();
        const finish = () => {
          clearTimeout(timer);
          syncs.delete(marker);
          resolve();
        };
        // A feed that does not answer by then has not heard its own heartbeat either: its caches no longer answer.
        const timer = setTimeout(() => {
          if (!syncs.has(marker)) return;
          if (waiting === null) lost(listening);
          finish();
        }, SYNC_TIMEOUT_MS);
        syncs.set(marker, (kind, from) => {
          if (kind === 'back') {
            if (client !== listening) return finish();
            // Every feed that heard this marker has heard what was committed before it; wait for those heard lately.
            const lately = Date.now() - LEASE_MS - HEARTBEAT_MS;
            waiting = new Set([...peers].filter(([peer, seen]) => seen >= lately && !answered.has(peer)).map(([peer]) => peer));
          } else if (waiting === null) answered.add(from);
          else waiting.delete(from);
          if (waiting !== null && waiting.size === 0) finish();
        });
        send(listening, `s:${self}:${marker}`);
      });
    },
    add: (s) => void subscribers.add(s),
    remove: (s) => subscribers.delete(s) && subscribers.size === 0,
    async shutdown() {
      closed = true;
      connected = false;
      clearTimeout(retry);
      clearInterval(heartbeat);
      for (const done of syncs.values()) done('back', '');
      syncs.clear();
      const last = client;
      client = null;
      if (last) await last.query('select pg_notify($1, $2)', [SYNC_CHANNEL, `b:${self}`]).catch(() => undefined);
      await last?.end().catch(() => undefined);
    },
    listenerPid: () => (connected ? ((client as unknown as { processID?: number } | null)?.processID ?? null) : null),
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
