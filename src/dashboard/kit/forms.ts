import { email as emailRule, maxLength, minLength, regex, required, useNotify, useTranslate } from 'react-admin';
import { ErrorCode } from '../../api/errors';
import { isApiError } from '../../dataProvider/ApiError';

/** Field rules of the account forms: the guest pages' and the profile's (the server checks the same). */
export const rules = {
  email: [required(), emailRule()],
  nickname: [required(), minLength(2), maxLength(20)],
  password: [required(), minLength(8), maxLength(128)],
  captcha: [required(), regex(/^\d{6}$/, 'auth.captchaFormat')],
  sameAs: (field: string) => (value: string, values: Record<string, unknown>) =>
    value && value !== values[field] ? 'auth.passwordsDiffer' : undefined,
};

/**
 * A server refusal shown where it belongs: on its field when the answer
 * names one (react-admin's submission errors), and always as a toast.
 */
export const useServerErrors = () => {
  const notify = useNotify();
  const translate = useTranslate();
  return (error: unknown): Record<string, string> | undefined => {
    let message = error instanceof Error && error.message ? error.message : translate('error.fallback');
    const data = isApiError(error) ? (error.data as { field?: string; rule?: string } | null) : null;
    if (isApiError(error) && error.code === ErrorCode.INVALID && data?.rule === 'common') message = translate('auth.passwordTooCommon');
    notify(message, { type: 'error' });
    return data?.field ? { [data.field]: message } : undefined;
  };
};
