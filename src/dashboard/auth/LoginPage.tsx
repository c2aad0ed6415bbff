import { Button, CircularProgress, Stack } from '@mui/material';
import { useState } from 'react';
import { BooleanInput, Form, PasswordInput, TextInput, required, useLogin, useTranslate } from 'react-admin';
import { useDocumentTitle } from '../layout/Screen';
import { FormHeading, GuestLink, rules, useServerErrors } from './authForm';

interface LoginForm {
  email: string;
  password: string;
  rememberMe: boolean;
}

/** `/auth/login`: email, password, remember me. */
export const LoginPage = () => {
  const translate = useTranslate();
  const login = useLogin();
  const serverErrors = useServerErrors();
  const [pending, setPending] = useState(false);
  useDocumentTitle(translate('page.login'));

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
    </Form>
  );
};
