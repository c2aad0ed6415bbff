import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../http/envelope';
import { typed } from '../http/schemas';
import { activateSchema, communitySchema, fuelSchema, inviteInfoRouteSchema, statusSchema } from './schemas';
import * as member from './service';

/** Membership (status, activation, fuel) and invitations (info, community), README "Membership". The engine (`engineFacade`) says which tasks wait for fuel. */
export const memberDomain: FastifyPluginAsync = async (instance) => {
  const app = typed(instance);
  const { db, engineFacade: engine } = instance;
  app.addHook('onRequest', app.authenticate);

  app.get('/api/member/status', { schema: statusSchema }, async (request) => ok(await member.memberStatus(db, request.user!.id)));

  app.post('/api/member/activate', { schema: activateSchema }, async (request) =>
    ok(await member.activate(db, request.user!.id, request.body, (error) => request.log.error({ err: error }, 'upline levels could not be refreshed'))),
  );

  app.get('/api/member/fuel', { schema: fuelSchema }, async (request) => ok(await member.fuelStatus(db, engine, request.user!.id)));

  app.get('/api/invite/info', { schema: inviteInfoRouteSchema }, async (request) => ok(await member.inviteInfo(db, request.user!.id)));

  app.get('/api/invite/community', { schema: communitySchema }, async (request) => ok(await member.community(db, request.user!.id, request.query)));
};
