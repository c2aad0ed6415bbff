import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import { Form, PasswordInput, useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { useApi } from './api';
import { useDocumentTitle } from '../layout/Screen';
import { FormHeading, GuestLink, EmailCodeFields } from './authForm';
import { rules, useServerErrors } from '../kit/forms';

interface ResetForm {
  email: string;
  captcha: string;
  newPassword: string;
  confirmPassword: string;
}

/** `/auth/forgot-password`: email, code, new password twice; every session ends on success. */
export const ForgotPasswordPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const dataProvider = useApi();
  const serverErrors = useServerErrors();
  const [pending, setPending] = useState(false);
  useDocumentTitle(translate('page.forgotPassword'));

  const submit = async (values: Partial<ResetForm>) => {
    setPending(true);
    try {
      await dataProvider.resetPassword({
        email: values.email?.trim() ?? '',
        newPassword: values.newPassword ?? '',
        captcha: values.captcha?.trim() ?? '',
      });
      notify(translate('auth.resetDone'), { type: 'success' });
      navigate('/auth/login', { replace: true });
      return undefined;
    } catch (error) {
      const fieldErrors = serverErrors(error);
      return fieldErrors?.password ? { newPassword: fieldErrors.password } : fieldErrors;
    } finally {
      setPending(false);
    }
  };

  return (
    <Form<ResetForm> onSubmit={submit as never} defaultValues={{ email: '', captcha: '', newPassword: '', confirmPassword: '' }} noValidate>
      <FormHeading titleKey="page.forgotPassword" />
      <EmailCodeFields type="reset" />
      <PasswordInput source="newPassword" autoComplete="new-password" label={translate('auth.newPassword')} validate={rules.password} helperText={translate('auth.passwordHelp')} fullWidth />
      <PasswordInput source="confirmPassword" autoComplete="new-password" label={translate('auth.secondPassword')} validate={[...rules.password, rules.sameAs('newPassword')]} fullWidth />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={pending} sx={{ mt: 1 }}>
        {translate('auth.submitReset')}
      </Button>
      <Stack sx={{ mt: 2, alignItems: 'center' }}>
        <GuestLink to="/auth/login" labelKey="auth.toLogin" />
      </Stack>
    </Form>
  );
};
