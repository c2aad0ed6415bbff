import { Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** The padding of a page's sections (a Paper): tighter on phones. */
export const sectionSx = { p: { xs: 2, md: 3 }, minWidth: 0 } as const;

/** The heading of a section; `gutterBottom` when the section's content follows right under it. */
export const SectionTitle = ({ children, gutterBottom = false }: { children: ReactNode; gutterBottom?: boolean }) => (
  <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, minWidth: 0, mb: gutterBottom ? 1.5 : 0 }}>
    {children}
  </Typography>
);

/** A section of a page: a paper with an optional heading and an action beside it. */
export const Section = ({ title, action, children, name }: { title?: ReactNode; action?: ReactNode; children: ReactNode; name?: string }) => (
  <Paper sx={sectionSx} data-section={name}>
    {(title || action) && (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1.5, minWidth: 0 }}>
        {title && <SectionTitle>{title}</SectionTitle>}
        {action}
      </Stack>
    )}
    {children}
  </Paper>
);
