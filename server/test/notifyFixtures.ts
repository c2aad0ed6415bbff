import { randomBytes, randomUUID } from 'node:crypto';
import { dropSchema, openDatabase, type Db } from '../src/db/database';
import type { OutgoingMessage } from '../src/notify/channel';
import { filePglite, migrateFresh } from './harness';

/** A fresh migrated schema on the file's PGlite (or PostgreSQL) with one user, for the channel senders' tests. */
export const channelDb = async (backend: 'pglite' | 'postgres'): Promise<{ db: Db; schema: string; userId: string; close: () => Promise<void> }> => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let db: Db;
  if (backend === 'postgres') {
    db = await openDatabase({ url: process.env.TEST_DATABASE_URL, schema });
    await migrateFresh(db, schema);
  } else {
    const pglite = await filePglite();
    db = await openDatabase({ pglite, schema });
    await migrateFresh(db, schema, pglite);
  }
  const user = await db
    .insertInto('users')
    .values({ email: `u${randomBytes(4).toString('hex')}@example.com`, nickname: 'Pat', password_hash: 'x', invite_code: randomBytes(4).toString('hex') })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    db,
    schema,
    userId: user.id,
    close: async () => {
      await dropSchema(db, schema);
      if (backend === 'postgres') await db.destroy();
    },
  };
};

export const message = (userId: string, overrides: Partial<OutgoingMessage> = {}): OutgoingMessage => ({
  eventIds: [randomUUID()],
  userId,
  locale: 'en-US',
  kind: 'trade.cycle_closed',
  title: 'Cycle closed',
  text: 'BTC/USDT cycle 3 closed +1.82 USDT',
  link: '#/tasks/abc/show',
  data: { taskId: 'abc', profit: '1.82' },
  ...overrides,
});
