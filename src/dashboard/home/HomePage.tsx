import AddIcon from '@mui/icons-material/Add';
import AutoGraphIcon from '@mui/icons-material/AutoGraph';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import KeyIcon from '@mui/icons-material/Key';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import ScienceIcon from '@mui/icons-material/ScienceOutlined';
import TuneIcon from '@mui/icons-material/Tune';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useGetList, useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { PAPER_EXCHANGE, type ExchangeAccount } from '../../api/exchange';
import type { TradeTask } from '../../api/trade';
import { Protected } from '../../authProvider/guards';
import { EmptyPanel } from '../kit/panels';
import { sectionSx as section } from '../kit/Section';
import { Screen } from '../layout/Screen';
import { HomeReturns } from '../kit/embeds';
import { formatPrice, formatQuote, formatSigned, profitColor, taskResult } from '../kit/money';
import { useAllTasks, useLastPrices, useTodayProfit } from './api';
import { homeTotals } from './homeFigures';

const Stat = ({ label, value, unit, hint, color, name }: { label: string; value: ReactNode; unit?: string; hint: string; color?: string; name: string }) => (
  <Paper sx={section} data-stat={name}>
    <Typography variant="body2" color="text.secondary" noWrap>
      {label}
    </Typography>
    <Typography variant="h5" component="p" sx={{ fontWeight: 700, color, my: 0.5, overflowWrap: 'anywhere', fontVariantNumeric: 'tabular-nums' }}>
      {value}
      {unit && (
        <Typography component="span" variant="body2" sx={{ ml: 0.5, fontWeight: 400, color: 'text.secondary' }}>
          {unit}
        </Typography>
      )}
    </Typography>
    <Typography variant="caption" color="text.secondary" component="div">
      {hint}
    </Typography>
  </Paper>
);

const TaskResult = ({ label, task }: { label: string; task: TradeTask }) => {
  const [locale] = useLocaleState();
  const value = taskResult(task).toFixed();
  return (
    <Box
      component={Link}
      to={`/trade/detail/${task.id}`}
      data-result={label}
      sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 1, color: 'inherit', textDecoration: 'none', minWidth: 0, '&:hover .symbol': { textDecoration: 'underline' } }}
    >
      <Box sx={{ minWidth: 0, flexGrow: 1 }}>
        <Typography variant="caption" color="text.secondary" component="div">
          {label}
        </Typography>
        <Typography className="symbol" sx={{ fontWeight: 600 }} noWrap>
          {task.symbol} <Typography component="span" variant="body2" color="text.secondary">· {task.exchangeName}</Typography>
        </Typography>
      </Box>
      <Typography sx={{ fontWeight: 700, color: profitColor(value), flexShrink: 0, fontVariantNumeric: 'tabular-nums' }}>{formatSigned(value, locale)} USDT</Typography>
    </Box>
  );
};

/** No task yet: bind a paper account, then create a task. */
const EmptyState = ({ hasAccount }: { hasAccount: boolean }) => {
  const translate = useTranslate();
  const step = (done: boolean, n: number, text: string) => (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'center' }}>
      {done ? <CheckCircleIcon color="success" fontSize="small" /> : <Typography sx={{ fontWeight: 700, width: 20 }}>{n}.</Typography>}
      <Typography sx={{ textDecoration: done ? 'line-through' : undefined, color: done ? 'text.secondary' : undefined }}>{text}</Typography>
    </Stack>
  );
  return (
    <EmptyPanel icon={<ScienceIcon color="success" sx={{ fontSize: 48 }} />} titleKey="home.emptyTitle" textKey="home.emptyText" section="home-empty">
      <Stack spacing={0.5} sx={{ mt: 2 }}>
        {step(hasAccount, 1, translate('home.stepBind'))}
        {step(false, 2, translate('home.stepTask'))}
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 3, justifyContent: 'center' }}>
        {!hasAccount && (
          <Button component={Link} to={`/exchange/add?exchange=${PAPER_EXCHANGE}`} variant="contained" startIcon={<ScienceIcon />}>
            {translate('home.stepBind')}
          </Button>
        )}
        <Button component={Link} to="/trade/add" variant={hasAccount ? 'contained' : 'outlined'} startIcon={<AddIcon />}>
          {translate('home.stepTask')}
        </Button>
      </Stack>
    </EmptyPanel>
  );
};

