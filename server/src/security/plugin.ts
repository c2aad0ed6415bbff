import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createSecretBox } from '../engine/venues/exchangeAccess';
import { createSecondFactors, type SecondFactors } from './factors';
import { relyingPartyOf, type RelyingParty } from './passkeys';

declare module 'fastify' {
  interface FastifyInstance {
    /** The users' second factors (security/factors.ts). */
    secondFactors: SecondFactors;
    /** Step-up: refuses the caller's request (11100 / 11101) unless its X-Second-Factor header holds a valid factor, when one is on. */
    stepUp: (request: FastifyRequest, options?: { recovery?: boolean }) => Promise<void>;
    /** The WebAuthn relying party of a request: PUBLIC_URL's host when set, else the request's own. */
    relyingParty: (request: FastifyRequest) => RelyingParty;
  }
}

/** The header's value as sent (Fastify lower-cases header names). */
export const secondFactorOf = (request: FastifyRequest): string | undefined => {
  const value = request.headers['x-second-factor'];
  return typeof value === 'string' ? value.trim() : undefined;
};

const secondFactorsPlugin: FastifyPluginAsync<{ now?: (() => number) | undefined }> = async (app, { now }) => {
  const factors = createSecondFactors({
    db: app.db,
    throttle: app.throttle,
    box: createSecretBox(app.config.exchangeMasterKey),
    secret: app.config.tokenSecret,
    now,
  });
  const relyingParty = (request: FastifyRequest) => relyingPartyOf(app.config.publicUrl, request);
  app.decorate('secondFactors', factors);
  app.decorate('relyingParty', relyingParty);
  // A passkey's challenge is bound to the call it steps up (method and route).
  app.decorate('stepUp', (request: FastifyRequest, options: { recovery?: boolean } = {}) =>
    factors.stepUp(request.user!.id, secondFactorOf(request), {
      ...options,
      passkey: { action: `${request.method} ${request.routeOptions.url}`, rp: relyingParty(request) },
    }),
  );
};

/** Registered once at the root, after the shared services, so every domain can ask for a second factor. */
export const secondFactors = fp(secondFactorsPlugin, { name: 'second-factors', fastify: '5.x', dependencies: ['shared-services'] });
