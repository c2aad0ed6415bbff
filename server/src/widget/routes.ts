import type { FastifyInstance } from 'fastify';
import type { WidgetTokenRefresh, WidgetTokenRequest } from '../../../src/api/widget';
import type { Db } from '../db/database';
import { ok } from '../http/envelope';
import { issueSchema, listSchema, refreshSchema, revokeSchema } from './schemas';
import * as widgets from './service';
import type { WidgetTokens } from './tokens';

/** Widget grants and tokens (README "Widget tokens"). */
export const widgetRoutes = ({ db, tokens }: { db: Db; tokens: WidgetTokens }) => async (app: FastifyInstance) => {
  app.post('/api/user/widget-token', { schema: issueSchema, onRequest: app.authenticate }, async (request) =>
    ok(await widgets.issueGrant(db, tokens, request.user!.id, request.body as WidgetTokenRequest)),
  );

  // The partner key authenticates this call: no bearer token.
  app.put('/api/user/widget-token', { schema: refreshSchema }, async (request) => {
    const body = request.body as WidgetTokenRefresh;
    return ok(await widgets.refreshToken(db, tokens, body.key, body.ttlSeconds));
  });

  app.get('/api/user/widget-tokens', { schema: listSchema, onRequest: app.authenticate }, async (request) => ok(await widgets.listGrants(db, request.user!.id)));

  app.post('/api/user/widget-tokens/revoke', { schema: revokeSchema, onRequest: app.authenticate }, async (request) => {
    await widgets.revokeGrant(db, request.user!.id, (request.body as { id: string }).id);
    return ok(null);
  });
};