const QuickLinks = () => {
  const translate = useTranslate();
  const links = [
    { to: '/trade/add', label: 'home.newTask', icon: <AddIcon /> },
    { to: '/trade', label: 'home.tasks', icon: <AutoGraphIcon /> },
    { to: '/trade/all-order-history', label: 'home.allOrders', icon: <ReceiptLongIcon /> },
    { to: '/strategy', label: 'home.strategies', icon: <TuneIcon /> },
    { to: '/exchange', label: 'home.exchanges', icon: <KeyIcon /> },
  ];
  return (
    <Paper sx={section}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
        {translate('home.quick')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))', md: 'repeat(5, minmax(0, 1fr))' } }}>
        {links.map((link) => (
          <Button key={link.to} component={Link} to={link.to} variant="outlined" startIcon={link.icon} sx={{ justifyContent: 'flex-start', minWidth: 0, textAlign: 'left', lineHeight: 1.3 }}>
            {translate(link.label)}
          </Button>
        ))}
      </Box>
    </Paper>
  );
};

const Home = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const tasks = useAllTasks();
  const totals = tasks.data ? homeTotals(tasks.data) : null;
  const prices = useLastPrices(totals?.symbolsByExchange);
  const summary = useTodayProfit();
  const accounts = useGetList<ExchangeAccount>('exchange', { pagination: { page: 1, perPage: 1 }, sort: { field: 'createdAt', order: 'ASC' } }, { enabled: tasks.data?.length === 0 });
  const symbols = [...new Set(Object.values(totals?.symbolsByExchange ?? {}).flat())].sort();
  /** Each pair's price tick, from the tasks that trade it. */
  const tickOf = (symbol: string) => tasks.data?.find((task) => task.symbol === symbol && task.tickSize)?.tickSize ?? null;

  return (
    <Screen titleKey="page.home" back={false}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('home.intro')}
      </Typography>
      {tasks.error && <Alert severity="error" sx={{ mb: 2 }}>{tasks.error.message}</Alert>}
      <Stack spacing={2}>
        <HomeReturns />
        {totals && totals.total === 0 && <EmptyState hasAccount={(accounts.total ?? 0) > 0} />}
        {totals && totals.total > 0 && (
          <>
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))', lg: 'repeat(5, minmax(0, 1fr))' } }}>
              <Stat name="realized" unit="USDT" label={translate('home.realized')} value={formatSigned(totals.realized, locale)} color={profitColor(totals.realized)} hint={translate('home.realizedHint')} />
              {summary.data && (
                <Stat
                  name="today"
                  unit="USDT"
                  label={translate('home.today')}
                  value={formatSigned(summary.data.realizedToday, locale)}
                  color={profitColor(summary.data.realizedToday)}
                  hint={translate('home.todayHint', { count: summary.data.cyclesToday })}
                />
              )}
              <Stat name="floating" unit="USDT" label={translate('home.floating')} value={formatSigned(totals.floating, locale)} color={profitColor(totals.floating)} hint={translate('home.floatingHint')} />
              <Stat name="running" label={translate('home.running')} value={totals.running} hint={translate('home.runningOf', { total: totals.total, count: Number(totals.total) })} />
              <Stat name="capital" unit="USDT" label={translate('home.capital')} value={formatQuote(totals.capital, locale)} hint={translate('home.capitalHint')} />
            </Box>
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }}>
              <Paper sx={section}>
                <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                  {translate('home.performance')}
                </Typography>
                <Typography variant="caption" color="text.secondary" component="div">
                  {translate('home.performanceHint')}
                </Typography>
                {totals.best && <TaskResult label={translate('home.best')} task={totals.best} />}
                {totals.worst && <TaskResult label={translate('home.worst')} task={totals.worst} />}
              </Paper>
              <Paper sx={section}>
                <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
                  {translate('home.prices')}
                </Typography>
                <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))' } }}>
                  {symbols.map((symbol) => (
                    <Box key={symbol} data-price={symbol} sx={{ minWidth: 0, p: 1, borderRadius: 1, bgcolor: 'action.hover' }}>
                      <Typography variant="caption" color="text.secondary" component="div" noWrap>
                        {symbol}
                      </Typography>
                      <Typography sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }} noWrap>
                        {formatPrice(prices.data?.[symbol], locale, tickOf(symbol))}
                      </Typography>
                    </Box>
                  ))}
                </Box>
              </Paper>
            </Box>
          </>
        )}
        <QuickLinks />
      </Stack>
    </Screen>
  );
};

/** `/`: react-admin's dashboard slot, behind the same guard as every protected page. */
export const HomePage = () => (
  <Protected>
    <Home />
  </Protected>
);
