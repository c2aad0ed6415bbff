import PlayCircleOutlineIcon from '@mui/icons-material/PlayCircleOutlined';
import { Button, CircularProgress, Divider, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { BooleanInput, Form, PasswordInput, TextInput, required, useLogin, useTranslate } from 'react-admin';
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

/** `/auth/login`: email, password, remember me; and the shared demo account in one tap. */
export const LoginPage = () => {
  const translate = useTranslate();
  const login = useLogin();
  const serverErrors = useServerErrors();
  const [pending, setPending] = useState(false);
  const demo = useDemoAccount().data ?? null;
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

  const submit = async (values: Partial<LoginForm>) => {
    setPending(true);
    try {
      await login({ email: values.email?.trim(), password: values.password, rememberMe: Boolean(values.rememberMe) });
    } catch (error) {
      serverErrors(error);
    } finally {
      setPending(false);
    }
  };

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
