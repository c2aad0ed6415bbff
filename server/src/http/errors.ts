import { ErrorCode, type ErrorCodeValue } from '../../../src/api/errors';

/**
 * A refusal the client can act on: answered as `{code, message, data}` with
 * HTTP 200 (the envelope carries the outcome). `message` is English for logs
 * and API users; the browser shows its own localized text of the code.
 */
export class BusinessError extends Error {
  constructor(
    readonly code: Exclude<ErrorCodeValue, 0>,
    message: string,
    readonly data: unknown = null,
    readonly httpStatus = 200,
  ) {
    super(message);
    this.name = 'BusinessError';
  }
}

export const fail = (code: Exclude<ErrorCodeValue, 0>, message: string, data: unknown = null): never => {
  throw new BusinessError(code, message, data);
};

/** Too many attempts: a localized refusal with the seconds to wait. */
export const tooManyAttempts = (retryAfterSeconds: number): never =>
  fail(ErrorCode.TOO_MANY_REQUESTS, 'too many attempts, try again later', { retryAfter: retryAfterSeconds });

/** JSON-schema keyword -> catalogue code (design section 4: 10000-10008 by kind). */
export const validationCode = (keyword: string): Exclude<ErrorCodeValue, 0> => {
  switch (keyword) {
    case 'required':
      return ErrorCode.PARAM_REQUIRED;
    case 'type':
      return ErrorCode.PARAM_TYPE;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'multipleOf':
      return ErrorCode.PARAM_RANGE;
    case 'format':
    case 'pattern':
      return ErrorCode.PARAM_FORMAT;
    case 'minLength':
    case 'maxLength':
      return ErrorCode.PARAM_LENGTH;
    case 'minItems':
    case 'maxItems':
    case 'minProperties':
    case 'maxProperties':
    case 'uniqueItems':
      return ErrorCode.PARAM_SIZE;
    default:
      // additionalProperties (an unknown field), enum, const, anything else.
      return ErrorCode.INVALID;
  }
};
