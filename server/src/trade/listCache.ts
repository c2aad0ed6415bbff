import type { FastifyBaseLogger } from 'fastify';
import { listenChanges, type Db } from '../db/database';
import { TASKS_CHANNEL } from '../db/migrations/017_change_notices';

/** Users whose pages are kept at most (then it starts afresh), and pages per user. */
const MAX_USERS = 10_000;
const MAX_PAGES_PER_USER = 32;

/**
 * The database part of the task list (per user and query) and of a task's
 * detail (per user and task), kept while the database's change notices are
 * heard (db/changeFeed.ts): every write to a user's tasks, their cycles and
 * events, templates or exchange accounts is announced (migrations 017, 019)
 * and drops that user's entries, on PGlite before the writer goes on, on
 * PostgreSQL in every process at the commit (a call that wrote answers once
 * its own process has heard it). What changes without a write (live
 * positions, last prices) is never kept: it is filled in on every call. While
 * the notices cannot be heard nothing is kept.
 */
export const createListCache = (db: Db, log: FastifyBaseLogger) => {
  const byUser = new Map<string, Map<string, unknown>>();
  /** Loads under way, by user and key, with the count of messages heard when each started. */
  const loading = new Map<string, { before: number; answer: Promise<unknown> }>();
  let heard = 0;

  const feed = listenChanges(db, TASKS_CHANNEL, {
    message: (userId) => {
      heard += 1;
      if (userId === '*') byUser.clear();
      else byUser.delete(userId);
    },
    reset: () => {
      heard += 1;
      if (byUser.size > 0) log.debug('task notices start afresh: the kept task lists are dropped');
      byUser.clear();
    },
  });

  return {
    /** The kept answer of `key` for the user, or `load()`'s, kept when no change was heard meanwhile. */
    async get<T>(userId: string, key: string, load: () => Promise<T>): Promise<T> {
      const live = feed.live();
      const kept = live ? byUser.get(userId)?.get(key) : undefined;
      if (kept !== undefined) return kept as T;
      // Calls missing together share one load, as long as nothing was heard since it started (else it may be older than the change).
      const flightKey = `${userId}\u0000${key}`;
      const flying = live ? loading.get(flightKey) : undefined;
      if (flying && flying.before === heard) return flying.answer as Promise<T>;
      const before = heard;
      const answer = load();
      if (live) {
        loading.set(flightKey, { before, answer });
        const landed = () => {
          if (loading.get(flightKey)?.answer === answer) loading.delete(flightKey);
        };
        answer.then(landed, landed);
      }
      const value = await answer;
      if (live && feed.live() && heard === before) {
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
    /** Whether this process keeps answers (while it hears the database's notices). */
    listening: () => feed.live(),
    async close() {
      byUser.clear();
      await feed.close();
    },
  };
};
