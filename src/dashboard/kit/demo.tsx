import { Alert, Typography } from '@mui/material';
import { useGetIdentity, useTranslate } from 'react-admin';
import { isDemoEmail } from '../../api/demo';

/** Whether the signed-in account is the shared demo account (README "Run"). */
export const useIsDemo = (): boolean => {
  const { identity } = useGetIdentity();
  return isDemoEmail((identity as { email?: string } | undefined)?.email);
};

/** Above every page of the shared demo account: whose account this is and what it cannot do. */
export const DemoBanner = () => {
  const translate = useTranslate();
  if (!useIsDemo()) return null;
  return (
    <Alert severity="info" data-demo-banner sx={{ mt: 1, mb: 1, mx: { xs: 0.5, md: 1 }, minWidth: 0 }}>
      <Typography variant="body2" component="p" sx={{ fontWeight: 600 }}>
        {translate('demo.banner')}
      </Typography>
      <Typography variant="body2" component="p">
        {translate('demo.limits')}
      </Typography>
    </Alert>
  );
};

/** In place of a control the shared demo account cannot use. */
export const DemoLocked = () => {
  const translate = useTranslate();
  return (
    <Alert severity="info" data-demo-locked sx={{ minWidth: 0 }}>
      {translate('demo.locked')}
    </Alert>
  );
};
