import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../http/envelope';
import { typed } from '../http/schemas';
import { refuseDemoUser } from '../shared/demoGuard';
import { stepUpHeaders } from '../security/schemas';
import { issueSchema, listSchema, refreshSchema, revokeSchema } from './schemas';
import * as widgets from './service';
import type { WidgetTokens } from './tokens';

/** Widget grants and tokens (README "Widget tokens"). */
export const widgetDomain: FastifyPluginAsync<{ tokens: WidgetTokens }> = async (instance, { tokens }) => {
  const app = typed(instance);
  const { db } = instance;
  // The shared demo account grants nothing that outlives a visitor's session, and no visitor revokes another's grant.
  app.post('/api/user/widget-token', { schema: { ...issueSchema, headers: stepUpHeaders }, onRequest: app.authenticate }, async (request) => {
    await refuseDemoUser(db, request.user!.id, 'grant widget access');
    await app.stepUp(request);
    return ok(await widgets.issueGrant(db, tokens, request.user!.id, request.body));
  });

  // The partner key authenticates this call: no bearer token.
  app.put('/api/user/widget-token', { schema: refreshSchema }, async (request) => {
    const body = request.body;
    return ok(await widgets.refreshToken(db, tokens, body.key, body.ttlSeconds));
  });

  app.get('/api/user/widget-tokens', { schema: listSchema, onRequest: app.authenticate }, async (request) => ok(await widgets.listGrants(db, request.user!.id)));

  app.post('/api/user/widget-tokens/revoke', { schema: revokeSchema, onRequest: app.authenticate }, async (request) => {
    await refuseDemoUser(db, request.user!.id, 'revoke widget access');
    await widgets.revokeGrant(db, request.user!.id, request.body.id);
    return ok(null);
  });
};
