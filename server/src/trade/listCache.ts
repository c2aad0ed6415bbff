import type { FastifyBaseLogger } from 'fastify';
import { listenEmbedded, type Db } from '../db/database';
import { TASKS_CHANNEL } from '../db/migrations/017_change_notices';

/** Users whose pages are kept at most (then it starts afresh), and pages per user. */
const MAX_USERS = 10_000;
const MAX_PAGES_PER_USER = 32;

/**
 * The task list's database rows per user and query, kept on the embedded
 * database only: every write to a user's tasks, cycles, templates or exchange
 * accounts is announced (migration 016) within the query that commits it,
 * and drops that user's pages before the writer goes on. What changes without
 * a write (live positions, last prices) is never kept: it is filled in on
 * every call. On PostgreSQL (several processes) nothing is kept.
 */
export const createListCache = (db: Db, log: FastifyBaseLogger) => {
  const byUser = new Map<string, Map<string, unknown>>();
  let listening = false;
  let heard = 0;

  const stop = listenEmbedded(db, TASKS_CHANNEL, (userId) => {
    heard += 1;
    if (userId === '*') byUser.clear();
    else byUser.delete(userId);
  }).then(
    (unlisten) => {
      if (unlisten) listening = true;
      return unlisten;
    },
    (error: Error) => {
      log.warn({ err: error }, 'task changes cannot be heard: every list asks the database');
      return null;
    },
  );

  return {
    /** The kept answer of `key` for the user, or `load()`'s, kept when no change was heard meanwhile. */
    async get<T>(userId: string, key: string, load: () => Promise<T>): Promise<T> {
      const kept = listening ? byUser.get(userId)?.get(key) : undefined;
      if (kept !== undefined) return kept as T;
      const before = heard;
      const wasListening = listening;
      const value = await load();
      if (wasListening && listening && heard === before) {
        let pages = byUser.get(userId);
        if (!pages) {
          if (byUser.size >= MAX_USERS) byUser.clear();
          pages = new Map();
          byUser.set(userId, pages);
        }
        if (pages.size >= MAX_PAGES_PER_USER) pages.clear();
        pages.set(key, value);
      }
      return value;
    },
    async close() {
      listening = false;
      byUser.clear();
      await (await stop)?.();
    },
  };
};
