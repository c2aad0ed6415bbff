import {
  Alert,
  Box,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import Big from 'big.js';
import { Component, lazy, Suspense, useState, type ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import type { BacktestReport } from '../../api/backtest';
import { Figure } from '../kit/Figure';
import { formatCount, formatPercent } from '../../api/format';
import { baseOf, formatPrice, formatQuantity, formatQuote, formatSigned, profitColor, quoteOf } from '../kit/money';
import type { ChartCycle } from './BacktestChart';

/** The chart library loads with the first result, never with the page. */
const BacktestChart = lazy(() => import('./BacktestChart'));

/** A chart that cannot be drawn (no canvas) leaves the figures and tables standing. */
class ChartBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

const when = (ms: number, locale: string) =>
  new Intl.DateTimeFormat(locale, { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(ms));

/** A phone's end column: month, day and time (the year is the range's, said above the figures). */
const shortWhen = (ms: number, locale: string) =>
  new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(ms));

const CYCLES_PER_PAGE = 10;

/**
 * The run in one plain paragraph: what the strategy used and made, that per
 * year, and what the same money simply held would have made.
 */
const Summary = ({ report }: { report: BacktestReport }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const f = report.figures;
  if (f.holdProfit === undefined || f.holdReturnPercent === undefined || f.annualizedReturnPercent === undefined || !new Big(f.maxFundsInUse).gt(0)) return null;
  const quote = quoteOf(report.symbol);
  const base = baseOf(report.symbol);
  const money = (value: string, signed = false) => `${signed ? formatSigned(value, locale) : formatQuote(value, locale)} ${quote}`;
  const profit = new Big(f.realizedProfit).plus(f.openPosition?.floatingProfit ?? '0');
  const diff = profit.round(2).minus(new Big(f.holdProfit).round(2));
  const verdict = diff.gt(0) ? 'strategyBetter' : diff.lt(0) ? 'holdBetter' : 'sameAsHold';
  return (
    <Box data-section="backtest-summary" sx={{ p: 2, borderRadius: 1, bgcolor: 'action.hover' }}>
      <Typography variant="body2">
        {translate('backtest.summary', {
          funds: money(f.maxFundsInUse),
          profit: money(profit.toFixed(), true),
          percent: formatPercent(f.returnPercent, locale, { signed: true }),
          annual: formatPercent(f.annualizedReturnPercent, locale, { signed: true }),
          base,
          holdProfit: money(f.holdProfit, true),
          holdPercent: formatPercent(f.holdReturnPercent, locale, { signed: true }),
        })}
      </Typography>
      <Typography variant="body2" sx={{ mt: 1, fontWeight: 600 }} data-verdict={verdict}>
        {translate(`backtest.${verdict}`, { base, diff: money(diff.abs().toFixed()) })}
      </Typography>
    </Box>
  );
};

/** A finished backtest: its figures, the market rules it ran under, the chart and one row per cycle. */
export const BacktestResults = ({ report }: { report: BacktestReport }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const isPhone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'), { noSsr: true });
  const f = report.figures;
  const quote = quoteOf(report.symbol);
  const base = baseOf(report.symbol);
  const q = (value: string) => `${formatQuote(value, locale)} ${quote}`;
  const open = f.openPosition;
  const [cycle, setCycle] = useState<ChartCycle>(open?.inCycle ? { kind: 'open' } : report.cycles.length > 0 ? { kind: 'closed', index: report.cycles.length - 1 } : null);
  const [page, setPage] = useState(0);
  const rules = report.market;

  return (
    <Stack spacing={2} data-section="backtest-results">
      <Typography variant="body2" color="text.secondary">
        {translate('backtest.range', { from: when(report.from, locale), to: when(report.to, locale), count: formatCount(report.candles, locale), symbol: report.symbol })}
      </Typography>
      <Summary report={report} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' } }}>
        <Figure testId="cycles" label={translate('backtest.figure.cycles')} value={f.cycles} />
        <Figure testId="realizedProfit" label={translate('backtest.figure.realizedProfit')} value={`${formatSigned(f.realizedProfit, locale)} ${quote}`} color={profitColor(f.realizedProfit)} />
        <Figure testId="returnPercent" label={translate('backtest.figure.returnPercent')} value={formatPercent(f.returnPercent, locale, { signed: true })} color={profitColor(f.returnPercent)} />
        {f.annualizedReturnPercent !== undefined && (
          <Figure testId="annualized" label={translate('backtest.figure.annualized')} value={formatPercent(f.annualizedReturnPercent, locale, { signed: true })} color={profitColor(f.annualizedReturnPercent)} />
        )}
        {f.holdProfit !== undefined && f.holdReturnPercent !== undefined && (
          <Figure
            testId="hold"
            label={translate('backtest.figure.hold', { base })}
            value={`${formatSigned(f.holdProfit, locale)} ${quote} (${formatPercent(f.holdReturnPercent, locale, { signed: true })})`}
            color={profitColor(f.holdProfit)}
          />
        )}
        <Figure testId="maxFundsInUse" label={translate('backtest.figure.maxFundsInUse')} value={q(f.maxFundsInUse)} />
        <Figure testId="maxDrawdown" label={translate('backtest.figure.maxDrawdown')} value={`${q(f.maxDrawdown)} (${formatPercent(f.maxDrawdownPercent, locale)})`} />
        <Figure testId="fees" label={translate('backtest.figure.fees')} value={q(f.fees)} />
        <Figure testId="trades" label={translate('backtest.figure.trades')} value={`${f.buys} / ${f.sells}`} />
        <Figure testId="timeInPosition" label={translate('backtest.figure.timeInPosition')} value={formatPercent(f.timeInPositionPercent, locale)} />
        {f.exits && f.exits.targetSales.length > 1 && (
          <Figure
            testId="targetSales"
            label={translate('backtest.figure.targetSales')}
            value={f.exits.targetSales.map((count, i) => translate('backtest.targetSale', { target: i + 1, count })).join(' · ')}
          />
        )}
        {f.exits && f.exits.stopLoss + f.exits.timeStop + f.exits.breakEven > 0 && (
          <Figure
            testId="stops"
            label={translate('backtest.figure.stops')}
            value={translate('backtest.stopsValue', {
              loss: f.exits.stopLoss,
              time: f.exits.timeStop,
              breakEven: f.exits.breakEven,
              profit: `${formatSigned(f.exits.stopProfit, locale)} ${quote}`,
            })}
            color={profitColor(f.exits.stopProfit)}
          />
        )}
        <Figure
          testId="openPosition"
          label={translate('backtest.figure.openPosition')}
          value={
            open
              ? translate(open.inCycle ? 'backtest.openPosition' : 'backtest.remainder', {
                  quantity: `${formatQuantity(open.quantity, locale)} ${base}`,
                  average: formatPrice(open.averagePrice, locale, report.tickSize),
                  floating: `${formatSigned(open.floatingProfit, locale)} ${quote}`,
                })
              : translate('backtest.none')
          }
          color={open ? profitColor(open.floatingProfit) : undefined}
        />
      </Box>
      <Typography variant="caption" color="text.secondary">
        {translate('backtest.glossary')}
      </Typography>
      {f.stopped && (
        <Alert severity="warning" data-alert="stopped">
          {translate('backtest.stopped', {
            time: when(f.stopped.time, locale),
            side: translate(`backtest.side.${f.stopped.side}`),
            level: f.stopped.level,
            price: formatPrice(f.stopped.price, locale, report.tickSize),
            reason: translate(`backtest.stopReason.${f.stopped.reason}`),
          })}
        </Alert>
      )}
      <Typography variant="caption" color="text.secondary">
        {translate('backtest.rules', {
          fee: new Big(rules.feeRate).times(100).toFixed(),
          asset: translate(`backtest.feeAsset.${rules.feeAsset}`),
          step: rules.amountStep,
          minAmount: rules.minAmount,
          minCost: rules.minCost,
          fill: translate(`backtest.fill.${report.fill}`),
        })}
      </Typography>

      <Box>
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          {translate('backtest.chart.title')}
          {cycle && (
            <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 1 }}>
              {cycle.kind === 'open' ? translate('backtest.chart.ladderOpen') : translate('backtest.chart.ladderOf', { cycle: report.cycles[cycle.index]?.cycle })}
            </Typography>
          )}
        </Typography>
        <ChartBoundary fallback={<Alert severity="info">{translate('backtest.chart.unavailable')}</Alert>}>
          <Suspense fallback={<Skeleton variant="rectangular" height={isPhone ? 320 : 420} />}>
            <BacktestChart report={report} cycle={cycle} height={isPhone ? 320 : 420} compact={isPhone} />
          </Suspense>
        </ChartBoundary>
      </Box>

      {report.cycles.length > 0 && (
        <Box>
          <Typography variant="subtitle2" sx={{ mb: 1 }}>
            {translate('backtest.cycles.title')}
          </Typography>
          {/* Profit first; on a phone only what fits the width (no sideways scrolling): profit, cycle, end, exit. */}
          <TableContainer sx={{ width: '100%' }}>
            <Table size="small" aria-label={translate('backtest.cycles.title')} sx={{ '& th, & td': { whiteSpace: 'nowrap', px: { xs: 1, sm: 2 } } }}>
              <TableHead>
                <TableRow>
                  <TableCell align="right">{translate('backtest.cycles.profit')}</TableCell>
                  <TableCell>{translate('backtest.cycles.cycle')}</TableCell>
                  {!isPhone && <TableCell>{translate('backtest.cycles.start')}</TableCell>}
                  <TableCell>{translate('backtest.cycles.end')}</TableCell>
                  {!isPhone && <TableCell align="right">{translate('backtest.cycles.firstPrice')}</TableCell>}
                  {!isPhone && <TableCell align="right">{translate('backtest.cycles.levels')}</TableCell>}
                  <TableCell>{translate('backtest.cycles.exit')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {report.cycles.slice(page * CYCLES_PER_PAGE, (page + 1) * CYCLES_PER_PAGE).map((row, i) => {
                  const index = page * CYCLES_PER_PAGE + i;
                  const selected = cycle?.kind === 'closed' && cycle.index === index;
                  return (
                    <TableRow key={row.cycle} hover selected={selected} onClick={() => setCycle({ kind: 'closed', index })} sx={{ cursor: 'pointer' }} data-cycle={row.cycle}>
                      <TableCell align="right" sx={{ color: profitColor(row.profit), fontVariantNumeric: 'tabular-nums', fontWeight: 600 }}>
                        {formatSigned(row.profit, locale)}
                      </TableCell>
                      <TableCell>{row.cycle}</TableCell>
                      {!isPhone && <TableCell>{row.openedAt === null ? '—' : when(row.openedAt, locale)}</TableCell>}
                      <TableCell>{isPhone ? shortWhen(row.closedAt, locale) : when(row.closedAt, locale)}</TableCell>
                      {!isPhone && (
                        <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                          {formatPrice(row.firstPrice, locale, report.tickSize)}
                        </TableCell>
                      )}
                      {!isPhone && <TableCell align="right">{row.levelsFilled}</TableCell>}
                      <TableCell>{row.stop ? translate(`backtest.stopKind.${row.stop}`) : translate(`backtest.exit.${row.exitReason}`)}</TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
          {report.cycles.length > CYCLES_PER_PAGE && (
            <TablePagination
              component="div"
              count={report.cycles.length}
              page={page}
              onPageChange={(_, next) => setPage(next)}
              rowsPerPage={CYCLES_PER_PAGE}
              rowsPerPageOptions={[CYCLES_PER_PAGE]}
            />
          )}
        </Box>
      )}
    </Stack>
  );
};
