import KeyIcon from '@mui/icons-material/Key';
import PlayCircleOutlineIcon from '@mui/icons-material/PlayCircleOutlined';
import { Button, CircularProgress, Divider, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { BooleanInput, Form, PasswordInput, TextInput, regex, required, useLogin, useNotify, useTranslate } from 'react-admin';
import { ErrorCode } from '../../api/errors';
import { RECOVERY_CODE_PATTERN, TOTP_CODE_PATTERN } from '../../api/security';
import { isApiError } from '../../dataProvider/ApiError';
import { assertPasskey, kindsOf, passkeyFactor, passkeysSupported } from '../kit/passkey';
import { useDocumentTitle } from '../layout/Screen';
import { useApi } from './api';
import { FormHeading, GuestLink } from './authForm';
import { rules, useServerErrors } from '../kit/forms';

interface LoginForm {
  email: string;
  password: string;
  rememberMe: boolean;
}

/** The shared demo account's published login, when this server has one (README "Run"). */
const useDemoAccount = () => {
  const api = useApi();
  return useQuery({ queryKey: ['user', 'demo'], queryFn: ({ signal }) => api.demo(signal), staleTime: Number.POSITIVE_INFINITY, retry: false });
};

interface SecondStepForm {
  code: string;
  trustDevice: boolean;
}

/**
 * The login's second step (README "Second factors"): the authenticator's code
 * or a recovery code, and "trust this device for 30 days". An expired ticket
 * sends the user back to the password.
 */
const SecondStep = ({ ticket, kinds, rememberMe, onBack }: { ticket: string; kinds: string[]; rememberMe: boolean; onBack: () => void }) => {
  const translate = useTranslate();
  const login = useLogin();
  const api = useApi();
  const notify = useNotify();
  const [pending, setPending] = useState(false);
  const [trustDevice, setTrustDevice] = useState(false);
  const withPasskey = kinds.includes('passkey') && passkeysSupported();
  const usePasskey = async () => {
    setPending(true);
    try {
      let code: string;
      try {
        code = passkeyFactor(await assertPasskey(await api.loginPasskeyOptions({ ticket })));
      } catch (error) {
        if (isApiError(error)) throw error;
        notify(translate('passkey.failed'), { type: 'error' });
        return;
      }
      await login({ ticket, code, trustDevice, rememberMe });
    } catch (error) {
      notify(isApiError(error) ? error.localizedMessage() : String(error), { type: 'error' });
      if (isApiError(error) && (error.data as { expired?: unknown } | null)?.expired) onBack();
    } finally {
      setPending(false);
    }
  };
  const submit = async (values: Partial<SecondStepForm>) => {
    setPending(true);
    try {
      await login({ ticket, code: (values.code ?? '').trim(), trustDevice: Boolean(values.trustDevice), rememberMe });
      return undefined;
    } catch (error) {
      if (isApiError(error) && (error.data as { expired?: unknown } | null)?.expired) {
        notify(error.localizedMessage(), { type: 'error' });
        onBack();
        return undefined;
      }
      const message = isApiError(error) ? error.localizedMessage() : String(error);
      notify(message, { type: 'error' });
      return { code: message };
    } finally {
      setPending(false);
    }
  };
  return (
    <Form<SecondStepForm> onSubmit={submit as never} defaultValues={{ code: '', trustDevice: false }} noValidate>
      <FormHeading titleKey="page.login" />
      <Typography variant="body2" sx={{ mb: 2 }} data-second-step>
        {translate(kinds.includes('totp') || !withPasskey ? 'auth.secondStep.hint' : 'auth.secondStep.passkeyHint')}
      </Typography>
      {withPasskey && (
        <Button variant="outlined" size="large" fullWidth startIcon={<KeyIcon />} disabled={pending} onClick={() => void usePasskey()} sx={{ mb: 2 }} data-second-step-passkey>
          {translate('passkey.use')}
        </Button>
      )}
      <TextInput
        source="code"
        autoComplete="one-time-code"
        label={translate('auth.secondStep.code')}
        helperText={translate('auth.secondStep.codeHelp')}
        validate={[required(), regex(new RegExp(`${TOTP_CODE_PATTERN}|${RECOVERY_CODE_PATTERN}`), translate('auth.secondStep.codeFormat'))]}
        fullWidth
        autoFocus
      />
      <BooleanInput source="trustDevice" label={translate('auth.secondStep.trust')} helperText={false} onChange={(event: { target: { checked: boolean } }) => setTrustDevice(event.target.checked)} />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={pending} aria-busy={pending} sx={{ mt: 1 }}>
        {translate(pending ? 'auth.signingIn' : 'auth.secondStep.submit')}
      </Button>
      <Button fullWidth onClick={onBack} sx={{ mt: 1 }}>
        {translate('auth.secondStep.back')}
      </Button>
    </Form>
  );
};

/** `/auth/login`: email, password, remember me; and the shared demo account in one tap. */
export const LoginPage = () => {
  const translate = useTranslate();
  const login = useLogin();
  const serverErrors = useServerErrors();
  const [pending, setPending] = useState(false);
  const demo = useDemoAccount().data ?? null;
  const [secondStep, setSecondStep] = useState<{ ticket: string; kinds: string[]; rememberMe: boolean } | null>(null);
  const api = useApi();
  const notify = useNotify();
  useDocumentTitle(translate('page.login'));

  const tryDemo = async () => {
    if (!demo) return;
    setPending(true);
    try {
      // A shared account: kept for this tab only.
      await login({ email: demo.email, password: demo.password, rememberMe: false });
    } catch (error) {
      serverErrors(error);
    } finally {
      setPending(false);
    }
  };

  /** A passkey alone (a discoverable credential): it stands for the password and the second factor. */
  const passkeyLogin = async () => {
    setPending(true);
    try {
      let response: Record<string, unknown>;
      try {
        response = await assertPasskey(await api.loginPasskeyOptions({}));
      } catch (error) {
        if (isApiError(error)) throw error;
        notify(translate('passkey.failed'), { type: 'error' });
        return;
      }
      await login({ response, rememberMe: true });
    } catch (error) {
      serverErrors(error);
    } finally {
      setPending(false);
    }
  };

  const submit = async (values: Partial<LoginForm>) => {
    setPending(true);
    try {
      await login({ email: values.email?.trim(), password: values.password, rememberMe: Boolean(values.rememberMe) });
    } catch (error) {
      // The password was right and a second factor is on: its step, with the ticket the server gave.
      const ticket = isApiError(error) && error.code === ErrorCode.SECOND_FACTOR_REQUIRED ? (error.data as { ticket?: unknown } | null)?.ticket : undefined;
      if (typeof ticket === 'string') setSecondStep({ ticket, kinds: kindsOf(isApiError(error) ? error.data : null), rememberMe: Boolean(values.rememberMe) });
      else serverErrors(error);
    } finally {
      setPending(false);
    }
  };

  if (secondStep) return <SecondStep {...secondStep} onBack={() => setSecondStep(null)} />;

  return (
    <Form<LoginForm> onSubmit={submit as never} defaultValues={{ email: '', password: '', rememberMe: true }} noValidate>
      <FormHeading titleKey="page.login" />
      <TextInput source="email" type="email" autoComplete="username" label={translate('auth.email')} validate={rules.email} fullWidth />
      <PasswordInput source="password" autoComplete="current-password" label={translate('auth.password')} validate={required()} fullWidth />
      <BooleanInput source="rememberMe" label={translate('auth.rememberMe')} helperText={false} />
      <Button
        type="submit"
        variant="contained"
        size="large"
        fullWidth
        disabled={pending}
        aria-busy={pending}
        startIcon={pending ? <CircularProgress size={18} color="inherit" aria-label={translate('auth.signingIn')} /> : undefined}
        sx={{ mt: 1 }}
      >
        {translate(pending ? 'auth.signingIn' : 'auth.submitLogin')}
      </Button>
      {passkeysSupported() && (
        <Button variant="outlined" size="large" fullWidth disabled={pending} startIcon={<KeyIcon />} onClick={() => void passkeyLogin()} sx={{ mt: 1.5 }} data-passkey-login>
          {translate('auth.passkeyLogin')}
        </Button>
      )}
      <Stack direction="row" sx={{ justifyContent: 'space-between', mt: 2 }}>
        <GuestLink to="/auth/register" labelKey="auth.toRegister" />
        <GuestLink to="/auth/forgot-password" labelKey="auth.toForgot" />
      </Stack>
      {demo && (
        <Stack spacing={1} sx={{ mt: 2 }} data-section="demo">
          <Divider />
          <Button variant="outlined" size="large" fullWidth disabled={pending} startIcon={<PlayCircleOutlineIcon />} onClick={() => void tryDemo()}>
            {translate('demo.tryIt')}
          </Button>
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
            {translate('demo.tryHint')}
          </Typography>
        </Stack>
      )}
    </Form>
  );
};
