import { Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/** Cards of a list page: one column on phones, two on tablets, three on desktops. */
export const cardGrid = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
} as const;

/** A page with nothing to show yet: an icon, a title, a line of help and what to do next. */
export const EmptyPanel = ({
  icon,
  titleKey,
  textKey,
  section,
  children,
}: {
  icon: ReactNode;
  titleKey: string;
  textKey: string;
  /** data-section of the panel, for tests and styling. */
  section?: string;
  children: ReactNode;
}) => {
  const translate = useTranslate();
  return (
    <Paper sx={{ p: { xs: 2.5, md: 4 }, textAlign: 'center' }} data-section={section}>
      {icon}
      <Typography variant="h6" component="h2" sx={{ fontWeight: 600, mt: 1 }}>
        {translate(titleKey)}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mx: 'auto', maxWidth: 560 }}>
        {translate(textKey)}
      </Typography>
      {children}
    </Paper>
  );
};
