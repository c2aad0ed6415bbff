import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from './database';
import { TASKS_CHANNEL } from './migrations/017_change_notices';
import { createUserCache } from './userCache';

const quiet = { debug: () => undefined, warn: () => undefined } as never;

describe('kept task answers (embedded database)', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDatabase({});
    await migrate(db);
  }, 60_000);
  afterAll(async () => db?.destroy());

  const listening = async (cache: ReturnType<typeof createUserCache>) => {
    while (!cache.listening()) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  const notify = (payload: string) => sql`select pg_notify(${TASKS_CHANNEL}, ${payload})`.execute(db);

  it('shares one load among calls missing together, keeps its answer, and drops it on the user’s notice only', async () => {
    const cache = createUserCache(db, TASKS_CHANNEL, quiet);
    await listening(cache);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { n: loads };
    };
    const answers = await Promise.all([cache.get('u1', 'page', load), cache.get('u1', 'page', load), cache.get('u1', 'page', load)]);
    expect(loads).toBe(1);
    expect(answers.every((a) => a === answers[0])).toBe(true);
    expect(await cache.get('u1', 'page', load)).toBe(answers[0]);
    // Another user's key is their own.
    expect(await cache.get('u2', 'page', load)).toEqual({ n: 2 });
    await notify('u2');
    expect(await cache.get('u1', 'page', load)).toBe(answers[0]);
    await notify('u1');
    expect(await cache.get('u1', 'page', load)).toEqual({ n: 3 });
    await cache.close();
  });

  it('does not let a call join, or keep, a load that started before a change was heard', async () => {
    const cache = createUserCache(db, TASKS_CHANNEL, quiet);
    await listening(cache);
    let loads = 0;
    let release: () => void = () => undefined;
    const slow = () =>
      new Promise<{ n: number }>((resolve) => {
        loads += 1;
        const n = loads;
        release = () => resolve({ n });
      });
    const first = cache.get('u1', 'page', slow);
    const releaseFirst = release;
    await notify('u1');
    // Heard a change while the first load runs: a new call loads anew.
    const second = cache.get('u1', 'page', slow);
    expect(loads).toBe(2);
    releaseFirst();
    release();
    expect(await first).toEqual({ n: 1 });
    expect(await second).toEqual({ n: 2 });
    // The first overlapped the change and was not kept; the second started after it and was.
    expect(await cache.get('u1', 'page', async () => ({ n: 99 }))).toEqual({ n: 2 });
    await cache.close();
  });
});
