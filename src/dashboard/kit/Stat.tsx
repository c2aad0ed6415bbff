import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** Characters past which a figure takes a smaller size, so that it stays on one line in a narrow column. */
const LONG_FIGURE = 11;

/** A label above its value (figures of a summary). */
export const Stat = ({ label, value, unit, color, name, hint }: { label: string; value: ReactNode; unit?: string; color?: string; name?: string; hint?: ReactNode }) => (
  <Box sx={{ minWidth: 0 }} data-stat={name}>
    <Typography variant="caption" color="text.secondary" component="div" sx={{ overflowWrap: 'break-word' }}>
      {label}
    </Typography>
    <Typography
      component="div"
      sx={{
        fontWeight: 700,
        fontSize: typeof value === 'string' && value.length > LONG_FIGURE ? { xs: 16, md: 17 } : { xs: 18, md: 20 },
        color,
        overflowWrap: 'break-word',
        fontVariantNumeric: 'tabular-nums',
      }}
    >
      {value}
      {unit && (
        <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 0.5, fontWeight: 400 }}>
          {unit}
        </Typography>
      )}
    </Typography>
    {hint && (
      <Typography variant="caption" color="text.secondary" component="div">
        {hint}
      </Typography>
    )}
  </Box>
);

/** A grid of figures: two columns on phones, more on wide screens. */
export const statGrid = (columns = 4) =>
  ({
    display: 'grid',
    gap: 2,
    gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: `repeat(${columns}, minmax(0, 1fr))` },
  }) as const;
