import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dropSchema, migrate, openDatabase } from '../src/db/database';

/**
 * On PostgreSQL a read sent often is prepared on its connection (its plan
 * kept), a read with `*` never is, so a column added meanwhile changes
 * nothing for it; the answers are the same either way.
 */
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('reads prepared after repeats (postgres)', () => {
  it('prepares a repeated read that names its columns, and never one with *', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const db = await openDatabase({ url: process.env.TEST_DATABASE_URL, schema });
    try {
      await migrate(db, schema);
      await db.insertInto('users').values({ email: 'p@example.com', nickname: 'P', password_hash: 'x', invite_code: 'PREP1', inviter_id: null, avatar: null } as never).execute();
      await db.connection().execute(async (conn) => {
        const named = () => conn.selectFrom('users').select(['email', 'nickname']).where('invite_code', '=', 'PREP1').execute();
        const starred = () => conn.selectFrom('users').selectAll().where('invite_code', '=', 'PREP1').execute();
        for (let i = 0; i < 12; i++) {
          expect(await named()).toEqual([{ email: 'p@example.com', nickname: 'P' }]);
          expect((await starred())[0]).toMatchObject({ email: 'p@example.com' });
        }
        const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(conn);
        const texts = prepared.rows.map((r) => r.statement);
        expect(texts.some((t) => t.includes('"nickname"'))).toBe(true);
        expect(texts.some((t) => t.includes('*'))).toBe(false);
        // A migration elsewhere adds a column: both reads go on.
        await sql`alter table users add column extra text`.execute(conn);
        expect(await named()).toEqual([{ email: 'p@example.com', nickname: 'P' }]);
        expect((await starred())[0]).toMatchObject({ email: 'p@example.com', extra: null });
      });
    } finally {
      await dropSchema(db, schema);
      await db.destroy();
    }
  });
});
