import { Box, Button, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { Form, PasswordInput, TextInput, useNotify, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { ErrorCode } from '../../api/errors';
import type { ChangeEmailPayload } from '../../api/member';
import { WITHDRAWAL_HOLD_HOURS } from '../../api/security';
import { isApiError } from '../../dataProvider/ApiError';
import { DemoLocked, useIsDemo } from '../kit/demo';
import { rules, useServerErrors } from '../kit/forms';
import { Section } from '../kit/Section';
import { SendCodeButton } from '../kit/SendCodeButton';
import { useStepUpAction } from '../kit/StepUp';
import { useApi, useMe, useRefreshIdentity } from './api';

const EMPTY: ChangeEmailPayload = { email: '', captcha: '', password: '' };

/** Clears the fields after a change (inside the form, where react-hook-form's reset is). */
const ResetOnDone = ({ done }: { done: number }) => {
  const { reset } = useFormContext();
  useEffect(() => {
    if (done > 0) reset(EMPTY);
  }, [done, reset]);
  return null;
};

/** The refusal as the user reads it, on the field it concerns. */
const fieldOf = (code: number | undefined, reason: unknown): { field: keyof ChangeEmailPayload; key?: string } | null => {
  if (code === ErrorCode.ALREADY_EXISTS) return { field: 'email', key: reason === 'same' ? 'profile.security.email.same' : 'profile.security.email.taken' };
  if (code === ErrorCode.CAPTCHA_EXPIRED || code === ErrorCode.CAPTCHA_ERROR) return { field: 'captcha' };
  if (code === ErrorCode.PASSWORD_ERROR) return { field: 'password' };
  return null;
};

/**
 * "Change e-mail" (README "E-mail change"): the new address, a code mailed to
 * it, the current password, and the second factor when one is on. Afterwards
 * every other device is logged out and money leaving waits 24 hours.
 */
export const ChangeEmailSection = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const api = useApi();
  const refreshIdentity = useRefreshIdentity();
  const serverErrors = useServerErrors();
  const demo = useIsDemo();
  const me = useMe();
  const stepUp = useStepUpAction();
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(0);

  const submit = async (values: Partial<ChangeEmailPayload>) => {
    setPending(true);
    const payload = { email: (values.email ?? '').trim(), captcha: (values.captcha ?? '').trim(), password: values.password ?? '' };
    try {
      return await stepUp.perform((secondFactor) => api.changeEmail(payload, secondFactor), {
        notice: (user) => translate('profile.security.email.changed', { email: user.email, hours: WITHDRAWAL_HOLD_HOURS }),
        // The new address everywhere; the sessions and the hold on withdrawals are asked again.
        done: (user) => {
          refreshIdentity(user);
          setDone((n) => n + 1);
        },
        failed: (error) => {
          const target = isApiError(error) ? fieldOf(error.code, (error.data as { reason?: unknown } | null)?.reason) : null;
          if (!target) return serverErrors(error);
          const message = target.key ? translate(target.key) : (error as Error).message;
          notify(message, { type: 'error' });
          return { [target.field]: message };
        },
      });
    } finally {
      setPending(false);
    }
  };

  return (
    <Section name="change-email" title={translate('profile.security.email.title')}>
      {demo ? (
        <DemoLocked />
      ) : (
        <>
          {stepUp.dialog}
          {me.data && (
            <Typography variant="body2" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
              {translate('profile.security.email.current', { email: me.data.email })}
            </Typography>
          )}
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {translate('profile.security.email.hint', { hours: WITHDRAWAL_HOLD_HOURS })}
          </Typography>
          <Form onSubmit={submit as never} defaultValues={EMPTY} noValidate>
            <ResetOnDone done={done} />
            <Stack sx={{ maxWidth: 480 }}>
              <TextInput source="email" type="email" autoComplete="email" label={translate('profile.security.email.newEmail')} validate={rules.email} fullWidth />
              <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
                <TextInput
                  source="captcha"
                  autoComplete="one-time-code"
                  label={translate('auth.captcha')}
                  validate={rules.captcha}
                  fullWidth
                  slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
                />
                <SendCodeButton type="change_email" />
              </Stack>
              <PasswordInput source="password" autoComplete="current-password" label={translate('profile.security.email.password')} validate={rules.password.slice(0, 1)} fullWidth />
              <Box>
                <Button type="submit" variant="contained" disabled={pending}>
                  {translate('profile.security.email.submit')}
                </Button>
              </Box>
            </Stack>
          </Form>
        </>
      )}
    </Section>
  );
};
