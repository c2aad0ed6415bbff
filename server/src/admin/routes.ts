import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../http/envelope';
import { typed } from '../http/schemas';
import { readSettings } from '../settings';
import type { Sessions } from '../user/sessions';
import * as articles from './articles';
import { requireOperator } from '../shared/audit';
import { listAudit } from './auditLog';
import * as levels from './levels';
import * as money from './money';
import * as deliveries from './notifications';
import { listParams, parseListParams, sendList } from './rest';
import {
  articleRoutesSchema,
  auditRoutesSchema,
  deliveryRoutesSchema,
  depositRoutesSchema,
  levelRoutesSchema,
  settingsRoutesSchema,
  userRoutesSchema,
  withdrawalRoutesSchema,
} from './schemas';
import { engineStatusRoutes } from './engine';
import { editSettings } from './settings';
import * as users from './users';

/** Bodies of an article's create or change: three languages of up to 50 000 characters each (CJK is 3 bytes a character in UTF-8). */
const ARTICLE_BODY_LIMIT = 1024 * 1024;

/**
 * The operator console's calls under /api/admin/ (operators only: 11005 for
 * anyone else, and nothing changes): its resources in ra-data-simple-rest's
 * dialect (users, deposits, withdrawals, articles, levels, audit; rest.ts),
 * the settings, and the engine's health at /api/engine/status (engine.ts).
 * Every change writes its audit line in the transaction that makes it. The
 * routes parse and answer; schemas.ts holds their field rules and answers, a
 * service per resource the rest.
 */
export const adminDomain: FastifyPluginAsync<{ sessions: Sessions }> = async (instance, { sessions }) => {
  const app = typed(instance);
  const { db } = instance;
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', requireOperator);
  /** List routes take `sort`, `range` and `filter` as JSON text, parsed before validation. */
  const list = { preValidation: parseListParams };

  app.get('/api/admin/users', { schema: userRoutesSchema.list, ...list }, async (request, reply) =>
    sendList(reply, 'users', await users.listUsers(db, listParams(request.query, ['createdAt', 'DESC']))),
  );
  app.get('/api/admin/users/:id', { schema: userRoutesSchema.one }, async (request) => ok(await users.findUser(db, request.params.id)));
  app.put('/api/admin/users/:id', { schema: userRoutesSchema.change }, async (request) =>
    ok(await users.changeUser(db, sessions, request.user!.id, request.params.id, request.body)),
  );
  app.post('/api/admin/users/:id/reset-second-factor', { schema: userRoutesSchema.resetSecondFactor }, async (request) =>
    ok(await users.resetSecondFactor(db, app.secondFactors, request.user!.id, request.params.id)),
  );

  app.get('/api/admin/deposits', { schema: depositRoutesSchema.list, ...list }, async (request, reply) =>
    sendList(reply, 'deposits', await money.listDeposits(db, listParams(request.query, ['createdAt', 'DESC']))),
  );
  app.get('/api/admin/deposits/:id', { schema: depositRoutesSchema.one }, async (request) => ok(await money.deposit(db, request.params.id)));
  app.put('/api/admin/deposits/:id', { schema: depositRoutesSchema.decide }, async (request) =>
    ok(await money.decideDeposit(db, request.user!.id, request.params.id, request.body)),
  );

  app.get('/api/admin/withdrawals', { schema: withdrawalRoutesSchema.list, ...list }, async (request, reply) =>
    sendList(reply, 'withdrawals', await money.listWithdrawals(db, listParams(request.query, ['createdAt', 'DESC']))),
  );
  app.get('/api/admin/withdrawals/:id', { schema: withdrawalRoutesSchema.one }, async (request) => ok(await money.withdrawal(db, request.params.id)));
  app.put('/api/admin/withdrawals/:id', { schema: withdrawalRoutesSchema.decide }, async (request) =>
    ok(await money.decideWithdrawal(db, request.user!.id, request.params.id, request.body)),
  );

  app.get('/api/admin/articles', { schema: articleRoutesSchema.list, ...list }, async (request, reply) =>
    sendList(reply, 'articles', await articles.listArticles(db, listParams(request.query, ['updatedAt', 'DESC']))),
  );
  app.get('/api/admin/articles/:id', { schema: articleRoutesSchema.one }, async (request) => ok(await articles.findArticle(db, request.params.id)));
  app.post('/api/admin/articles', { schema: articleRoutesSchema.add, bodyLimit: ARTICLE_BODY_LIMIT }, async (request) =>
    ok(await articles.addArticle(db, request.user!.id, request.body)),
  );
  app.put('/api/admin/articles/:id', { schema: articleRoutesSchema.change, bodyLimit: ARTICLE_BODY_LIMIT }, async (request) =>
    ok(await articles.changeArticle(db, request.user!.id, request.params.id, request.body)),
  );
  app.delete('/api/admin/articles/:id', { schema: articleRoutesSchema.remove }, async (request) =>
    ok(await articles.deleteArticle(db, request.user!.id, request.params.id)),
  );

  app.get('/api/admin/levels', { schema: levelRoutesSchema.list, ...list }, async (request, reply) =>
    sendList(reply, 'levels', await levels.listLevels(db, listParams(request.query, ['level', 'ASC']))),
  );
  app.get('/api/admin/levels/:id', { schema: levelRoutesSchema.one }, async (request) => ok(await levels.findLevel(db, request.params.id)));
  app.post('/api/admin/levels', { schema: levelRoutesSchema.add }, async (request) => ok(await levels.addLevel(db, request.user!.id, request.body)));
  app.put('/api/admin/levels/:id', { schema: levelRoutesSchema.change }, async (request) =>
    ok(await levels.changeLevel(db, request.user!.id, request.params.id, request.body)),
  );
  app.delete('/api/admin/levels/:id', { schema: levelRoutesSchema.remove }, async (request) => ok(await levels.removeLevel(db, request.user!.id, request.params.id)));

  app.get('/api/admin/audit', { schema: auditRoutesSchema.list, ...list }, async (request, reply) =>
    sendList(reply, 'audit', await listAudit(db, listParams(request.query, ['createdAt', 'DESC']))),
  );

  app.get('/api/admin/notification-deliveries', { schema: deliveryRoutesSchema.list, ...list }, async (request, reply) =>
    sendList(reply, 'notification-deliveries', await deliveries.listDeliveries(db, listParams(request.query, ['createdAt', 'DESC']))),
  );
  app.get('/api/admin/notification-deliveries/:id', { schema: deliveryRoutesSchema.one }, async (request) => ok(await deliveries.findDelivery(db, request.params.id)));
  app.put('/api/admin/notification-deliveries/:id', { schema: deliveryRoutesSchema.retry }, async (request) =>
    ok(await deliveries.retryDelivery(db, request.user!.id, request.params.id, request.body)),
  );
  app.get('/api/admin/notification-counts', { schema: deliveryRoutesSchema.counts }, async () => ok(await deliveries.countDeliveries(db)));

  app.get('/api/admin/settings', { schema: settingsRoutesSchema.read }, async () => ok(await readSettings(db)));
  app.post('/api/admin/settings/edit', { schema: settingsRoutesSchema.edit }, async (request) => ok(await editSettings(db, request.user!.id, request.body)));

  // The engine's health, /api/engine/status, behind the same operators-only hooks.
  await app.register(engineStatusRoutes);
};
