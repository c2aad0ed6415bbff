import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { DemoAccount } from '../../../src/api/demo';
import { ok } from '../http/envelope';
import { requestLocale } from '../http/locale';
import { typed } from '../http/schemas';
import {
  changeEmailSchema,
  changePasswordSchema,
  demoSchema,
  loginSchema,
  logoutSchema,
  meSchema,
  PROFILE_BODY_LIMIT,
  profileEditSchema,
  antiPhishingEditSchema,
  antiPhishingSchema,
  refreshSchema,
  registerSchema,
  resetPasswordSchema,
  revokeSessionSchema,
  sessionsSchema,
  verifyCodeSchema,
} from './schemas';
import { createVerificationCodes } from './codes';
import { TRUSTED_DEVICE_DAYS } from '../../../src/api/security';
import { loginSecondFactorSchema, passkeyLoginOptionsSchema, passkeyLoginSchema, stepUpHeaders } from '../security/schemas';
import { readPhrase, writePhrase } from './antiPhishing';
import { createEmailChange } from './emailChange';
import { createProfile } from './profileService';
import { type Caller, createAccounts } from './service';
import type { Sessions } from './sessions';

/** The trusted-device cookie: httpOnly, sent only to the login calls, 30 days. */
const DEVICE_COOKIE = 'qt_device';
const deviceCookieOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === DEVICE_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
};

const caller = (request: FastifyRequest): Caller => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
  locale: requestLocale(request),
  log: request.log,
  headers: request.headers,
  deviceToken: deviceCookieOf(request),
});

export interface UserOptions {
  /** The login sessions and their tokens (the console revokes them too). */
  sessions: Sessions;
  /** The shared demo account's published login, when this server has one. */
  demo: DemoAccount | null;
}

/**
 * The user domain, /api/user/*: registration, login, codes, password reset,
 * token rotation, logout and the identity call (service.ts, README "Accounts
 * (server rules)"); the profile, password change and login sessions
 * (profileService.ts, README "Membership, fuel, invites, profit", Security).
 */
export const userDomain: FastifyPluginAsync<UserOptions> = async (instance, { sessions, demo }) => {
  const app = typed(instance);
  const { db, config, mailer, throttle } = instance;
  const deps = { db, sessions, codes: createVerificationCodes(db, config.tokenSecret), throttle, mailer, scryptCost: config.scryptCost, demo, factors: instance.secondFactors };
  const accounts = createAccounts(deps);
  const profile = createProfile({ db, throttle, scryptCost: config.scryptCost });
  const emailChange = createEmailChange({ db, throttle, codes: deps.codes, mailer, factors: instance.secondFactors });

  app.post(
    '/api/user/verify-code',
    {
      schema: verifyCodeSchema,
      // An e-mail change's code is asked for while signed in (and bound to that user); the other types by guests.
      preHandler: async (request, reply) => {
        // Its 401 answer, when it sends one, ends the request here.
        if (request.body.type === 'change_email') return app.authenticate(request, reply);
        return undefined;
      },
    },
    async (request) => {
      const { body } = request;
      if (body.type === 'change_email') return ok(await emailChange.sendCode(request.user!, body.email, caller(request)));
      return ok(await accounts.sendCode({ ...body, type: body.type }, caller(request)));
    },
  );

  app.post('/api/user/register', { schema: registerSchema }, async (request) => ok(await accounts.register(request.body, caller(request))));

  app.post(
    '/api/user/login',
    {
      schema: loginSchema,
      // Before validation: a flood on a locked account or IP is refused before its nonce is stored.
      preValidation: async (request) => accounts.refuseLockedLogin(request.body, request.ip),
    },
    async (request) => ok(await accounts.login(request.body, caller(request))),
  );

  app.post('/api/user/login/second-factor', { schema: { ...loginSecondFactorSchema, response: loginSchema.response } }, async (request, reply) => {
    const { deviceToken, ...answer } = await accounts.completeLogin(request.body, caller(request), app.relyingParty(request));
    if (deviceToken) {
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply.header('set-cookie', `${DEVICE_COOKIE}=${deviceToken}; Path=/api/user/login; Max-Age=${TRUSTED_DEVICE_DAYS * 86_400}; HttpOnly; SameSite=Strict${secure}`);
    }
    return ok(answer);
  });

  app.post('/api/user/login/passkey/options', { schema: passkeyLoginOptionsSchema }, async (request) =>
    ok(await accounts.passkeyOptions(request.body.ticket, app.relyingParty(request))),
  );

  app.post('/api/user/login/passkey', { schema: { ...passkeyLoginSchema, response: loginSchema.response } }, async (request) =>
    ok(await accounts.passkeyLogin(request.body.response, caller(request), app.relyingParty(request))),
  );

  // The login page's one-tap demo: the published login while this server has the demo account.
  app.get('/api/user/demo', { schema: demoSchema }, async () => ok(deps.demo ?? null));

  app.put('/api/user/refresh', { schema: refreshSchema }, async (request) => ok(await accounts.refresh(request.body.refreshToken)));

  app.post('/api/user/reset-password', { schema: resetPasswordSchema }, async (request) => {
    await accounts.resetPassword(request.body);
    return ok(null);
  });

  app.register(async (plain) => {
    const protectedScope = typed(plain);
    protectedScope.addHook('onRequest', app.authenticate);

    protectedScope.post('/api/user/logout', { schema: logoutSchema }, async (request) => {
      await accounts.logout(request.user!.sessionId, request.log);
      return ok(null);
    });

    protectedScope.get('/api/user/me', { schema: meSchema }, async (request) => ok(await accounts.me(request.user!.id)));

    protectedScope.post('/api/user/profile', { bodyLimit: PROFILE_BODY_LIMIT, schema: profileEditSchema }, async (request) =>
      ok(await profile.edit(request.user!.id, request.body)),
    );

    protectedScope.post('/api/user/change-password', { schema: { ...changePasswordSchema, headers: stepUpHeaders } }, async (request) => {
      await app.stepUp(request);
      await profile.changePassword(request.user!, request.body);
      return ok(null);
    });

    protectedScope.post('/api/user/change-email', { schema: { ...changeEmailSchema, headers: stepUpHeaders } }, async (request) => {
      // The second factor first: the call sent without it (answered 11100) spends neither the code nor a password try.
      await app.stepUp(request);
      return ok(await emailChange.change(request.user!, request.body, caller(request)));
    });

    protectedScope.get('/api/user/anti-phishing', { schema: antiPhishingSchema }, async (request) => ok(await readPhrase(db, request.user!.id)));

    protectedScope.post('/api/user/anti-phishing', { schema: antiPhishingEditSchema }, async (request) =>
      ok(await writePhrase(db, request.user!.id, request.body.phrase)),
    );

    protectedScope.get('/api/user/sessions', { schema: sessionsSchema }, async (request) => ok(await profile.sessions(request.user!)));

    protectedScope.post('/api/user/sessions/revoke', { schema: revokeSessionSchema }, async (request) => {
      await profile.revokeSession(request.user!, request.body.id);
      return ok(null);
    });
  });
};
