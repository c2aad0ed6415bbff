import { Button } from '@mui/material';
import { useEffect, useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { VerifyCodeType } from '../../api/types';
import { isApiError } from '../../dataProvider/ApiError';
import type { AppDataProvider } from '../../dataProvider/dataProvider';

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * "Send code" with a countdown before the next one (the server allows one a
 * minute): mails a code of `type` to the address in the form's `source` field.
 */
export const SendCodeButton = ({ type, source = 'email' }: { type: VerifyCodeType; source?: string }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const email = (useWatch({ name: source }) as string | undefined)?.trim() ?? '';
  const [seconds, setSeconds] = useState(0);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (seconds <= 0) return undefined;
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds]);

  const send = async () => {
    if (!EMAIL_SHAPE.test(email)) {
      notify(translate('auth.emailFirst'), { type: 'warning' });
      return;
    }
    setPending(true);
    try {
      const answer = (await dataProvider.sendVerifyCode({ email, type })) as { resendAfter?: number } | null;
      setSeconds(answer?.resendAfter ?? 60);
      notify(translate('auth.codeSent', { email }), { type: 'info' });
    } catch (error) {
      const retryAfter = isApiError(error) ? (error.data as { retryAfter?: number } | null)?.retryAfter : undefined;
      if (retryAfter) setSeconds(retryAfter);
      notify(error instanceof Error ? error.message : translate('error.fallback'), { type: 'error' });
    } finally {
      setPending(false);
    }
  };

  return (
    <Button
      variant="outlined"
      onClick={send}
      disabled={pending || seconds > 0}
      sx={{ minWidth: 128, height: 48, mt: '8px', flexShrink: 0, whiteSpace: 'nowrap' }}
    >
      {seconds > 0 ? translate('auth.resendIn', { seconds }) : translate('auth.sendCode')}
    </Button>
  );
};
