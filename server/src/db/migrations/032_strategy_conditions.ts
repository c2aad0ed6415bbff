import { sql, type Kysely } from 'kysely';

/**
 * Signals (issue 29): a template's start, replenish and close conditions as
 * one JSON object (StrategyConditions); null for the templates that have
 * none, which trade as before. A cycle may now end on a signal (the close
 * conditions, or a TradingView alert closing the position).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('strategies').addColumn('conditions', 'jsonb').execute();
  await sql`alter table cycles drop constraint if exists cycles_exit_reason_check`.execute(db);
  await sql`alter table cycles add constraint cycles_exit_reason_check check (exit_reason in ('take_profit', 'stop_loss', 'close', 'signal'))`.execute(db);
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await sql`alter table cycles drop constraint if exists cycles_exit_reason_check`.execute(db);
  await sql`alter table cycles add constraint cycles_exit_reason_check check (exit_reason in ('take_profit', 'stop_loss', 'close'))`.execute(db);
  await db.schema.alterTable('strategies').dropColumn('conditions').execute();
};
