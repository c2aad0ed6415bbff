import type { FastifyBaseLogger } from 'fastify';
import { listenChanges, type Db } from '../db/database';
import { AUTH_CHANNEL } from '../db/migrations/017_change_notices';

/** Above this many entries the cache starts afresh (one entry per signed-in session in use). */
const MAX_ENTRIES = 100_000;

export interface LiveSession {
  role: 'user' | 'operator';
}

interface Waiting {
  sessionId: string;
  userId: string;
  resolve: (live: LiveSession | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Every authenticated call checks that its session is live and its user not
 * disabled (and reads the user's role), so that a logout, a password change or
 * a disabled account takes effect on the very next call, in every process.
 *
 * The sessions found live are kept in memory while the database's change
 * notices are heard (db/changeFeed.ts; the triggers of migration 017 announce
 * every session ended and every user disabled, re-roled or deleted, whoever
 * writes), and an entry is dropped on its notice:
 * - PGlite delivers a notice within the query whose commit sends it, before
 *   its writer goes on;
 * - on PostgreSQL every process hears it on its listening connection at the
 *   commit, and the call that wrote answers only once its own process has
 *   heard it (`sync`, awaited before any answer to a call that may write), so
 *   the next call, in whichever process, finds the session gone.
 * While the notices cannot be heard (PostgreSQL's listening connection down
 * or reconnecting) nothing is kept: every check asks the database. The checks
 * asking the database together share one query: a call joins a query not sent
 * yet (so it sees every change committed before the call arrived), and 50
 * concurrent calls cost one query instead of 50.
 */
export const createSessionCache = (db: Db, log: FastifyBaseLogger) => {
  const entries = new Map<string, { userId: string; role: LiveSession['role'] }>();
  /** Counts what was heard: an answer read before a message is not kept (it may be older than the change). */
  let heard = 0;

  const forget = (payload: string) => {
    heard += 1;
    const [kind, id] = [payload.slice(0, 2), payload.slice(2)];
    if (kind === 's:') entries.delete(id);
    else if (kind === 'u:') {
      for (const [sessionId, entry] of entries) if (entry.userId === id) entries.delete(sessionId);
    } else entries.clear();
  };

  const feed = listenChanges(db, AUTH_CHANNEL, {
    message: forget,
    reset: () => {
      heard += 1;
      if (entries.size > 0) log.debug('session notices start afresh: the kept sessions are dropped');
      entries.clear();
    },
  });

  let waiting: Waiting[] = [];
  let asking = false;
  /** One query for every check waiting now; the checks arriving meanwhile wait for the next. */
  const ask = async () => {
    asking = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      const before = heard;
      const wasListening = feed.live();
      try {
        const rows = await db
          .selectFrom('sessions')
          .innerJoin('users', 'users.id', 'sessions.user_id')
          .select(['sessions.id', 'sessions.user_id', 'users.role'])
          .where('sessions.id', 'in', [...new Set(batch.map((w) => w.sessionId))])
          .where('sessions.revoked_at', 'is', null)
          .where('users.disabled', '=', false)
          .execute();
        const live = new Map(rows.map((row) => [row.id, row]));
        const keep = wasListening && feed.live() && heard === before;
        for (const w of batch) {
          const row = live.get(w.sessionId);
          if (!row || row.user_id !== w.userId) {
            w.resolve(null);
            continue;
          }
          if (keep) {
            if (entries.size >= MAX_ENTRIES) entries.clear();
            entries.set(w.sessionId, { userId: w.userId, role: row.role });
          }
          w.resolve({ role: row.role });
        }
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    asking = false;
  };

  return {
    /** The session's user's role while the session is live and its user not disabled; otherwise null. */
    check(sessionId: string, userId: string): Promise<LiveSession | null> {
      const kept = feed.live() ? entries.get(sessionId) : undefined;
      if (kept && kept.userId === userId) return Promise.resolve({ role: kept.role });
      return new Promise((resolve, reject) => {
        waiting.push({ sessionId, userId, resolve, reject });
        // The calls read in this turn of the event loop go in one query.
        if (!asking) {
          asking = true;
          setImmediate(() => void ask());
        }
      });
    },
    /** Entries kept now (tests). */
    size: () => entries.size,
    /** Whether this process keeps sessions (while it hears the database's notices). */
    listening: () => feed.live(),
    /** Resolves once this process has heard every notice committed before the call (see above). */
    sync: () => feed.sync(),
    /** PostgreSQL: the listening connection's server process id while live (tests); otherwise null. */
    listenerPid: () => feed.listenerPid(),
    async close() {
      entries.clear();
      await feed.close();
    },
  };
};
export type SessionCache = ReturnType<typeof createSessionCache>;
