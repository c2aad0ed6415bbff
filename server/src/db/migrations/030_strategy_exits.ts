import type { Kysely } from 'kysely';

/**
 * Strategy exits (issue 28): a template's several take-profit targets, where
 * its stop loss is measured from and when it arms, its time stop and the
 * break-even after the first target, as one JSON object (StrategyExits);
 * null for the templates that have none, which sell as before.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('strategies').addColumn('exits', 'jsonb').execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('strategies').dropColumn('exits').execute();
};
