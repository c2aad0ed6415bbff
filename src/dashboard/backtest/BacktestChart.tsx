import { Box, useTheme } from '@mui/material';
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  LineSeries,
  LineStyle,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type SeriesMarker,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import type { BacktestReport } from '../../api/backtest';
import { CHART_OPTIONS, ChartCredit } from '../kit/ChartCredit';
import { ladder } from '../../api/strategy';
import { formatPrice, formatQuote } from '../kit/money';
import { priceScale } from '../kit/priceScale';
import { markerGroups, type MarkerGroup } from './chartMarkers';

/** The cycle whose ladder the chart draws: a closed one, or the position open at the end. */
export type ChartCycle = { kind: 'closed'; index: number } | { kind: 'open' } | null;

const seconds = (ms: number) => (ms / 1000) as UTCTimestamp;

/**
 * The backtest on TradingView's lightweight-charts (loaded only with this
 * component): candlesticks with a marker at every buy and sell, the chosen
 * cycle's ladder (each level's trigger, the take profit, the average cost of
 * the position open at the end) as price lines, and the profit curve
 * (realized + floating) in a pane below. Chart values are floats for drawing
 * only; every figure shown elsewhere is the report's exact decimal.
 */
const BacktestChart = ({ report, cycle, height, compact = false }: { report: BacktestReport; cycle: ChartCycle; height: number; compact?: boolean }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const theme = useTheme();
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<{ api: IChartApi; candles: ISeriesApi<'Candlestick'>; lines: IPriceLine[] } | null>(null);
  const { palette } = theme;
  const scale = priceScale(report.tickSize, []);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const api = createChart(element, {
      ...CHART_OPTIONS,
      layout: {
        ...CHART_OPTIONS.layout,
        background: { color: palette.background.paper },
        textColor: palette.text.secondary,
        fontFamily: theme.typography.fontFamily ?? 'sans-serif',
        panes: { separatorColor: palette.divider },
      },
      grid: { vertLines: { color: palette.divider }, horzLines: { color: palette.divider } },
      timeScale: { timeVisible: true, secondsVisible: false, borderColor: palette.divider },
      rightPriceScale: { borderColor: palette.divider },
      localization: { locale, priceFormatter: (price: number) => formatPrice(scale.tick ? price.toFixed(scale.precision) : String(price), locale, scale.tick) },
    });
    const candles = api.addSeries(CandlestickSeries, {
      upColor: palette.up.main,
      downColor: palette.down.main,
      borderVisible: false,
      wickUpColor: palette.up.main,
      wickDownColor: palette.down.main,
      // The axis and the crosshair step in the run's tick.
      ...(scale.tick ? { priceFormat: { type: 'price' as const, precision: scale.precision, minMove: scale.minMove } } : {}),
    });
    candles.setData(report.chart.candles.map(([time, open, high, low, close]) => ({ time: seconds(time), open: +open, high: +high, low: +low, close: +close })));
    // One marker per fill on the chart candle it happened in; on a phone, one per side for each stretch of candles, with its count.
    const label = (group: MarkerGroup) =>
      group.count > 1
        ? translate(group.side === 'buy' ? 'backtest.chart.buys' : 'backtest.chart.sells', { count: group.count })
        : group.side === 'sell'
          ? translate('backtest.chart.sell')
          : translate(group.level === 0 || compact ? 'backtest.chart.buy' : 'backtest.chart.buyLevel', { level: group.level });
    const markers: SeriesMarker<UTCTimestamp>[] = markerGroups(report.trades, report.chart.interval, report.chart.candles.length, compact).map((group) =>
      group.side === 'buy'
        ? { time: seconds(group.time), position: 'belowBar', shape: 'arrowUp', color: palette.up.main, text: label(group) }
        : { time: seconds(group.time), position: 'aboveBar', shape: 'arrowDown', color: palette.down.main, text: label(group) },
    );
    createSeriesMarkers(candles, markers);
    const equity = api.addSeries(
      LineSeries,
      { color: palette.primary.main, lineWidth: 2, priceFormat: { type: 'custom', formatter: (value: number) => formatQuote(String(value), locale) }, title: translate('backtest.chart.equity') },
      1,
    );
    equity.setData(report.chart.equity.map(([time, value]) => ({ time: seconds(time), value: +value })));
    api.panes()[1]?.setHeight(Math.round(height * 0.28));
    api.timeScale().fitContent();
    chart.current = { api, candles, lines: [] };
    return () => {
      chart.current = null;
      api.remove();
    };
    // scale follows the report.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [report, height, compact, locale, palette, theme.typography.fontFamily, translate]);

  // The chosen cycle's ladder.
  useEffect(() => {
    const drawn = chart.current;
    if (!drawn) return;
    for (const line of drawn.lines) drawn.candles.removePriceLine(line);
    drawn.lines = [];
    const add = (price: string, title: string, color: string, style: LineStyle) =>
      drawn.lines.push(drawn.candles.createPriceLine({ price: +price, color, lineWidth: 1, lineStyle: style, axisLabelVisible: true, title }));
    const closed = cycle?.kind === 'closed' ? report.cycles[cycle.index] : undefined;
    const first = cycle?.kind === 'open' ? report.trades.findLast((t) => t.side === 'buy' && t.level === 0)?.price : closed?.firstPrice;
    if (!first) return;
    const rows = ladder(report.settings, report.firstOrderAmount, first, report.firstOrderMultiple);
    for (const row of rows.slice(1)) add(row.price, translate('backtest.chart.level', { level: row.level }), palette.text.secondary, LineStyle.Dashed);
    const filled = cycle?.kind === 'open' ? (report.figures.openPosition?.levelsFilled ?? 0) : (closed?.levelsFilled ?? 0);
    add(rows[Math.min(filled, rows.length - 1)]!.takeProfitPrice, translate('backtest.chart.takeProfit'), palette.success.main, LineStyle.Solid);
    const average = cycle?.kind === 'open' ? report.figures.openPosition?.averagePrice : undefined;
    if (average) add(average, translate('backtest.chart.average'), palette.warning.main, LineStyle.Solid);
  }, [report, cycle, palette, translate]);

  return (
    <>
      <Box ref={container} sx={{ width: '100%', height, minWidth: 0 }} data-chart="backtest" />
      <ChartCredit />
    </>
  );
};

export default BacktestChart;
