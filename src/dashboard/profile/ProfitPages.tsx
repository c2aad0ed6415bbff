import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import EmojiEventsIcon from '@mui/icons-material/EmojiEvents';
import {
  Box,
  Chip,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Pagination,
  Paper,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tabs,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import type { ClosedCycle, ProfitRank } from '../../api/member';
import { Screen } from '../layout/Screen';
import { MonthPosterButton } from '../kit/embeds';
import { formatQuote, formatSigned, profitColor } from '../kit/money';
import { ProfitBarChart } from './ProfitBarChart';
import { browserTimeZone } from '../../dataProvider/timeZone';
import { EmptyLine, QueryView } from '../kit/LoadError';
import { Section } from '../kit/Section';
import { Stat, statGrid } from '../kit/Stat';
import { formatClock } from '../kit/time';
import { useProfitDay, useProfitDays, useProfitRank, useProfitSummary } from './api';
import { formatAsset } from '../../api/format';

export const DAYS_PAGE_SIZE = 20;

const DayList = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [page, setPage] = useState(1);
  const days = useProfitDays(page, DAYS_PAGE_SIZE);
  const pages = Math.max(1, Math.ceil((days.data?.total ?? 0) / DAYS_PAGE_SIZE));
  return (
    <Section name="days" title={translate('profile.profit.days')}>
      <QueryView query={days} skeletons={3} height={48}>
        {(data) =>
          data.list.length === 0 ? (
            <EmptyLine text={translate('profile.profit.noDays')} />
          ) : (
            <>
              <List disablePadding>
                {data.list.map((day) => (
                  <ListItemButton key={day.date} component={Link} to={`/profile/daily-profit-detail/${day.date}`} divider data-day={day.date} sx={{ px: 1 }}>
                    <ListItemText primary={day.date} secondary={translate('profile.profit.cyclesCount', { count: day.cycles })} />
                    <Typography sx={{ fontWeight: 600, color: profitColor(day.profit), fontVariantNumeric: 'tabular-nums', mr: 0.5 }}>
                      {formatSigned(day.profit, locale)} USDT
                    </Typography>
                    <ChevronRightIcon color="action" />
                  </ListItemButton>
                ))}
              </List>
              {pages > 1 && (
                <Stack sx={{ alignItems: 'center', mt: 2 }}>
                  <Pagination count={pages} page={page} onChange={(_, next) => setPage(next)} size="small" siblingCount={0} />
                </Stack>
              )}
            </>
          )
        }
      </QueryView>
    </Section>
  );
};

/** `/profile/profit-detail`: totals, a bar a day, and every day with closed cycles. */
export const ProfitDetailPage = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const summary = useProfitSummary();
  return (
    <Screen titleKey="page.profitDetail">
      <Stack spacing={2}>
        <QueryView query={summary} skeletons={2} height={110}>
          {(data) => (
            <>
              <Section name="totals">
                <Box sx={statGrid(5)}>
                  <Stat name="total" unit="USDT" label={translate('profile.profit.total')} value={formatSigned(data.total, locale)} color={profitColor(data.total)} />
                  <Stat name="today" unit="USDT" label={translate('profile.profit.today')} value={formatSigned(data.todayProfit, locale)} color={profitColor(data.todayProfit)} />
                  <Stat name="7d" unit="USDT" label={translate('profile.profit.last7Days')} value={formatSigned(data.last7Days, locale)} color={profitColor(data.last7Days)} />
                  <Stat name="30d" unit="USDT" label={translate('profile.profit.last30Days')} value={formatSigned(data.last30Days, locale)} color={profitColor(data.last30Days)} />
                  <Stat name="cycles" label={translate('profile.profit.cycles')} value={data.cycles} />
                </Box>
              </Section>
              <Section name="chart" title={translate('profile.profit.chart', { count: data.daily.length })} action={<MonthPosterButton summary={data} />}>
                {data.daily.length === 0 ? <EmptyLine text={translate('profile.profit.noDays')} /> : <ProfitBarChart days={data.daily} />}
                <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
                  {translate('profile.profit.timeZone', { timeZone: data.timeZone })}
                </Typography>
              </Section>
            </>
          )}
        </QueryView>
        <DayList />
      </Stack>
    </Screen>
  );
};

