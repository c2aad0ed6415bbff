import { createHash, randomUUID } from 'node:crypto';
import { signJwt, verifyJwt } from '../http/jwt';

const ISSUER = 'quant-trader';
const AUDIENCE = 'qt-widget';

export interface WidgetClaims {
  userId: string;
  grantId: string;
}

/**
 * Signs and checks widget tokens. Their key is derived from the token secret,
 * so an access-token check never accepts a widget token and the other way
 * round; the audience says what they are for.
 */
export const createWidgetTokens = (secret: string) => {
  const key = createHash('sha256').update(`widget-token:${secret}`).digest();
  return {
    issue: async (claims: WidgetClaims, ttlSeconds: number, nowSeconds = Math.floor(Date.now() / 1000)): Promise<string> =>
      signJwt({ gid: claims.grantId, jti: randomUUID(), sub: claims.userId, iss: ISSUER, aud: AUDIENCE, iat: nowSeconds, exp: nowSeconds + ttlSeconds }, key),
    /** The check itself is synchronous (node:crypto): a widget's call never waits for the thread pool. */
    verify: async (token: string): Promise<WidgetClaims | null> => {
      const payload = verifyJwt(token, key, { issuer: ISSUER, audience: AUDIENCE });
      if (!payload || typeof payload.sub !== 'string' || typeof payload.gid !== 'string') return null;
      return { userId: payload.sub, grantId: payload.gid };
    },
  };
};
export type WidgetTokens = ReturnType<typeof createWidgetTokens>;
