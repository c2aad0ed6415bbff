import { Link as MuiLink, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { ComingSoon, useDocumentTitle } from '../layout/Screen';

const GuestScreen = ({ titleKey }: { titleKey: string }) => {
  const translate = useTranslate();
  useDocumentTitle(translate(titleKey));
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
        {translate(titleKey)}
      </Typography>
      <ComingSoon />
      <MuiLink component={Link} to="/auth/login" underline="hover">
        {translate('auth.toLogin')}
      </MuiLink>
    </Stack>
  );
};

export const RegisterPage = () => <GuestScreen titleKey="page.register" />;
export const ForgotPasswordPage = () => <GuestScreen titleKey="page.forgotPassword" />;
