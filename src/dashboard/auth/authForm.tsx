import { Button, Link as MuiLink, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { TextInput, useNotify, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { Link } from 'react-router-dom';
import type { VerifyCodeType } from '../../api/types';
import { isApiError } from '../../dataProvider/ApiError';
import { rules } from '../kit/forms';
import { useApi } from './api';

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** "Send code" with a countdown before the next one (the server allows one a minute). */
export const SendCodeButton = ({ type }: { type: VerifyCodeType }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useApi();
  const email = (useWatch({ name: 'email' }) as string | undefined)?.trim() ?? '';
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

export const FormHeading = ({ titleKey }: { titleKey: string }) => {
  const translate = useTranslate();
  return (
    <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: 2 }}>
      {translate(titleKey)}
    </Typography>
  );
};

export const GuestLink = ({ to, labelKey }: { to: string; labelKey: string }) => {
  const translate = useTranslate();
  return (
    <MuiLink component={Link} to={to} underline="hover">
      {translate(labelKey)}
    </MuiLink>
  );
};

/** Email, then the mailed code beside its send button: the start of the register and reset forms. */
export const EmailCodeFields = ({ type }: { type: VerifyCodeType }) => {
  const translate = useTranslate();
  return (
    <>
      <TextInput source="email" type="email" autoComplete="email" label={translate('auth.email')} validate={rules.email} fullWidth />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextInput source="captcha" autoComplete="one-time-code" label={translate('auth.captcha')} validate={rules.captcha} fullWidth slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }} />
        <SendCodeButton type={type} />
      </Stack>
    </>
  );
};
