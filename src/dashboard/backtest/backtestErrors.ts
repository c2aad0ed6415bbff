import type { TranslateFunction } from 'react-admin';
import { ErrorCode } from '../../api/errors';
import { displayMessage, isApiError } from '../../dataProvider/ApiError';

type Failure = { code?: number; message?: string; data?: unknown };

/** What a refused backtest says in the user's words: the catalogue's texts, made specific where the data says more. */
const specific = ({ code, data }: Failure, translate: TranslateFunction): string | null => {
  const detail = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  if (code === ErrorCode.INVALID && typeof detail.code === 'string') {
    const problem = translate(`strategy.problem.${detail.code}`, detail);
    return typeof detail.variant === 'number' ? translate('backtest.error.variant', { variant: detail.variant, problem }) : problem;
  }
  if (code === ErrorCode.PARAM_FORMAT && typeof detail.line === 'number') return translate('backtest.error.badRow', { line: detail.line, reason: detail.reason ?? '' });
  if (code === ErrorCode.NOT_SUPPORTED && detail.reason === 'history_not_available') return translate('backtest.error.noHistory');
  if (code === ErrorCode.NOT_ENABLED) return translate(detail.reason === 'interrupted' ? 'backtest.error.interrupted' : 'backtest.error.exchangeUnavailable');
  if (code === ErrorCode.PARAM_NOT_EXIST && detail.field === 'symbol') return translate('backtest.error.pairNotListed');
  if (code === ErrorCode.PARAM_RANGE && detail.field === 'variants') return translate('backtest.error.tooMuchWork');
  if (code === ErrorCode.PARAM_RANGE && typeof detail.limit === 'number') return translate('backtest.error.tooLong', { limit: detail.limit });
  if (code === ErrorCode.PARAM_RANGE && detail.field === 'from') return translate('backtest.error.noCandles');
  return null;
};

/** A thrown call error, or a run's stored error. */
export const backtestErrorText = (error: unknown, translate: TranslateFunction): string => {
  if (isApiError(error)) return specific({ code: error.code, data: error.data }, translate) ?? error.message;
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const failure = error as Failure;
    return specific(failure, translate) ?? displayMessage({ kind: 'business', code: failure.code, data: failure.data, serverMessage: failure.message });
  }
  return error instanceof Error ? error.message : translate('error.fallback');
};
