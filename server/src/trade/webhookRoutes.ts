/**
 * A task's TradingView webhook (issue 29). Its owner's calls (bearer and
 * signed, inside the trade domain): read, create or rotate, turn off. And the
 * public address TradingView posts alerts to, `POST /hooks/tradingview/:hookId`:
 * no bearer and no signature (TradingView sends neither), the secret in the
 * message authenticates. Its answers are `{code, message, data}` with an HTTP
 * status TradingView's alert log shows (the service in webhook.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../src/api/errors';
import { ALERT_BODY_LIMIT } from '../../../src/api/webhook';
import { ok, sendEnvelope } from '../http/envelope';
import { typed } from '../http/schemas';
import { webhookSchemas } from './schemas';
import { AlertRefusal, createWebhookService, type WebhookDeps } from './webhook';

/** The address the owner gives TradingView: PUBLIC_URL, else the one this request came to. */
const baseOf = (request: FastifyRequest, publicUrl: string | undefined) => (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');

export const webhookRoutes = (deps: WebhookDeps & { publicUrl?: string | undefined }) => async (instance: FastifyInstance) => {
  const app = typed(instance);
  const hooks = createWebhookService(deps);
  app.get('/api/trade/task/webhook/:id', { schema: webhookSchemas.get }, async (request) =>
    ok(await hooks.get(request.user!.id, request.params.id, baseOf(request, deps.publicUrl))),
  );
  app.post('/api/trade/task/webhook', { schema: webhookSchemas.save }, async (request) =>
    ok(await hooks.save(request.user!.id, request.body.id, request.body.action, baseOf(request, deps.publicUrl))),
  );
  app.post('/api/trade/task/webhook/off', { schema: webhookSchemas.off }, async (request) => ok(await hooks.remove(request.user!.id, request.body.id)));
};

export const tradingViewHook = (deps: WebhookDeps & { addresses?: readonly string[] | null | undefined }) => async (app: FastifyInstance) => {
  const hooks = createWebhookService(deps);
  const refused = (reply: FastifyReply, status: number, code: Exclude<(typeof ErrorCode)[keyof typeof ErrorCode], 0>, message: string) => sendEnvelope(reply, status, code, message);
  // TradingView sends the message as text/plain, or application/json when it is JSON: both are read as text here, at most ALERT_BODY_LIMIT bytes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: ALERT_BODY_LIMIT }, (_request, body, done) => done(null, body));
  app.get('/hooks/tradingview/:hookId', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('Allow', 'POST');
    return refused(reply, 405, ErrorCode.NOT_SUPPORTED, 'alerts are posted (POST) by TradingView');
  });
  app.post<{ Params: { hookId: string } }>('/hooks/tradingview/:hookId', { schema: { hide: true }, bodyLimit: ALERT_BODY_LIMIT }, async (request, reply) => {
    if (deps.addresses && !deps.addresses.includes(request.ip.replace(/^::ffff:/, ''))) return refused(reply, 403, ErrorCode.UNAUTHORIZED, 'alerts are taken from TradingView addresses only');
    try {
      const { action } = await hooks.receive(request.params.hookId, request.body ?? '');
      return sendEnvelope(reply, 200, 0, 'ok', { action });
    } catch (error) {
      if (!(error instanceof AlertRefusal)) throw error;
      if (error.retryAfter !== undefined) reply.header('Retry-After', String(error.retryAfter));
      return refused(reply, error.status, error.code, error.message);
    }
  });
};
