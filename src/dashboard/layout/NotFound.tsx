import { Button, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { Screen } from './Screen';

/** Any path the route table does not know. */
export const NotFound = () => {
  const translate = useTranslate();
  return (
    <Screen titleKey="page.notFound">
      <Stack sx={{ alignItems: 'flex-start' }} spacing={2}>
        <Typography color="text.secondary">{translate('notFound.message')}</Typography>
        <Button variant="contained" component={Link} to="/">
          {translate('notFound.home')}
        </Button>
      </Stack>
    </Screen>
  );
};
