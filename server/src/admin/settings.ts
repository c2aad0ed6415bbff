import { sql } from 'kysely';
import type { ServiceSettings } from '../../../src/api/admin';
import { ErrorCode } from '../../../src/api/errors';
import type { Db } from '../db/database';
import { fail } from '../http/errors';
import { checkSettingsChange, readSettings, writeSettings } from '../settings';
import { recordAudit } from '../shared/audit';

/**
 * Changes some of the configured rules (the levels are their own resource):
 * checked beyond the schema (checkSettingsChange), written with the audit
 * line of what changed and the values before, one change at a time. Answers
 * the settings in force.
 */
export const editSettings = async (db: Db, operatorId: string, raw: Partial<Omit<ServiceSettings, 'levels'>>): Promise<ServiceSettings> => {
  if (Object.keys(raw).length === 0) fail(ErrorCode.PARAM_REQUIRED, 'nothing to change', { field: null });
  const change = checkSettingsChange(raw);
  return db.transaction().execute(async (trx) => {
    // One change at a time: each one reads the settings the previous one wrote.
    await sql`select pg_advisory_xact_lock(hashtext('settings.service'))`.execute(trx);
    const before = await readSettings(trx);
    const after = await writeSettings(trx, change);
    const previous = Object.fromEntries(Object.keys(change).map((key) => [key, before[key as keyof ServiceSettings]]));
    await recordAudit(trx, { operatorId, action: 'settings.edit', targetType: 'settings', targetId: null, data: { changes: change, before: previous } });
    return after;
  });
};
