import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import type { ComponentType, ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { LocaleSwitcher } from './LocaleSwitcher';

/** The separate layout of the guest pages: brand, language switcher, one card; the areas' route watchers (App.tsx). */
export const AuthLayout = ({ children, watchers = [] }: { children: ReactNode; watchers?: readonly ComponentType[] }) => {
  const translate = useTranslate();
  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        background: 'linear-gradient(160deg, #0b7a75 0%, #1f2a44 100%)',
        px: 2,
        pb: 4,
      }}
    >
      {watchers.map((Watcher, index) => (
        <Watcher key={index} />
      ))}
      <Stack direction="row" sx={{ justifyContent: 'flex-end', width: '100%', maxWidth: 440, pt: 1, color: 'common.white' }}>
        <LocaleSwitcher />
      </Stack>
      <Stack spacing={0.5} sx={{ alignItems: 'center', mt: { xs: 2, sm: 6 }, mb: 3, color: 'common.white', textAlign: 'center' }}>
        <Typography variant="h4" component="div" sx={{ fontWeight: 700 }}>
          {translate('app.name')}
        </Typography>
        <Typography variant="body2" sx={{ opacity: 0.85 }}>
          {translate('app.tagline')}
        </Typography>
      </Stack>
      <Card sx={{ width: '100%', maxWidth: 440 }}>
        <CardContent sx={{ p: { xs: 2.5, sm: 4 } }}>{children}</CardContent>
      </Card>
    </Box>
  );
};