const CycleFigures = ({ cycle }: { cycle: ClosedCycle }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' }}>
      <Stat label={translate('profile.daily.cost')} value={formatQuote(cycle.buyCost, locale)} />
      <Stat label={translate('profile.daily.proceeds')} value={formatQuote(cycle.sellProceeds, locale)} />
      <Stat label={translate('profile.daily.profit')} value={formatSigned(cycle.realizedProfit, locale)} color={profitColor(cycle.realizedProfit)} />
      <Stat label={translate('profile.daily.fuel')} value={formatAsset(cycle.fuelCharged, 'FUEL', locale)} />
    </Box>
  );
};

/** `/profile/daily-profit-detail/:date`: the cycles closed that day (in the browser's time zone). */
export const DailyProfitDetailPage = () => {
  const { date = '' } = useParams();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const timeZone = browserTimeZone();
  const detail = useProfitDay(date);
  const time = (iso: string) => formatClock(iso, locale, timeZone);
  return (
    <Screen titleKey="page.dailyProfitDetail" titleOptions={{ date }}>
      <QueryView query={detail} skeletons={3} height={80}>
        {(data) => (
          <Stack spacing={2}>
            <Section name="day-total">
              <Box sx={statGrid(2)}>
                <Stat name="profit" unit="USDT" label={translate('profile.daily.total')} value={formatSigned(data.profit, locale)} color={profitColor(data.profit)} />
                <Stat name="cycles" label={translate('profile.profit.cycles')} value={data.cycles.length} />
              </Box>
            </Section>
            {data.cycles.length === 0 ? (
              <Paper>
                <EmptyLine text={translate('profile.daily.empty')} />
              </Paper>
            ) : (
              <>
                <TableContainer component={Paper} sx={{ display: { xs: 'none', md: 'block' } }}>
                  <Table size="small">
                    <TableHead>
                      <TableRow>
                        <TableCell>{translate('profile.daily.pair')}</TableCell>
                        <TableCell>{translate('profile.daily.cycle')}</TableCell>
                        <TableCell align="right">{translate('profile.daily.cost')}</TableCell>
                        <TableCell align="right">{translate('profile.daily.proceeds')}</TableCell>
                        <TableCell align="right">{translate('profile.daily.profit')}</TableCell>
                        <TableCell align="right">{translate('profile.daily.fuel')}</TableCell>
                        <TableCell align="right">{translate('profile.daily.time')}</TableCell>
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {data.cycles.map((cycle) => (
                        <TableRow key={cycle.id} data-cycle-row={cycle.id} hover>
                          <TableCell>
                            <Box component={Link} to={`/trade/detail/${cycle.taskId}`} sx={{ color: 'inherit', fontWeight: 600 }}>
                              {cycle.symbol}
                            </Box>
                            <Typography variant="caption" color="text.secondary" component="div">
                              {cycle.exchangeName}
                            </Typography>
                          </TableCell>
                          <TableCell>{translate('profile.daily.cycleN', { n: cycle.cycle })}</TableCell>
                          <TableCell align="right">{formatQuote(cycle.buyCost, locale)}</TableCell>
                          <TableCell align="right">{formatQuote(cycle.sellProceeds, locale)}</TableCell>
                          <TableCell align="right" sx={{ color: profitColor(cycle.realizedProfit), fontWeight: 600 }}>
                            {formatSigned(cycle.realizedProfit, locale)}
                          </TableCell>
                          <TableCell align="right">{formatAsset(cycle.fuelCharged, 'FUEL', locale)}</TableCell>
                          <TableCell align="right">{time(cycle.closedAt)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </TableContainer>
                <Stack spacing={1.5} sx={{ display: { xs: 'flex', md: 'none' } }}>
                  {data.cycles.map((cycle) => (
                    <Paper key={cycle.id} sx={{ p: 2, minWidth: 0 }} data-cycle-card={cycle.id}>
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', justifyContent: 'space-between', mb: 1, minWidth: 0 }}>
                        <Box sx={{ minWidth: 0 }}>
                          <Typography component={Link} to={`/trade/detail/${cycle.taskId}`} sx={{ fontWeight: 600, color: 'inherit' }}>
                            {cycle.symbol}
                          </Typography>
                          <Typography variant="caption" color="text.secondary" component="div" noWrap>
                            {cycle.exchangeName} · {translate('profile.daily.cycleN', { n: cycle.cycle })}
                          </Typography>
                        </Box>
                        <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
                          {time(cycle.closedAt)}
                        </Typography>
                      </Stack>
                      <CycleFigures cycle={cycle} />
                    </Paper>
                  ))}
                </Stack>
              </>
            )}
          </Stack>
        )}
      </QueryView>
    </Screen>
  );
};

const medal = (rank: number) => (rank <= 3 ? ['#d4a017', '#9e9e9e', '#b0703c'][rank - 1] : undefined);

const RankList = ({ data }: { data: ProfitRank }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <Stack spacing={2}>
      <Section name="me">
        {data.me ? (
          <Box sx={statGrid(2)}>
            <Stat name="my-rank" label={translate('profile.rank.myRank')} value={`#${data.me.rank}`} />
            <Stat name="my-profit" unit="USDT" label={translate('profile.rank.myProfit')} value={formatSigned(data.me.profit, locale)} color={profitColor(data.me.profit)} />
          </Box>
        ) : (
          <Typography color="text.secondary" data-stat="my-rank">
            {translate('profile.rank.unranked')}
          </Typography>
        )}
      </Section>
      <Paper sx={{ minWidth: 0 }}>
        {data.list.length === 0 ? (
          <EmptyLine text={translate('profile.rank.empty')} />
        ) : (
          <List disablePadding>
            {data.list.map((row) => (
              <ListItem
                key={`${row.rank}-${row.name}`}
                divider
                data-rank={row.rank}
                data-self={row.self ? 'true' : undefined}
                aria-current={row.self ? 'true' : undefined}
                sx={{ bgcolor: row.self ? 'action.selected' : undefined, gap: 1.5 }}
              >
                <Box sx={{ width: 36, flexShrink: 0, textAlign: 'center', fontWeight: 700, color: medal(row.rank) }}>
                  {row.rank <= 3 ? <EmojiEventsIcon sx={{ color: medal(row.rank), verticalAlign: 'middle' }} titleAccess={`#${row.rank}`} /> : `#${row.rank}`}
                </Box>
                <ListItemText
                  sx={{ minWidth: 0 }}
                  primary={
                    <Stack direction="row" spacing={1} component="span" sx={{ alignItems: 'center', minWidth: 0 }}>
                      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                        {row.name}
                      </Box>
                      {row.self && <Chip size="small" color="primary" label={translate('profile.rank.you')} />}
                    </Stack>
                  }
                />
                <Typography sx={{ fontWeight: 600, color: profitColor(row.profit), flexShrink: 0, fontVariantNumeric: 'tabular-nums' }}>
                  {formatSigned(row.profit, locale)} USDT
                </Typography>
              </ListItem>
            ))}
          </List>
        )}
      </Paper>
    </Stack>
  );
};

/** `/profile/profit-rank`: today's and all-time ranking by realized profit, names masked. */
export const ProfitRankPage = () => {
  const translate = useTranslate();
  const [period, setPeriod] = useState<'day' | 'all'>('day');
  const rank = useProfitRank(period);
  const summary = useProfitSummary();
  return (
    <Screen titleKey="page.profitRank">
      <Stack direction="row" sx={{ justifyContent: 'flex-end', mb: 1 }}>
        <MonthPosterButton summary={summary.data} rank={rank.data?.me?.rank ?? null} />
      </Stack>
      <Tabs value={period} onChange={(_, next: 'day' | 'all') => setPeriod(next)} sx={{ mb: 2 }} variant="fullWidth">
        <Tab value="day" label={translate('profile.rank.day')} />
        <Tab value="all" label={translate('profile.rank.all')} />
      </Tabs>
      <QueryView query={rank} skeletons={4} height={48}>
        {(data) => <RankList data={data} />}
      </QueryView>
    </Screen>
  );
};
