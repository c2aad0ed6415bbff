import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../http/envelope';
import { typed } from '../http/schemas';
import { createProfile } from './profileService';
import { changePasswordSchema, PROFILE_BODY_LIMIT, profileEditSchema, revokeSessionSchema, sessionsSchema } from './schemas';

/** Profile edit, password change and the user's login sessions (README "Membership, fuel, invites, profit", Security). */
export const profileDomain: FastifyPluginAsync = async (instance) => {
  const app = typed(instance);
  const { db, throttle, config } = instance;
  const profile = createProfile({ db, throttle, scryptCost: config.scryptCost });
  app.addHook('onRequest', app.authenticate);

  app.post('/api/user/profile', { bodyLimit: PROFILE_BODY_LIMIT, schema: profileEditSchema }, async (request) =>
    ok(await profile.edit(request.user!.id, request.body)),
  );

  app.post('/api/user/change-password', { schema: changePasswordSchema }, async (request) => {
    await profile.changePassword(request.user!, request.body);
    return ok(null);
  });

  app.get('/api/user/sessions', { schema: sessionsSchema }, async (request) => ok(await profile.sessions(request.user!)));

  app.post('/api/user/sessions/revoke', { schema: revokeSessionSchema }, async (request) => {
    await profile.revokeSession(request.user!, request.body.id);
    return ok(null);
  });
};
