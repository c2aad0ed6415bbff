import { Box, Paper, Skeleton, ToggleButton, ToggleButtonGroup, Typography, useTheme } from '@mui/material';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useGetList, useTranslate } from 'react-admin';
import { CANDLE_TIMEFRAMES, type CandleTimeframe, type TradeOrder, type TradeTaskDetail } from '../../api/trade';
import { LoadError } from '../kit/LoadError';
import { SectionTitle, sectionSx as section } from '../kit/Section';
import { ORDERS, useOhlcv } from './api';
import { TASK_REFRESH_MS } from '../kit/queries';
import { CANDLE_LIMIT, CANDLE_TAIL, candleBars, fillMarkers, ladderLines, mergeCandles, priceLines, type ChartColors, type ChartLabels } from './candleChartData';
import { priceScale } from '../kit/priceScale';
import { useIsPhone } from '../kit/responsive';

// The chart library loads with the chart, not with the dashboard.
const CandleChart = lazy(() => import('./CandleChart'));

/** The forming candle is asked again this often while the page is open. */
export const CANDLE_REFRESH_MS = 5_000;
export const DEFAULT_TIMEFRAME: CandleTimeframe = '15m';

const Loading = ({ height, text }: { height: number; text: string }) => (
  <Box data-state="loading" sx={{ position: 'relative', height }}>
    <Skeleton variant="rounded" height={height} />
    <Typography color="text.secondary" sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' }}>
      {text}
    </Typography>
  </Box>
);

/**
 * The task's pair in candlesticks with a timeframe toggle, its fills as
 * arrows and the cycle's ladder, average cost and take profit as lines.
 */
export const TaskChart = ({ task }: { task: TradeTaskDetail }) => {
  const translate = useTranslate();
  const { palette } = useTheme();
  const isPhone = useIsPhone();
  const height = isPhone ? 280 : 360;
  const [timeframe, setTimeframe] = useState<CandleTimeframe>(DEFAULT_TIMEFRAME);

  const history = useOhlcv(task.id, timeframe, CANDLE_LIMIT, { keepPrevious: true });
  const current = history.data !== undefined && !history.isPlaceholderData;
  const tail = useOhlcv(task.id, timeframe, CANDLE_TAIL, { refetchMs: CANDLE_REFRESH_MS, enabled: current });
  const orders = useGetList<TradeOrder>(
    ORDERS,
    { filter: { taskId: task.id }, pagination: { page: 1, perPage: 100 }, sort: { field: 'createdAt', order: 'DESC' } },
    { refetchInterval: TASK_REFRESH_MS },
  );

  const shownFrame = history.data?.timeframe ?? timeframe;
  const tailCandles = current && tail.data?.timeframe === shownFrame ? tail.data.candles : undefined;
  const candles = useMemo(() => mergeCandles(history.data?.candles ?? [], tailCandles ?? []), [history.data, tailCandles]);

  const labels = useMemo<ChartLabels>(
    () => ({
      first: translate('tasks.chart.first'),
      level: (level) => translate('tasks.chart.level', { level }),
      average: translate('tasks.chart.average'),
      takeProfit: translate('tasks.chart.takeProfit'),
      sell: translate('tasks.chart.sell'),
    }),
    [translate],
  );
  const colors = useMemo<ChartColors>(
    () => ({
      buy: palette.up.main,
      sell: palette.down.main,
      first: palette.secondary.main,
      level: palette.grey[500],
      levelFilled: palette.info.main,
      average: palette.warning.main,
      takeProfit: palette.success.dark,
    }),
    [palette],
  );

  const bars = useMemo(() => candleBars(candles), [candles]);
  // The market's tick when known: the axis and the crosshair read as the task's prices do.
  const scale = useMemo(() => priceScale(task.tickSize, candles), [task.tickSize, candles]);
  const markers = useMemo(() => fillMarkers(orders.data ?? [], candles, shownFrame, labels, colors), [orders.data, candles, shownFrame, labels, colors]);
  // The detail refreshes every few seconds; the lines are redrawn only when one of them moves.
  const ladder = ladderLines(task);
  const ladderKey = JSON.stringify(ladder);
  const lines = useMemo(() => priceLines(JSON.parse(ladderKey) as typeof ladder, labels, colors), [ladderKey, labels, colors]);

  let body;
  if (history.data === undefined && history.error) body = <LoadError error={history.error} onRetry={() => void history.refetch()} />;
  else if (history.data === undefined) body = <Loading height={height} text={translate('tasks.chart.loading')} />;
  else if (candles.length === 0 && !history.isPlaceholderData)
    body = (
      <Box data-state="empty" sx={{ height: Math.round(height / 2), display: 'grid', placeItems: 'center', border: 1, borderColor: 'divider', borderRadius: 1, px: 2 }}>
        <Typography color="text.secondary" sx={{ textAlign: 'center' }}>
          {translate('tasks.chart.empty')}
        </Typography>
      </Box>
    );
  else
    body = (
      <Suspense fallback={<Loading height={height} text={translate('tasks.chart.loading')} />}>
        <Box sx={{ opacity: history.isPlaceholderData ? 0.5 : 1, transition: 'opacity 120ms' }} aria-busy={history.isPlaceholderData}>
          <CandleChart
            seriesKey={shownFrame}
            bars={bars}
            markers={markers}
            lines={lines}
            scale={scale}
            height={height}
            label={translate('tasks.chart.label', { symbol: task.symbol })}
          />
        </Box>
      </Suspense>
    );

  return (
    <Paper sx={section} data-section="chart">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <SectionTitle>{translate('tasks.detail.chartTitle')}</SectionTitle>
        </Box>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={timeframe}
          aria-label={translate('tasks.chart.timeframe')}
          onChange={(_, next: CandleTimeframe | null) => next && setTimeframe(next)}
        >
          {CANDLE_TIMEFRAMES.map((frame) => (
            <ToggleButton key={frame} value={frame} sx={{ px: 1.25 }}>
              {translate(`tasks.chart.timeframes.${frame}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      {body}
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
        {ladder.length === 0 ? translate('tasks.chart.waiting') : translate('tasks.chart.refreshHint', { seconds: CANDLE_REFRESH_MS / 1000 })}
      </Typography>
    </Paper>
  );
};
