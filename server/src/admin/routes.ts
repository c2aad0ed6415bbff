import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ServiceSettings } from '../../../src/api/admin';
import { ErrorCode } from '../../../src/api/errors';
import type { Db } from '../db/database';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { checkSettingsChange, readSettings, settingsChangeSchema, writeSettings } from '../settings';
import type { Sessions } from '../user/sessions';
import { articleRoutes } from './articles';
import { recordAudit, requireOperator } from './audit';
import { auditRoutes } from './auditLog';
import { levelRoutes } from './levels';
import { moneyRoutes } from './money';
import { userRoutes } from './users';

/**
 * The operator console's calls under /api/admin/ (operators only: 11005 for
 * anyone else, and nothing changes): its resources in ra-data-simple-rest's
 * dialect (users, deposits, withdrawals, articles, levels, audit; rest.ts)
 * and the settings. Every change writes its audit line in the transaction
 * that makes it.
 */
export const adminRoutes = ({ db, sessions }: { db: Db; sessions: Sessions }) => async (app: FastifyInstance) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireOperator);

  userRoutes(app, { db, sessions });
  moneyRoutes(app, db);
  articleRoutes(app, db);
  levelRoutes(app, db);
  auditRoutes(app, db);

  app.get('/api/admin/settings', { schema: { summary: 'The configured rules in force', security: [{ bearer: [] }] } }, async () => ok(await readSettings(db)));

  app.post(
    '/api/admin/settings/edit',
    { schema: { summary: 'Change some of the configured rules (the levels are their own resource)', security: [{ bearer: [] }], body: settingsChangeSchema } },
    async (request) => {
      const raw = request.body as Partial<ServiceSettings>;
      if (Object.keys(raw).length === 0) fail(ErrorCode.PARAM_REQUIRED, 'nothing to change', { field: null });
      const change = checkSettingsChange(raw);
      const operatorId = request.user!.id;
      const settings = await db.transaction().execute(async (trx) => {
        // One change at a time: each one reads the settings the previous one wrote.
        await sql`select pg_advisory_xact_lock(hashtext('settings.service'))`.execute(trx);
        const before = await readSettings(trx);
        const after = await writeSettings(trx, change);
        const previous = Object.fromEntries(Object.keys(change).map((key) => [key, before[key as keyof ServiceSettings]]));
        await recordAudit(trx, { operatorId, action: 'settings.edit', targetType: 'settings', targetId: null, data: { changes: change, before: previous } });
        return after;
      });
      return ok(settings);
    },
  );
};
