import { isApiError } from '../../dataProvider/ApiError';

/**
 * Whether a failed read is asked again: a refusal (a business code) or an
 * ended session will not cure itself; a lost answer (network, timeout, a bad
 * gateway) is asked once more. The app's query client uses it for every read.
 */
export const retryTransient = (failureCount: number, error: unknown): boolean =>
  failureCount < 1 && !(isApiError(error) && (error.kind === 'business' || error.kind === 'unauthorized' || error.kind === 'local'));
