import { Link, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

/**
 * Options every lightweight-charts chart is made with: it takes its box's
 * size, and TradingView is credited by the link under it (ChartCredit), as
 * the library's licence asks, instead of by the logo in the pane, which sat
 * over the first markers of small charts.
 */
export const CHART_OPTIONS = { autoSize: true, layout: { attributionLogo: false } } as const;

/** The credit line under a chart: a link to TradingView, in the page's language. */
export const ChartCredit = () => {
  const translate = useTranslate();
  return (
    <Typography variant="caption" component="p" color="text.secondary" sx={{ textAlign: 'right', mt: 0.5, lineHeight: 1.5 }}>
      <Link href="https://www.tradingview.com/" target="_blank" rel="noopener noreferrer" color="inherit" underline="hover">
        {translate('app.chartCredit')}
      </Link>
    </Typography>
  );
};
