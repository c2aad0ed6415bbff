import { Box, useTheme } from '@mui/material';
import { CHART_OPTIONS, ChartCredit } from '../kit/ChartCredit';
import { chartFrame } from '../kit/chartFrame';
import { BaselineSeries, createChart, type IChartApi, type ISeriesApi, type Time, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { useLocaleState } from 'react-admin';
import type { CurveBar } from './curveData';
import { formatUsdt } from './format';

export interface ProfitCurveChartProps {
  bars: CurveBar[];
  height: number;
  label: string;
}

/**
 * A cumulative-profit curve on lightweight-charts (the candlesticks' library,
 * loaded with the chart): green above zero, red below.
 */
const ProfitCurveChart = ({ bars, height, label }: ProfitCurveChartProps) => {
  const [locale] = useLocaleState();
  const theme = useTheme();
  const { palette } = theme;
  const container = useRef<HTMLDivElement>(null);
  const drawn = useRef<{ api: IChartApi; series: ISeriesApi<'Baseline', Time> } | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const api = createChart(element, { ...CHART_OPTIONS, handleScroll: false, handleScale: false, timeScale: { timeVisible: true, secondsVisible: false } });
    const series = api.addSeries(BaselineSeries, { baseValue: { type: 'price', price: 0 }, lineWidth: 2, priceLineVisible: false });
    drawn.current = { api, series };
    return () => {
      drawn.current = null;
      api.remove();
    };
  }, []);

  useEffect(() => {
    const chart = drawn.current;
    if (!chart) return;
    const { timeFormatter, tickMarkFormatter, ...frame } = chartFrame(theme, locale, { verticalGrid: false });
    chart.api.applyOptions({
      ...frame,
      timeScale: { borderColor: palette.divider, tickMarkFormatter },
      localization: { locale, priceFormatter: (value: number) => formatUsdt(value.toFixed(4), locale), timeFormatter },
    });
    chart.series.applyOptions({
      topLineColor: palette.up.main,
      topFillColor1: `${palette.up.main}55`,
      topFillColor2: `${palette.up.main}08`,
      bottomLineColor: palette.down.main,
      bottomFillColor1: `${palette.down.main}08`,
      bottomFillColor2: `${palette.down.main}55`,
    });
  }, [locale, palette, theme.typography.fontFamily]);

  useEffect(() => {
    const chart = drawn.current;
    if (!chart) return;
    chart.series.setData(bars.map((bar) => ({ time: bar.time as UTCTimestamp, value: bar.value })));
    chart.api.timeScale().fitContent();
  }, [bars]);

  return (
    <>
      <Box ref={container} role="img" aria-label={label} data-chart="profit-curve" sx={{ width: '100%', height, minWidth: 0 }} />
      <ChartCredit />
    </>
  );
};

export default ProfitCurveChart;
