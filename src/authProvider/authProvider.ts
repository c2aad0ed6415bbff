import type { AuthProvider } from 'ra-core';
import type { LoginPayload, RegisterFields, User } from '../api/types';
import type { PasskeyLoginPayload, SecondFactorLoginPayload } from '../api/security';
import { createApi } from '../dataProvider/api';
import { isApiError } from '../dataProvider/ApiError';
import { http as defaultHttp } from './client';
import { NO_REFRESH_TOKEN, type HttpClient } from '../dataProvider/httpClient';
import { sessionStore } from './session';

export const LOGIN_ROUTE = '/auth/login';

/** A login: the password, or its second step (the ticket of a login answered 11100 and a code; README "Second factors"). */
export type LoginParams = (LoginPayload | SecondFactorLoginPayload | PasskeyLoginPayload) & {
  rememberMe?: boolean;
};

/** Where the navigation guard of spec section 2 sends a visitor, given the tokens present. */
export type GuardDecision = 'allow' | 'refresh' | 'login' | 'home';

export const guardDecision = (
  route: 'protected' | 'guest',
  tokens: { accessToken: string | null; refreshToken: string | null },
): GuardDecision => {
  if (route === 'guest') return tokens.accessToken ? 'home' : 'allow';
  if (tokens.accessToken) return 'allow';
  return tokens.refreshToken ? 'refresh' : 'login';
};

/**
 * The react-admin authProvider. Login and register both end logged in;
 * logout clears the local tokens even when the server call fails; checkAuth
 * applies the guard rows for protected pages; a business error never logs out.
 */
export const createAuthProvider = (http: HttpClient = defaultHttp, store = sessionStore) => {
  const api = createApi(http);
  // The identity of the current access token; a new token (login, refresh, another tab) asks again.
  let cached: { token: string | null; user: User } | null = null;
  const remember = (user: User) => {
    cached = { token: store.getAccessToken(), user };
  };
  // One question at a time: getIdentity and getPermissions asking together share the answer.
  let asking: { token: string | null; answer: Promise<User> } | null = null;
  const currentUser = async (): Promise<User | null> => {
    const token = store.getAccessToken();
    if (!token && !store.getRefreshToken()) return null;
    if (cached && cached.token === token) return cached.user;
    if (!asking || asking.token !== token) {
      const answer = api.me().then((user) => {
        remember(user);
        return user;
      });
      const entry = { token, answer };
      asking = entry;
      void answer.catch(() => undefined).finally(() => {
        if (asking === entry) asking = null;
      });
    }
    return asking.answer;
  };

  const refresh = async (): Promise<void> => {
    if (!store.getRefreshToken()) throw new Error(NO_REFRESH_TOKEN);
    await http.refreshTokens();
  };

  const provider = {
    async login(params: LoginParams) {
      const { rememberMe = false } = params;
      const answer =
        'ticket' in params
          ? await api.loginSecondFactor({ ticket: params.ticket, code: params.code, trustDevice: params.trustDevice })
          : 'response' in params
            ? await api.loginPasskey({ response: params.response })
            : await api.login({ email: params.email, password: params.password });
      store.save({ accessToken: answer.accessToken, refreshToken: answer.refreshToken, rememberMe });
      remember(answer.user);
      return { redirectTo: '/' };
    },

    async register(fields: RegisterFields) {
      const answer = await api.register(fields);
      store.save({ accessToken: answer.accessToken, refreshToken: answer.refreshToken, rememberMe: fields.rememberMe });
      remember(answer.user);
      return answer;
    },

    refresh,

    async logout() {
      const hadSession = store.getAccessToken() !== null || store.getRefreshToken() !== null;
      try {
        if (hadSession) await api.logout();
      } catch {
        // The server may be unreachable or the session already gone: leaving locally still works.
      } finally {
        store.clear();
        cached = null;
        asking = null;
      }
      return LOGIN_ROUTE;
    },

    async checkAuth() {
      const decision = guardDecision('protected', {
        accessToken: store.getAccessToken(),
        refreshToken: store.getRefreshToken(),
      });
      if (decision === 'allow') return;
      if (decision === 'refresh') {
        try {
          await refresh();
          return;
        } catch {
          store.clear();
        }
      }
      throw { redirectTo: LOGIN_ROUTE, message: false, logoutUser: true };
    },

    async checkError(error: unknown) {
      const status = isApiError(error) ? error.status : (error as { status?: number } | null)?.status;
      if (status === 401 || (isApiError(error) && error.kind === 'unauthorized')) {
        store.clear();
        throw { redirectTo: LOGIN_ROUTE, message: false };
      }
      // Business errors (HTTP 200 with a non-zero code), 403s and network trouble keep the session.
    },

    async getIdentity() {
      const user = await currentUser();
      // A guest (e.g. on the not-found page) has no identity: the server is not asked.
      if (!user) throw new Error('Not logged in');
      return { ...user, fullName: user.nickname, avatar: user.avatar ?? undefined };
    },

    /** The user changed (profile edit, activation): later identity questions answer the new one without asking the server. */
    rememberIdentity(user: User) {
      remember(user);
    },

    async getPermissions() {
      // The role of the identity (asked once per access token, shared with getIdentity); a guest, or
      // an identity that cannot be had right now, is an ordinary user.
      try {
        return (await currentUser())?.role ?? 'user';
      } catch {
        return 'user';
      }
    },
  } satisfies AuthProvider & Record<string, unknown>;

  return provider;
};

export type AppAuthProvider = ReturnType<typeof createAuthProvider>;
export const authProvider = createAuthProvider();
