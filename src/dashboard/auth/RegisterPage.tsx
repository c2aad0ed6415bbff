import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import { BooleanInput, Form, PasswordInput, TextInput, useAuthProvider, useNotify, useTranslate } from 'react-admin';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { RegisterFields } from '../../api/types';
import type { AppAuthProvider } from '../../authProvider/authProvider';
import { useDocumentTitle } from '../layout/Screen';
import { EmailCodeFields, FormHeading, GuestLink } from './authForm';
import { rules, useServerErrors } from '../kit/forms';

/** `/auth/register`: all register fields; the invite code comes from the shared link (`?inviteCode=`, or the older `?invite=`) and stays editable. */
export const RegisterPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const authProvider = useAuthProvider<AppAuthProvider>();
  const serverErrors = useServerErrors();
  const [params] = useSearchParams();
  const [pending, setPending] = useState(false);
  useDocumentTitle(translate('page.register'));

  const submit = async (values: Partial<RegisterFields>) => {
    setPending(true);
    try {
      const answer = await authProvider!.register({
        email: values.email?.trim() ?? '',
        nickname: values.nickname?.trim() ?? '',
        password: values.password ?? '',
        secondPassword: values.secondPassword ?? '',
        captcha: values.captcha?.trim() ?? '',
        inviteCode: values.inviteCode?.trim() ?? '',
        rememberMe: Boolean(values.rememberMe),
      });
      notify(translate('auth.welcome', { name: answer.user.nickname }), { type: 'success' });
      navigate('/', { replace: true });
      return undefined;
    } catch (error) {
      return serverErrors(error);
    } finally {
      setPending(false);
    }
  };

  return (
    <Form<RegisterFields>
      onSubmit={submit as never}
      defaultValues={{ email: '', nickname: '', password: '', secondPassword: '', captcha: '', inviteCode: (params.get('inviteCode') ?? params.get('invite') ?? '').trim(), rememberMe: true }}
      noValidate
    >
      <FormHeading titleKey="page.register" />
      <EmailCodeFields type="register" />
      <TextInput source="nickname" autoComplete="nickname" label={translate('auth.nickname')} validate={rules.nickname} helperText={translate('auth.nicknameHelp')} fullWidth />
      <PasswordInput source="password" autoComplete="new-password" label={translate('auth.password')} validate={rules.password} helperText={translate('auth.passwordHelp')} fullWidth />
      <PasswordInput source="secondPassword" autoComplete="new-password" label={translate('auth.secondPassword')} validate={[...rules.password, rules.sameAs('password')]} fullWidth />
      <TextInput source="inviteCode" label={translate('auth.inviteCode')} fullWidth />
      <BooleanInput source="rememberMe" label={translate('auth.rememberMe')} helperText={false} />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={pending} sx={{ mt: 1 }}>
        {translate('auth.submitRegister')}
      </Button>
      <Stack sx={{ mt: 2, alignItems: 'center' }}>
        <GuestLink to="/auth/login" labelKey="auth.hasAccount" />
      </Stack>
    </Form>
  );
};
