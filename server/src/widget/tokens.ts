import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

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
    issue: (claims: WidgetClaims, ttlSeconds: number, nowSeconds = Math.floor(Date.now() / 1000)) =>
      new SignJWT({ gid: claims.grantId })
        .setJti(randomUUID())
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(nowSeconds)
        .setExpirationTime(nowSeconds + ttlSeconds)
        .sign(key),
    verify: async (token: string): Promise<WidgetClaims | null> => {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.gid !== 'string') return null;
        return { userId: payload.sub, grantId: payload.gid };
      } catch {
        return null;
      }
    },
  };
};
export type WidgetTokens = ReturnType<typeof createWidgetTokens>;
