import { createPrivateKey } from 'node:crypto';
import {
  AccountSuspended,
  AuthenticationError,
  BadResponse,
  BaseError,
  DDoSProtection,
  ExchangeError,
  InvalidNonce,
  NetworkError,
  PermissionDenied,
  RateLimitExceeded,
  RestrictedLocation,
  type Exchange,
} from 'ccxt';
import type { FastifyBaseLogger } from 'fastify';
import { isTestnetExchange, type CredentialField, type ExchangeUnavailableReason, type KeyRefusalReason } from '../../../src/api/exchange';
import { ErrorCode } from '../../../src/api/errors';
import { BusinessError } from '../http/errors';
import { pauseEnd } from '../engine/venues/ccxtClient';
import { processPauses, type ExchangePauses } from '../engine/venues/exchangePauses';
import { ccxtIdOf, createCcxtExchange, CREDENTIAL_FIELDS, openAccountExchange, redact, type Credentials, type ExchangeFactory } from '../engine/venues/exchangeAccess';

/**
 * Checking a user's API key before it is stored (the ccxt instance comes from
 * the exchange boundary, engine/venues/exchangeAccess.ts): ccxt's errors
 * become ours in one table below, and nothing is retried (a refused key stays
 * refused; an unreachable exchange is reported, and the user tries again).
 */



/** The credentials ccxt requires for an exchange's private calls, among those we store. */
export const requiredCredentialFields = (exchangeId: string): CredentialField[] => {
  const required = createCcxtExchange(ccxtIdOf(exchangeId), { apiKey: '', secret: '' }).requiredCredentials as Record<string, boolean>;
  return CREDENTIAL_FIELDS.filter((field) => required[field] === true);
};

type RefusalCode = typeof ErrorCode.EXCHANGE_PERMISSION_DENIED | typeof ErrorCode.NOT_ENABLED;
type Reason = KeyRefusalReason | ExchangeUnavailableReason;

/**
 * ccxt's errors as ours: 30102 when the exchange refuses the key, 20002
 * (NOT_ENABLED: the check cannot be done now) when it cannot be asked. The
 * first class that matches wins, so the most specific comes first:
 * PermissionDenied and AccountSuspended are AuthenticationErrors, which like
 * RestrictedLocation are ExchangeErrors; the rest are NetworkErrors, whose
 * InvalidNonce means our clock is off.
 */

const ERROR_TABLE: readonly [new (...args: never[]) => Error, RefusalCode, Reason][] = [
  [PermissionDenied, ErrorCode.EXCHANGE_PERMISSION_DENIED, 'permission_denied'],
  [AccountSuspended, ErrorCode.EXCHANGE_PERMISSION_DENIED, 'account_suspended'],
  [AuthenticationError, ErrorCode.EXCHANGE_PERMISSION_DENIED, 'invalid_key'],
  [RestrictedLocation, ErrorCode.NOT_ENABLED, 'restricted_location'],
  [ExchangeError, ErrorCode.EXCHANGE_PERMISSION_DENIED, 'exchange_refused'],
  [RateLimitExceeded, ErrorCode.NOT_ENABLED, 'exchange_busy'],
  [DDoSProtection, ErrorCode.NOT_ENABLED, 'exchange_busy'],
  [InvalidNonce, ErrorCode.NOT_ENABLED, 'clock_skew'],
  [NetworkError, ErrorCode.NOT_ENABLED, 'exchange_unreachable'],
  [BadResponse, ErrorCode.NOT_ENABLED, 'bad_response'],
  [BaseError, ErrorCode.NOT_ENABLED, 'exchange_unreachable'],
];

/** The code and reason of a ccxt error; undefined for anything that is not one (a bug, not an answer about the key). */
export const classifyExchangeError = (error: unknown): { code: RefusalCode; reason: Reason } | undefined => {
  const row = ERROR_TABLE.find(([errorClass]) => error instanceof errorClass);
  return row && { code: row[1], reason: row[2] };
};

const MESSAGES: Record<Reason, string> = {
  invalid_key: 'the exchange refused the API key (wrong key, secret or passphrase, or an IP not on the key whitelist)',
  permission_denied: 'the API key is not permitted to do this (check its permissions and IP whitelist)',
  account_suspended: 'the exchange account is suspended',
  exchange_refused: 'the exchange refused the request made with this API key',
  cannot_trade: 'the API key cannot trade spot: enable spot trading on the key',
  can_withdraw: 'the API key may withdraw funds: create a key without the withdrawal permission',
  restricted_location: 'the exchange does not serve this server’s location',
  exchange_busy: 'the exchange is limiting requests; try again in a minute',
  clock_skew: 'the server clock differs from the exchange’s; the key could not be checked',
  exchange_unreachable: 'the exchange could not be reached; try again later',
  bad_response: 'the exchange answered with something unexpected; try again later',
};

const refusal = (exchangeId: string, reason: Reason, code: RefusalCode) =>
  new BusinessError(code, MESSAGES[reason], { exchange: exchangeId, reason });

/**
 * The exchange limits this server's requests until a known time (a 429's
 * Retry-After, a 418 ban): the check is not sent (asking during a ban makes it
 * longer) and the user is told when to try again.
 */
const limitedUntil = (exchangeId: string, until: number) =>
  new BusinessError(ErrorCode.NOT_ENABLED, `the exchange is limiting requests from this server until ${new Date(until).toISOString()}; try again then`, {
    exchange: exchangeId,
    reason: 'exchange_busy',
    until: new Date(until).toISOString(),
  });


interface KeyPermissions {
  canTrade: boolean;
  canWithdraw: boolean;
}

/**
 * Exchanges that report what a key may do. A field missing from the answer
 * counts against the key: a key is accepted only when the exchange says it
 * can trade and cannot withdraw.
 */
