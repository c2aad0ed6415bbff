import { Box, useTheme } from '@mui/material';
import { CHART_OPTIONS, ChartCredit } from '../kit/ChartCredit';
import { chartFrame } from '../kit/chartFrame';
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  type CandlestickData,
  type CreatePriceLineOptions,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { useLocaleState } from 'react-admin';
import { autoscaleWithLines, barsChange, TOUCH_TRACKING, type ShownBars } from './candleChartData';
import type { PriceScale } from '../kit/priceScale';
import { formatPrice } from '../kit/money';

export interface CandleChartProps {
  /** Bars of another key (another timeframe) replace the drawn ones; bars of the same key update the newest. */
  seriesKey: string;
  bars: CandlestickData<UTCTimestamp>[];
  markers: SeriesMarker<UTCTimestamp>[];
  lines: CreatePriceLineOptions[];
  /** Decimals and smallest move of the price axis, and the tick its labels format to. */
  scale: PriceScale;
  height: number;
  label: string;
}

interface Drawn {
  api: IChartApi;
  candles: ISeriesApi<'Candlestick', Time>;
  markers: ISeriesMarkersPluginApi<Time>;
  lines: IPriceLine[];
  shown: ShownBars | null;
}

/** Up to this many candles are spread over the whole width. */
const FIT_BARS = 60;
/** Pixels per candle otherwise (the library's default). */
const BAR_SPACING = 6;

/**
 * The task's candlesticks on TradingView's lightweight-charts, a module of
 * its own that loads with the chart. The chart is made once; new bars update
 * the forming candle, and markers and price lines are replaced in place. It
 * takes the width of its container (autoSize).
 */
const CandleChart = ({ seriesKey, bars, markers, lines, scale, height, label }: CandleChartProps) => {
  const { precision, minMove, tick } = scale;
  const [locale] = useLocaleState();
  const theme = useTheme();
  const { palette } = theme;
  const container = useRef<HTMLDivElement>(null);
  const drawn = useRef<Drawn | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const api = createChart(element, { ...CHART_OPTIONS, trackingMode: TOUCH_TRACKING, timeScale: { timeVisible: true, secondsVisible: false, rightOffset: 6 } });
    const candles = api.addSeries(CandlestickSeries, { borderVisible: false });
    drawn.current = { api, candles, markers: createSeriesMarkers(candles, []), lines: [], shown: null };
    return () => {
      drawn.current = null;
      api.remove();
    };
  }, []);

  useEffect(() => {
    const chart = drawn.current;
    if (!chart) return;
    const { timeFormatter, tickMarkFormatter, ...frame } = chartFrame(theme, locale);
    chart.api.applyOptions({
      ...frame,
      timeScale: { borderColor: palette.divider, tickMarkFormatter },
      localization: { locale, priceFormatter: (price: number) => formatPrice(price.toFixed(precision), locale, tick), timeFormatter },
    });

    chart.candles.applyOptions({
      upColor: palette.up.main,
      downColor: palette.down.main,
      wickUpColor: palette.up.main,
      wickDownColor: palette.down.main,
      priceFormat: { type: 'price', precision, minMove },
    });
  }, [locale, palette, precision, minMove, tick, theme.typography.fontFamily]);

  useEffect(() => {
    const chart = drawn.current;
    if (!chart) return;
    const change = barsChange(chart.shown, seriesKey, bars);
    if (change.reset) {
      chart.candles.setData(change.bars);
      // A short history fills the width; a long one opens on its newest candles at the usual spacing.
      const timeScale = chart.api.timeScale();
      if (bars.length <= FIT_BARS) timeScale.fitContent();
      else {
        timeScale.applyOptions({ barSpacing: BAR_SPACING });
        timeScale.scrollToRealTime();
      }
    } else for (const bar of change.bars) chart.candles.update(bar);
    const last = bars[bars.length - 1];
    chart.shown = last ? { key: seriesKey, last: last.time } : null;
  }, [seriesKey, bars]);

  useEffect(() => {
    drawn.current?.markers.setMarkers(markers);
  }, [markers]);

  useEffect(() => {
    const chart = drawn.current;
    if (!chart) return;
    for (const line of chart.lines) chart.candles.removePriceLine(line);
    chart.lines = lines.map((line) => chart.candles.createPriceLine(line));
    // The axis always reaches the take profit and the levels still to fill.
    chart.candles.applyOptions({ autoscaleInfoProvider: autoscaleWithLines(lines) });
  }, [lines]);

  return (
    <>
      <Box ref={container} role="img" aria-label={label} data-chart="task" sx={{ width: '100%', height, minWidth: 0 }} />
      <ChartCredit />
    </>
  );
};

export default CandleChart;
