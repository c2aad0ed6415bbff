import { formatCount } from '../../api/format';
import { Alert, Box, Chip, LinearProgress, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { Title, useLocaleState, useTranslate } from 'react-admin';
import type { EngineStatus } from '../../api/trade';
import { useDocumentTitle } from '../layout/Screen';
import { useEngineStatus } from './api';
import { useDateTime } from './common';

export const ENGINE_PATH = '/admin/engine';
const REFRESH_MS = 5_000;

const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' } } as const;

const Figure = ({ label, value, tone }: { label: string; value: string; tone?: 'error.main' | 'warning.main' | 'success.main' }) => (
  <Box sx={{ minWidth: 0 }}>
    <Typography variant="body2" color="text.secondary">
      {label}
    </Typography>
    <Typography variant="h6" sx={{ fontWeight: 600, overflowWrap: 'anywhere', ...(tone ? { color: tone } : {}) }}>
      {value}
    </Typography>
  </Box>
);

const Replay = ({ replay }: { replay: NonNullable<EngineStatus['replay']> }) => {
  const translate = useTranslate();
  const format = useDateTime();
  const [locale] = useLocaleState();
  const state = replay.done ? 'done' : replay.started ? 'playing' : 'waiting';
  return (
    <Paper sx={{ p: { xs: 1.5, md: 2.5 }, minWidth: 0 }} component="section" aria-label={translate('admin.engine.replay')}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1, mb: 1.5, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2">
          {translate('admin.engine.replay')}
        </Typography>
        <Chip size="small" color={replay.done ? 'success' : replay.started ? 'primary' : 'warning'} label={translate(`admin.engine.replayState.${state}`)} data-replay={state} />
      </Stack>
      <LinearProgress variant="determinate" value={(replay.played / replay.total) * 100} sx={{ mb: 1.5 }} />
      <Box sx={grid}>
        <Figure label={translate('admin.engine.symbol')} value={replay.symbol} />
        <Figure label={translate('admin.engine.candles')} value={`${formatCount(replay.played, locale)} / ${formatCount(replay.total, locale)}`} />
        <Figure label={translate('admin.engine.candleTime')} value={format(replay.candleTime)} />
      </Box>
    </Paper>
  );
};

/** `/admin/engine`: whether the trading engine keeps its pace, and which tasks or prices are in trouble. */
export const EnginePage = () => {
  const translate = useTranslate();
  const format = useDateTime();
  const [locale] = useLocaleState();
  const title = translate('admin.engine.title');
  useDocumentTitle(title);
  const status = useEngineStatus(REFRESH_MS);
  const s = status.data;
  const ms = (value: number) => translate('admin.engine.ms', { value: formatCount(value, locale) });
  return (
    <Box component="section" data-title-key="admin.engine.title" sx={{ py: { xs: 1.5, md: 3 }, px: { xs: 0.5, md: 1 }, maxWidth: 1080, minWidth: 0 }}>
      <Title title={title} />
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: 2 }}>
        {title}
      </Typography>
      {status.error && !s && <Alert severity="error">{status.error.message}</Alert>}
      {!s && !status.error && <Skeleton variant="rounded" height={180} />}
      {s && (
        <Stack spacing={2}>
          <Paper sx={{ p: { xs: 1.5, md: 2.5 }, minWidth: 0 }} component="section" aria-label={translate('admin.engine.health')}>
            <Stack direction="row" sx={{ alignItems: 'center', gap: 1, mb: 1.5, flexWrap: 'wrap' }}>
              <Typography variant="h6" component="h2">
                {translate('admin.engine.health')}
              </Typography>
              <Chip
                size="small"
                color={!s.running || s.outages.length > 0 ? 'error' : s.lagMs > 0 || s.failedTicks > 0 ? 'warning' : 'success'}
                label={translate(!s.running ? 'admin.engine.stopped' : s.lagMs > 0 ? 'admin.engine.lagging' : 'admin.engine.running')}
                data-engine={s.running ? 'running' : 'stopped'}
              />
            </Stack>
            <Box sx={grid}>
              <Figure label={translate('admin.engine.lastTick')} value={format(s.lastTickAt)} />
              <Figure label={translate('admin.engine.lag')} value={ms(s.lagMs)} tone={s.lagMs > 0 ? 'warning.main' : undefined} />
              <Figure label={translate('admin.engine.tickTime')} value={`${ms(s.lastTickMs)} / ${ms(s.maxTickMs)}`} />
              <Figure label={translate('admin.engine.ticks')} value={formatCount(s.ticks, locale)} />
              <Figure label={translate('admin.engine.failedTicks')} value={String(s.failedTicks)} tone={s.failedTicks > 0 ? 'error.main' : undefined} />
              <Figure label={translate('admin.engine.marketTime')} value={format(s.marketTime)} />
              <Figure label={translate('admin.engine.startedAt')} value={format(s.startedAt)} />
            </Box>
          </Paper>
          {s.outages.map((outage) => (
            <Alert key={`${outage.dependency}:${outage.exchange ?? ''}`} severity="error" data-outage={outage.dependency}>
              {translate(outage.dependency === 'database' ? 'admin.engine.outageDatabase' : 'admin.engine.outageExchange', {
                exchange: outage.exchange ?? '',
                since: format(outage.since),
                ticks: formatCount(outage.failedTicks, locale),
              })}
            </Alert>
          ))}
          <Paper sx={{ p: { xs: 1.5, md: 2.5 }, minWidth: 0 }} component="section" aria-label={translate('admin.engine.tasks')}>
            <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
              {translate('admin.engine.tasks')}
            </Typography>
            <Box sx={grid}>
              <Figure label={translate('admin.engine.loaded')} value={String(s.tasks.loaded)} />
              <Figure label={translate('admin.engine.runningTasks')} value={String(s.tasks.running)} />
              <Figure label={translate('admin.engine.attention')} value={String(s.tasks.attention)} tone={s.tasks.attention > 0 ? 'warning.main' : undefined} />
              <Figure label={translate('admin.engine.failing')} value={String(s.tasks.failing)} tone={s.tasks.failing > 0 ? 'error.main' : undefined} />
            </Box>
            {s.unusablePrices.length > 0 && (
              <Alert severity="error" sx={{ mt: 2 }}>
                {translate('admin.engine.unusablePrices', { symbols: s.unusablePrices.join(', ') })}
              </Alert>
            )}
          </Paper>
          {s.replay && <Replay replay={s.replay} />}
        </Stack>
      )}
    </Box>
  );
};
