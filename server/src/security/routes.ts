import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../http/envelope';
import { typed } from '../http/schemas';
import {
  passkeyRegisterSchema,
  passkeyRegistrationOptionsSchema,
  passkeyRemoveSchema,
  statusSchema,
  totpDisableSchema,
  totpEnableSchema,
  totpSetupSchema,
} from './schemas';

/** The caller's second factors, /api/security/* (README "Second factors", "Passkeys"). */
export const securityDomain: FastifyPluginAsync = async (instance) => {
  const app = typed(instance);
  const factors = app.secondFactors;
  app.addHook('onRequest', app.authenticate);

  app.get('/api/security/status', { schema: statusSchema }, async (request) => ok(await factors.status(request.user!.id)));
  app.post('/api/security/totp/setup', { schema: totpSetupSchema }, async (request) => ok(await factors.setupTotp(request.user!.id)));
  app.post('/api/security/totp/enable', { schema: totpEnableSchema }, async (request) => ok(await factors.enableTotp(request.user!.id, request.body.code)));
  app.post('/api/security/totp/disable', { schema: totpDisableSchema }, async (request) => {
    // A recovery code turns it off too: the way back for someone who lost the app.
    await app.stepUp(request, { recovery: true });
    await factors.disableTotp(request.user!.id);
    return ok(null);
  });

  app.post('/api/security/passkeys/options', { schema: passkeyRegistrationOptionsSchema }, async (request) =>
    ok(await factors.passkeyRegistrationOptions(request.user!.id, app.relyingParty(request))),
  );
  app.post('/api/security/passkeys', { schema: passkeyRegisterSchema }, async (request) => {
    // With a factor on, a stolen session alone cannot add a way in.
    await app.stepUp(request);
    return ok(await factors.registerPasskey(request.user!.id, request.body.name, request.body.response, app.relyingParty(request)));
  });
  app.post('/api/security/passkeys/remove', { schema: passkeyRemoveSchema }, async (request) => {
    await app.stepUp(request, { recovery: true });
    await factors.removePasskey(request.user!.id, request.body.id);
    return ok(null);
  });
};
