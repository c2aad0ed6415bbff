import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** One labelled figure of a task: the label small above, the value below. */
export const Figure = ({ label, value, color, testId }: { label: string; value: ReactNode; color?: string; testId?: string }) => (
  <Box sx={{ minWidth: 0 }} data-figure={testId}>
    <Typography variant="caption" color="text.secondary" component="div" noWrap>
      {label}
    </Typography>
    <Typography variant="body2" component="div" sx={{ fontWeight: 600, color, overflowWrap: 'anywhere', fontVariantNumeric: 'tabular-nums' }}>
      {value}
    </Typography>
  </Box>
);
