import InfoIcon from '@mui/icons-material/InfoOutlined';
import {
  Box,
  Pagination,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { trend } from '../../api/format';
import { useState, type ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import type { TaskCycle, TaskReturns as Returns } from '../../api/returns';
import { LoadError } from '../kit/LoadError';
import { SectionTitle, sectionSx as section } from '../kit/Section';
import { useTaskCycles, useTaskReturns } from './api';
import { formatDateTime, formatDuration, formatReturn, formatSignedUsdt, formatUsdt, profitColor } from './format';
import { PosterButton } from './poster/PosterButton';
import { ProfitCurve } from './ProfitCurve';
import { useIsPhone } from '../kit/responsive';

export const CYCLES_PAGE_SIZE = 10;

const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' } } as const;

/** A figure with its definition one tap away (a tooltip on the label's icon; touch opens it too). */
const Figure = ({ name, label, hint, value, color, big }: { name: string; label: string; hint?: string; value: ReactNode; color?: string; big?: boolean }) => (
  <Box sx={{ minWidth: 0 }} data-returns={name}>
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" noWrap>
        {label}
      </Typography>
      {hint && (
        <Tooltip title={hint} enterTouchDelay={0} leaveTouchDelay={6000} arrow>
          <InfoIcon aria-label={hint} tabIndex={0} sx={{ fontSize: 14, color: 'text.secondary', cursor: 'help', flexShrink: 0 }} />
        </Tooltip>
      )}
    </Stack>
    <Typography
      variant={big ? 'h6' : 'body2'}
      component="div"
      sx={{ fontWeight: big ? 700 : 600, color, overflowWrap: 'anywhere', fontVariantNumeric: 'tabular-nums', lineHeight: 1.3 }}
    >
      {value}
    </Typography>
  </Box>
);

const Figures = ({ returns }: { returns: Returns }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const usdt = (value: string) => `${formatUsdt(value, locale)} USDT`;
  return (
    <Box sx={grid}>
      <Figure big name="total" label={translate('returns.total')} hint={translate('returns.totalHint')} value={formatSignedUsdt(returns.totalProfit, locale)} color={profitColor(returns.totalProfit)} />
      <Figure big name="roi" label={translate('returns.roi')} hint={translate('returns.roiHint')} value={formatReturn(returns.roi, locale)} color={profitColor(returns.roi)} />
      <Figure big name="apr" label={translate('returns.apr')} hint={translate('returns.aprHint')} value={formatReturn(returns.apr, locale)} color={profitColor(returns.apr)} />
      <Figure big name="runTime" label={translate('returns.runTime')} hint={translate('returns.runTimeHint')} value={formatDuration(returns.runSeconds, locale)} />
      <Figure name="realized" label={translate('returns.realized')} value={formatSignedUsdt(returns.realizedProfit, locale)} color={profitColor(returns.realizedProfit)} />
      <Figure name="floating" label={translate('returns.floating')} value={formatSignedUsdt(returns.floatingProfit, locale)} color={profitColor(returns.floatingProfit)} />
      <Figure name="invested" label={translate('returns.invested')} hint={translate('returns.investedHint')} value={usdt(returns.invested)} />
      <Figure name="maxInvested" label={translate('returns.maxInvested')} hint={translate('returns.maxInvestedHint')} value={usdt(returns.maxInvested)} />
      <Figure name="cycles" label={translate('returns.cycles')} value={returns.cyclesClosed} />
      <Figure name="fees" label={translate('returns.fees')} value={usdt(returns.fees)} />
    </Box>
  );
};

/** The closed cycles: a table on wide screens (scrolling sideways inside its box on narrow ones), newest first. */
const Cycles = ({ taskId }: { taskId: string }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [page, setPage] = useState(1);
  const cycles = useTaskCycles(taskId, page, CYCLES_PAGE_SIZE);
  const isPhone = useIsPhone();
  const pages = Math.ceil((cycles.data?.total ?? 0) / CYCLES_PAGE_SIZE);
  const col = (key: string) => translate(`returns.col.${key}`);
  const exit = (row: TaskCycle) => (row.exitReason ? translate(`returns.exit.${row.exitReason}`) : '');

  return (
    <Box data-section="cycles" sx={{ minWidth: 0 }}>
      <SectionTitle gutterBottom>{translate('returns.cyclesTitle')}</SectionTitle>
      {cycles.error && !cycles.data && <LoadError error={cycles.error} onRetry={() => void cycles.refetch()} />}
      {cycles.isPending && !cycles.error && <Skeleton variant="rounded" height={120} />}
      {cycles.data && cycles.data.total === 0 && <Typography color="text.secondary">{translate('returns.noCycles')}</Typography>}
      {cycles.data && cycles.data.list.length > 0 && (
        <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }}>
          <Table size="small" aria-label={translate('returns.cyclesTitle')} sx={{ '& td, & th': { whiteSpace: 'nowrap', px: isPhone ? 0.75 : 1.5, fontVariantNumeric: 'tabular-nums' } }}>
            <TableHead>
              <TableRow>
                <TableCell>{col('cycle')}</TableCell>
                <TableCell>{col('start')}</TableCell>
                <TableCell>{col('end')}</TableCell>
                <TableCell align="right">{col('levels')}</TableCell>
                <TableCell align="right">{col('funds')}</TableCell>
                <TableCell align="right">{col('profit')}</TableCell>
                <TableCell align="right">{col('roi')}</TableCell>
                <TableCell align="right">{col('fees')}</TableCell>
                <TableCell align="right">{col('duration')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {cycles.data.list.map((row) => (
                <TableRow key={row.id} data-cycle={row.cycle}>
                  <TableCell>
                    #{row.cycle}
                    {row.exitReason && row.exitReason !== 'take_profit' && (
                      <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 0.5 }}>
                        {exit(row)}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>{formatDateTime(row.openedAt, locale)}</TableCell>
                  <TableCell>{formatDateTime(row.closedAt, locale)}</TableCell>
                  <TableCell align="right">{row.levelsFilled}</TableCell>
                  <TableCell align="right">{formatUsdt(row.fundsUsed, locale)}</TableCell>
                  <TableCell align="right" sx={{ color: profitColor(row.realizedProfit), fontWeight: 600 }}>
                    {formatSignedUsdt(row.realizedProfit, locale)}
                  </TableCell>
                  <TableCell align="right" sx={{ color: profitColor(row.roi) }}>
                    {formatReturn(row.roi, locale)}
                  </TableCell>
                  <TableCell align="right">{formatUsdt(row.fees, locale)}</TableCell>
                  <TableCell align="right">{formatDuration(row.durationSeconds, locale)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {pages > 1 && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
          <Pagination count={pages} page={Math.min(page, pages)} siblingCount={0} size={isPhone ? 'small' : 'medium'} color="primary" onChange={(_, next) => setPage(next)} />
        </Box>
      )}
    </Box>
  );
};

/** A task's returns: figures with their definitions, the cumulative-profit curve, the cycles and the poster. */
export const TaskReturns = ({ taskId }: { taskId: string }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const returns = useTaskReturns(taskId);
  const isPhone = useIsPhone();
  const data = returns.data;

  const poster = () => {
    const r = data!;
    return {
      texts: {
        title: translate('poster.taskTitle', { symbol: r.symbol }),
        mainLabel: translate('poster.roi'),
        main: formatReturn(r.roi, locale),
        secondLabel: translate('poster.profit'),
        second: formatSignedUsdt(r.totalProfit, locale),
        lines: [translate('poster.runTime', { time: formatDuration(r.runSeconds, locale) }), translate('poster.cycles', { count: r.cyclesClosed })],
      },
      // The main figure's own trend, as the page colours it.
      trend: trend(r.roi),
      points: r.curve,
      origin: r.startedAt,
      fileName: translate('poster.fileTask', { symbol: r.symbol.replace('/', '-') }),
    };
  };

  return (
    <Paper sx={section} data-section="returns">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1.5, minWidth: 0 }}>
        <SectionTitle>{translate('returns.title')}</SectionTitle>
        <PosterButton content={poster} disabled={!data} />
      </Stack>
      {returns.error && !data && <LoadError error={returns.error} onRetry={() => void returns.refetch()} />}
      {returns.isPending && !returns.error && <Skeleton variant="rounded" height={160} />}
      {data && (
        <Stack spacing={3}>
          <Figures returns={data} />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {translate('returns.curve')}
            </Typography>
            <ProfitCurve points={data.curve} origin={data.startedAt} height={isPhone ? 200 : 260} label={translate('returns.curveLabel')} empty={translate('returns.noCurve')} />
          </Box>
          <Cycles taskId={taskId} />
        </Stack>
      )}
    </Paper>
  );
};
