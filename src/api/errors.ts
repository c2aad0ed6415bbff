/**
 * The error catalogue (spec section 8, plus the product's additions). Codes are the wire contract shared by
 * the server and the browser; the display texts live in `src/i18n` under
 * `error.<code>`.
 */
export const ErrorCode = {
  SUCCESS: 0,
  PARAM_REQUIRED: 10000,
  PARAM_TYPE: 10001,
  PARAM_RANGE: 10002,
  PARAM_FORMAT: 10003,
  PARAM_LENGTH: 10004,
  PARAM_SIZE: 10005,
  PARAM_NOT_EXIST: 10006,
  ALREADY_EXISTS: 10007,
  INVALID: 10008,
  /** Product extension (not in the spec's table): throttled; data.retryAfter holds the seconds to wait. */
  TOO_MANY_REQUESTS: 10009,
  /** Product extension: a per-user count limit (e.g. paper accounts) is reached; data.max holds the limit. */
  LIMIT_REACHED: 10010,
  CAPTCHA_EXPIRED: 10100,
  CAPTCHA_ERROR: 10101,
  USER_NOT_EXIST: 11000,
  USER_NOT_ACTIVATED: 11001,
  PASSWORD_ERROR: 11002,
  INSUFFICIENT_BALANCE: 11003,
  STRATEGY_LIMIT: 11004,
  UNAUTHORIZED: 11005,
  API_KEY_NOT_BOUND: 11006,
  LOGOUT_FAILED: 11007,
  /** Product extension: the call needs a second factor (login: data.ticket and data.kinds; other calls: the X-Second-Factor header). */
  SECOND_FACTOR_REQUIRED: 11100,
  /** Product extension: the second factor given is wrong, expired or already used. */
  SECOND_FACTOR_INVALID: 11101,
  /** Product extension: money leaves the wallet again only after data.until (a factor reset, a recovery-code login or an e-mail change). */
  WITHDRAWALS_HELD: 11102,
  /** Product extension: the passkey was not accepted (unknown to the account, its request expired or used, or a cloned authenticator). */
  PASSKEY_INVALID: 11103,
  STRATEGY_EXISTS: 13000,
  STRATEGY_NOT_EXIST: 13001,
  STRATEGY_IN_USE: 13002,
  NO_POSITION: 14000,
  TASK_PER_COIN_LIMIT: 14001,
  ROBOT_NOT_STARTED: 15000,
  ROBOT_START_FAILED: 15001,
  ROBOT_STOP_FAILED: 15002,
  POINTS_SUBORDINATE_ONLY: 16000,
  POINTS_SELF_TRANSFER: 16001,
  PAIR_NOT_EXIST: 20000,
  NOT_SUPPORTED: 20001,
  NOT_ENABLED: 20002,
  NOT_CONFIGURED: 20003,
  EMAIL_SERVICE_ERROR: 30000,
  EXCHANGE_NOT_EXIST: 30100,
  EXCHANGE_NOT_SUPPORTED: 30101,
  EXCHANGE_PERMISSION_DENIED: 30102,
  UNDEFINED_ERROR: 99999,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;
export type ErrorCodeValue = (typeof ErrorCode)[ErrorCodeName];
/** Codes the product adds to the spec's table. */
export const PRODUCT_CODES = [
  ErrorCode.TOO_MANY_REQUESTS,
  ErrorCode.LIMIT_REACHED,
  ErrorCode.SECOND_FACTOR_REQUIRED,
  ErrorCode.SECOND_FACTOR_INVALID,
  ErrorCode.WITHDRAWALS_HELD,
  ErrorCode.PASSKEY_INVALID,
] as const;

/** Every non-success code the browser has a localized text for. */
export type CatalogueCode = Exclude<ErrorCodeValue, 0>;

/** The non-success codes of the spec's table (section 8, 38 rows), without the product's additions. */
export const CATALOGUE_CODES: readonly CatalogueCode[] = Object.values(ErrorCode).filter(
  (code): code is CatalogueCode => code !== 0 && !(PRODUCT_CODES as readonly number[]).includes(code),
);

/** The spec's codes and the product's additions. */
export const KNOWN_CODES: readonly CatalogueCode[] = [...CATALOGUE_CODES, ...PRODUCT_CODES];

export const isCatalogueCode = (code: unknown): code is CatalogueCode =>
  typeof code === 'number' && (KNOWN_CODES as readonly number[]).includes(code);
