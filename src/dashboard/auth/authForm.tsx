import { Link as MuiLink, Stack, Typography } from '@mui/material';
import { TextInput, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { VerifyCodeType } from '../../api/types';
import { rules } from '../kit/forms';
import { SendCodeButton } from '../kit/SendCodeButton';

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
