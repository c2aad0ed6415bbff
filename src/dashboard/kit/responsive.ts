import { useMediaQuery, type Theme } from '@mui/material';

/**
 * Phone widths (below the theme's `sm`): where the pages show a list as cards
 * instead of a table, drop the rows-per-page choice and draw smaller charts.
 */
export const useIsPhone = () => useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
