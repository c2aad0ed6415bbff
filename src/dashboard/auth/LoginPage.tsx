import { Button, Link as MuiLink, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { BooleanInput, Form, PasswordInput, TextInput, email, required, useLogin, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../layout/Screen';

interface LoginForm {
  email: string;
  password: string;
  rememberMe: boolean;
}

export const LoginPage = () => {
  const translate = useTranslate();
  const login = useLogin();
  const notify = useNotify();
  const [pending, setPending] = useState(false);
  useDocumentTitle(translate('page.login'));

  const submit = async (values: Partial<LoginForm>) => {
    setPending(true);
    try {
      await login({ email: values.email?.trim(), password: values.password, rememberMe: Boolean(values.rememberMe) });
    } catch (error) {
      notify(error instanceof Error && error.message ? error.message : translate('error.fallback'), { type: 'error' });
    } finally {
      setPending(false);
    }
  };

  return (
    <Form<LoginForm> onSubmit={submit} defaultValues={{ email: '', password: '', rememberMe: true }} noValidate>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: 2 }}>
        {translate('page.login')}
      </Typography>
      <TextInput source="email" type="email" autoComplete="username" label={translate('auth.email')} validate={[required(), email()]} fullWidth />
      <PasswordInput source="password" autoComplete="current-password" label={translate('auth.password')} validate={required()} fullWidth />
      <BooleanInput source="rememberMe" label={translate('auth.rememberMe')} helperText={false} />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={pending} sx={{ mt: 1 }}>
        {translate('auth.submitLogin')}
      </Button>
      <Stack direction="row" sx={{ justifyContent: 'space-between', mt: 2 }}>
        <MuiLink component={Link} to="/auth/register" underline="hover">
          {translate('auth.toRegister')}
        </MuiLink>
        <MuiLink component={Link} to="/auth/forgot-password" underline="hover">
          {translate('auth.toForgot')}
        </MuiLink>
      </Stack>
    </Form>
  );
};