const PERMISSION_READERS: Record<string, (exchange: Exchange) => Promise<KeyPermissions>> = {
  // GET /sapi/v1/account/apiRestrictions
  binance: async (exchange) => {
    const binance = exchange as unknown as { sapiGetAccountApiRestrictions(): Promise<Record<string, unknown>> };
    const restrictions = await binance.sapiGetAccountApiRestrictions();
    return {
      canTrade: restrictions.enableSpotAndMarginTrading === true,
      canWithdraw: restrictions.enableWithdrawals !== false,
    };
  },
  // GET /api/v5/account/config: perm is "read_only", "trade" and "withdraw", comma-separated.
  okx: async (exchange) => {
    const okx = exchange as unknown as { privateGetAccountConfig(): Promise<{ data?: { perm?: unknown }[] }> };
    const answer = await okx.privateGetAccountConfig();
    const perm = typeof answer.data?.[0]?.perm === 'string' ? answer.data[0].perm.split(',').map((p) => p.trim()) : [];
    return { canTrade: perm.includes('trade'), canWithdraw: perm.includes('withdraw') };
  },
};

const PEM_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;

const readablePrivateKey = (secret: string): boolean => {
  try {
    createPrivateKey(secret);
    return true;
  } catch {
    return false;
  }
};

/** A testnet's key moves only play money (and Binance's testnet has no permissions call): its balance call is the whole check. */
const permissionReader = (exchangeId: string) => (isTestnetExchange(exchangeId) ? undefined : PERMISSION_READERS[exchangeId]);

export const checksPermissions = (exchangeId: string): boolean => permissionReader(exchangeId) !== undefined;

export interface KeyVerifierDeps {
  createExchange?: ExchangeFactory;
  /** Per exchange request; the balance and permission calls run side by side, well inside a client's 10 s. */
  timeoutMs?: number;
  /** The exchanges paused by a rate limit or a ban, shared with the engine (the process's by default). */
  pauses?: ExchangePauses;
}

/** Resolves when the key works and has the right permissions; throws a BusinessError (30102 or 20002) otherwise. */
export type KeyVerifier = (exchangeId: string, credentials: Credentials, log?: FastifyBaseLogger) => Promise<void>;

export const createKeyVerifier = ({ createExchange = createCcxtExchange, timeoutMs = 6000, pauses = processPauses }: KeyVerifierDeps = {}): KeyVerifier =>
  async (exchangeId, credentials, log) => {
    // The engine's pauses are keyed by the account type (a testnet's are its own).
    const pausedUntil = pauses.until(exchangeId, 'read');
    if (pausedUntil !== undefined) throw limitedUntil(exchangeId, pausedUntil);
    // A PEM secret (Binance's Ed25519 and RSA keys) must at least parse; ccxt's own errors for one that does not are not ccxt errors.
    const pem = PEM_KEY.test(credentials.secret);
    if (pem && !readablePrivateKey(credentials.secret)) {
      throw new BusinessError(ErrorCode.PARAM_FORMAT, 'the secret is not a readable PEM private key', { field: 'secret', rule: 'format' });
    }
    const readPermissions = permissionReader(exchangeId);
    let permissions: KeyPermissions | undefined;
    let exchange: Exchange | undefined;
    try {
      exchange = openAccountExchange(createExchange, exchangeId, {
        ...credentials,
        timeout: timeoutMs,
        enableRateLimit: false,
        options: { adjustForTimeDifference: false },
      });
      // The balance call needs no market list: an empty one saves the (large) public market download.
      exchange.setMarkets({});
      [, permissions] = await Promise.all([exchange.fetchBalance(), readPermissions?.(exchange)]);
    } catch (error) {
      // A PEM key that parses but is not the kind the exchange signs with (an EC key for Ed25519): a refused key, not a bug.
      const known = classifyExchangeError(error) ?? (pem ? { code: ErrorCode.EXCHANGE_PERMISSION_DENIED, reason: 'invalid_key' as const } : undefined);
      const message = redact(error instanceof Error ? error.message : String(error), credentials);
      if (!known) {
        // A bug (ours or ccxt's), not an answer about the key: logged and answered as 99999, with the credentials cut out.
        const unexpected = new Error(`exchange key check failed: ${message}`);
        unexpected.stack = redact(String((error as Error | undefined)?.stack ?? ''), credentials);
        throw unexpected;
      }
      const { code, reason } = known;
      if (reason === 'exchange_busy' && error instanceof Error) {
        // A 429 or a ban met by the check holds back the engine's requests too, and the user learns until when.
        const until = pauseEnd(error, exchange?.last_response_headers, Date.now());
        if (until > Date.now()) {
          pauses.pause(exchangeId, until);
          log?.info({ exchange: exchangeId, reason, until: new Date(until).toISOString() }, 'exchange key check met a rate limit');
          throw limitedUntil(exchangeId, until);
        }
      }
      log?.info({ exchange: exchangeId, reason, ccxtError: (error as Error).constructor.name, detail: message }, 'exchange key refused');
      throw refusal(exchangeId, reason, code);
    }
    if (permissions && permissions.canWithdraw) {
      log?.info({ exchange: exchangeId, reason: 'can_withdraw' }, 'exchange key refused');
      throw refusal(exchangeId, 'can_withdraw', ErrorCode.EXCHANGE_PERMISSION_DENIED);
    }
    if (permissions && !permissions.canTrade) {
      log?.info({ exchange: exchangeId, reason: 'cannot_trade' }, 'exchange key refused');
      throw refusal(exchangeId, 'cannot_trade', ErrorCode.EXCHANGE_PERMISSION_DENIED);
    }
  };
