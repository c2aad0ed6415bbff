import type { Theme } from '@mui/material';
import { chartTickLabel, chartTimeLabel } from './time';

/**
 * The frame of a lightweight-charts chart in the page's theme (light or dark):
 * background, text, grid and scale borders, and the crosshair's time label in
 * the page's language, its axis ticks in the user's time zone (kit/time.ts).
 * Shared by the candlesticks and the profit curves.
 */
export const chartFrame = (theme: Theme, locale: string, { verticalGrid = true }: { verticalGrid?: boolean } = {}) => {
  const { palette } = theme;
  return {
    layout: { background: { color: palette.background.paper }, textColor: palette.text.secondary, fontFamily: theme.typography.fontFamily ?? 'sans-serif' },
    grid: { vertLines: verticalGrid ? { color: palette.divider } : { visible: false }, horzLines: { color: palette.divider } },
    rightPriceScale: { borderColor: palette.divider },
    timeFormatter: chartTimeLabel(locale),
    tickMarkFormatter: chartTickLabel(locale),
  };
};
