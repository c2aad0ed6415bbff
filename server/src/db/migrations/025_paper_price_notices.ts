import type { Kysely } from 'kysely';

/**
 * A paper account on a live price source remembers whether its owner was
 * last told it fell back to simulated prices (since when) or not: the engine
 * tells each change once, whichever process drives the account, also after
 * a restart (issue 25).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('exchange_accounts').addColumn('paper_fallback_since', 'timestamptz').execute();
};
