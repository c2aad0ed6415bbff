import type { FastifyBaseLogger } from 'fastify';
import { listenChanges, type Db } from './database';

/** Users whose pages are kept at most (then it starts afresh), and pages per user. */
const MAX_USERS = 10_000;
const MAX_PAGES_PER_USER = 32;

/**
 * Answers kept per user and key while the database's change notices on
 * `channel` are heard (db/changeFeed.ts): a message naming a user drops that
 * user's entries ('*' drops everyone's), on PGlite before the writer goes on,
 * on PostgreSQL in every process at the commit (a call that wrote answers
 * once every process has heard it). While the notices cannot be heard nothing
 * is kept. Used for the stored part of the task list and detail
 * (`qt_tasks`: tasks, their cycles and events, templates, exchange accounts;
 * migrations 017, 019) and for wallet balances (`qt_wallet`, migration 020).
 * What changes without a write (live positions, last prices) is never kept.
 */
export const createUserCache = (db: Db, channel: string, log: FastifyBaseLogger) => {
  const byUser = new Map<string, Map<string, unknown>>();
  /** Loads under way, by user and key, with the count of messages heard when each started. */
  const loading = new Map<string, { before: number; answer: Promise<unknown> }>();
  let heard = 0;

  const feed = listenChanges(db, channel, {
    message: (userId) => {
      heard += 1;
      if (userId === '*') byUser.clear();
      else byUser.delete(userId);
    },
    reset: () => {
      heard += 1;
      if (byUser.size > 0) log.debug({ channel }, 'change notices start afresh: the kept answers are dropped');
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
