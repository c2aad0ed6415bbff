import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** One labelled figure of a task: the label small above, the value below. */
export const Figure = ({ label, value, color, testId }: { label: string; value: ReactNode; color?: string; testId?: string }) => (
  <Box sx={{ minWidth: 0 }} data-figure={testId}>
    <Typography variant="caption" color="text.secondary" component="div" sx={{ overflowWrap: 'break-word' }}>
      {label}
    </Typography>
    {/* A number breaks only where it must (never mid-number when it fits the column). */}
    <Typography variant="body2" component="div" sx={{ fontWeight: 600, color, overflowWrap: 'break-word', fontVariantNumeric: 'tabular-nums' }}>
      {value}
    </Typography>
  </Box>
);
