import {
  Box,
  Chip,
  Link as MuiLink,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { ListBase, useGetOne, useListContext, useLocaleState, useTranslate } from 'react-admin';
import { Link, useSearchParams } from 'react-router-dom';
import type { TradeOrder, TradeTask, TradeTaskDetail } from '../../api/trade';
import { LoadError } from '../kit/LoadError';
import { Screen } from '../layout/Screen';
import { DETAIL, ORDERS, TASKS } from './api';
import { TASK_REFRESH_MS } from '../kit/queries';
import { feeText, formatTime, orderReasonText } from './taskText';
import { baseOf, formatPrice, formatQuantity, formatQuote } from '../kit/money';
import { TablePager } from '../kit/TablePager';

const SIDES = ['all', 'buy', 'sell'] as const;
type SideFilter = (typeof SIDES)[number];

/**
 * A table wider than its box scrolls sideways; shadows at its edges (drawn
 * only while there is more to see that way) say so.
 */
const scrollCue = {
  width: '100%',
  overflowX: 'auto',
  background: (theme: Theme) => {
    const paper = theme.palette.background.paper;
    const shade = theme.palette.mode === 'dark' ? 'rgba(0,0,0,.6)' : 'rgba(0,0,0,.18)';
    return `linear-gradient(to left, ${paper} 30%, transparent) 100% 0 / 40px 100% no-repeat local,
      radial-gradient(farthest-side at 100% 50%, ${shade}, transparent) 100% 0 / 14px 100% no-repeat scroll`;
  },
} as const;

/** The tick and step the figures show when an order comes without its market's (the task's, when the orders are one task's). */
type Market = Partial<Pick<TradeTask, 'tickSize' | 'amountStep'>>;

const STATUS_COLOR = { intent: 'default', open: 'info', closed: 'success', canceled: 'default', failed: 'error' } as const;

const OrderRow = ({ order, showTaskLink, market }: { order: TradeOrder; showTaskLink: boolean; market: Market }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const filled = order.status === 'closed';
  return (
    <TableRow hover data-order={order.id}>
      <TableCell>{formatTime(order.createdAt, locale)}</TableCell>
      <TableCell>
        {showTaskLink ? (
          <MuiLink component={Link} to={`/trade/detail/${order.taskId}`} underline="hover">
            {order.symbol}
          </MuiLink>
        ) : (
          order.symbol
        )}
      </TableCell>
      <TableCell sx={{ color: order.side === 'buy' ? 'up.main' : 'down.main', fontWeight: 600 }} data-side={order.side}>
        {translate(`tasks.orders.sides.${order.side}`)}
      </TableCell>
      <TableCell>{orderReasonText(order, translate)}</TableCell>
      <TableCell align="right">{order.cycle}</TableCell>
      <TableCell align="right">{filled ? formatPrice(order.price, locale, order.tickSize ?? market.tickSize) : '—'}</TableCell>
      <TableCell align="right">{filled ? `${formatQuantity(order.amount, locale, order.amountStep ?? market.amountStep)} ${baseOf(order.symbol)}` : '—'}</TableCell>
      <TableCell align="right">{filled ? formatQuote(order.cost, locale) : '—'}</TableCell>
      <TableCell align="right">{filled ? feeText(order, locale) : '—'}</TableCell>
      <TableCell>
        <StatusChip order={order} />
      </TableCell>
    </TableRow>
  );
};

const StatusChip = ({ order }: { order: TradeOrder }) => {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={STATUS_COLOR[order.status]}
      sx={{ maxWidth: '100%' }}
      label={
        order.status === 'failed' && order.error
          ? `${translate('tasks.orders.statuses.failed')} · ${translate(`tasks.errorReason.${order.error}`, { _: order.error })}`
          : translate(`tasks.orders.statuses.${order.status}`)
      }
    />
  );
};

/** One order on a phone: every column of the table as a labelled figure, nothing off-screen. */
const OrderCard = ({ order, showTaskLink, market }: { order: TradeOrder; showTaskLink: boolean; market: Market }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const filled = order.status === 'closed';
  const figure = (key: string, value: string) => (
    <Box sx={{ minWidth: 0 }} data-field={key}>
      <Typography variant="caption" color="text.secondary" component="div" noWrap>
        {translate(`tasks.orders.${key}`)}
      </Typography>
      <Typography variant="body2" component="div" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }} title={value}>
        {value}
      </Typography>
    </Box>
  );
  return (
    <Box component="li" data-order={order.id} sx={{ px: 1.5, py: 1.25, borderTop: 1, borderColor: 'divider', listStyle: 'none' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
        <Typography component="span" sx={{ fontWeight: 600, color: order.side === 'buy' ? 'up.main' : 'down.main', flexShrink: 0 }} data-side={order.side}>
          {translate(`tasks.orders.sides.${order.side}`)}
        </Typography>
        <Typography component="span" sx={{ fontWeight: 600, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {showTaskLink ? (
            <MuiLink component={Link} to={`/trade/detail/${order.taskId}`} underline="hover">
              {order.symbol}
            </MuiLink>
          ) : (
            order.symbol
          )}
        </Typography>
        <Box sx={{ ml: 'auto', minWidth: 0, flexShrink: 1 }}>
          <StatusChip order={order} />
        </Box>
      </Box>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.25 }}>
        {formatTime(order.createdAt, locale)} · {orderReasonText(order, translate)} · {translate('tasks.orders.cycle')} {order.cycle}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', columnGap: 2, rowGap: 0.5, mt: 0.75 }}>
        {figure('price', filled ? formatPrice(order.price, locale, order.tickSize ?? market.tickSize) : '—')}
        {figure('amount', filled ? `${formatQuantity(order.amount, locale, order.amountStep ?? market.amountStep)} ${baseOf(order.symbol)}` : '—')}
        {figure('cost', filled ? formatQuote(order.cost, locale) : '—')}
        {figure('fee', filled ? feeText(order, locale) : '—')}
      </Box>
    </Box>
  );
};

/** The orders of the list's page as a table (cards on phones), filtered by side, with its pager. */
const OrderTable = ({ taskId }: { taskId: string | null }) => {
  const translate = useTranslate();
  const { data, total, error, refetch, page, perPage, setPage, setPerPage, filterValues, setFilters } = useListContext<TradeOrder>();
  const side: SideFilter = (filterValues as { side?: SideFilter }).side ?? 'all';
  // Cards below md: a tablet's column is too narrow for the ten columns.
  const asCards = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  const rows = data ?? [];
  // One task's orders: its market's tick and step (the task the header above shows, asked once).
  const market: Market = useGetOne<TradeTaskDetail>(TASKS, { id: taskId ?? '', ...DETAIL }, { enabled: Boolean(taskId) }).data ?? {};

  return (
    <Paper sx={{ minWidth: 0, overflow: 'hidden' }}>
      <Box sx={{ p: { xs: 1.5, md: 2 }, display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          color="primary"
          value={side}
          aria-label={translate('tasks.orders.side')}
          onChange={(_, next: SideFilter | null) => next && setFilters(next === 'all' ? {} : { side: next }, {}, false)}
        >
          {SIDES.map((s) => (
            <ToggleButton key={s} value={s} sx={{ px: 2 }}>
              {s === 'all' ? translate('tasks.orders.all') : translate(`tasks.orders.sides.${s}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      {error && (
        <Box sx={{ mx: 2 }}>
          <LoadError error={error} onRetry={() => void refetch()} />
        </Box>
      )}
      {asCards ? (
        <Box component="ul" sx={{ m: 0, p: 0 }} aria-label={translate(taskId ? 'page.orderHistory' : 'page.allOrderHistory')} data-layout="cards">
          {rows.map((order) => (
            <OrderCard key={order.id} order={order} showTaskLink={!taskId} market={market} />
          ))}
          {data && rows.length === 0 && (
            <Box component="li" sx={{ listStyle: 'none', color: 'text.secondary', px: 2, py: 4 }}>
              {translate('tasks.orders.empty')}
            </Box>
          )}
        </Box>
      ) : (
      <TableContainer sx={scrollCue} data-scroll-cue>
        <Table
          size="small"
          aria-label={translate(taskId ? 'page.orderHistory' : 'page.allOrderHistory')}
          sx={{
            '& th, & td': { whiteSpace: 'nowrap', px: 1 },
            // The time stays in view while the rest scrolls.
            '& th:first-of-type, & td:first-of-type': { position: 'sticky', left: 0, zIndex: 1, bgcolor: 'background.paper', pl: 2 },
          }}
        >
          <TableHead>
            <TableRow>
              <TableCell>{translate('tasks.orders.time')}</TableCell>
              <TableCell>{translate('tasks.orders.pair')}</TableCell>
              <TableCell>{translate('tasks.orders.side')}</TableCell>
              <TableCell>{translate('tasks.orders.reason')}</TableCell>
              <TableCell align="right">{translate('tasks.orders.cycle')}</TableCell>
              <TableCell align="right">{translate('tasks.orders.price')}</TableCell>
              <TableCell align="right">{translate('tasks.orders.amount')}</TableCell>
              <TableCell align="right">{translate('tasks.orders.cost')}</TableCell>
              <TableCell align="right">{translate('tasks.orders.fee')}</TableCell>
              <TableCell>{translate('tasks.orders.status')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((order) => (
              <OrderRow key={order.id} order={order} showTaskLink={!taskId} market={market} />
            ))}
            {data && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={10} sx={{ color: 'text.secondary', py: 4 }}>
                  {translate('tasks.orders.empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      )}
      <TablePager count={total ?? 0} page={page - 1} pageSize={perPage} onPage={(next) => setPage(next + 1)} onPageSize={setPerPage} edgeToEdge />
    </Paper>
  );
};

/** Which task the orders belong to, above its table. */
const TaskCaption = ({ id }: { id: string }) => {
  const translate = useTranslate();
  const task = useGetOne<TradeTaskDetail>(TASKS, { id, ...DETAIL });
  if (!task.data) return null;
  return (
    <Typography color="text.secondary" sx={{ mb: 2 }}>
      <MuiLink component={Link} to={`/trade/detail/${id}`} underline="hover">
        {translate('tasks.orders.ofTask', { symbol: task.data.symbol, exchange: task.data.exchangeName })}
      </MuiLink>
    </Typography>
  );
};

/** A list query's refresh interval for its first page only (react-admin's list query key holds the page). */
const firstPageEvery =
  (ms: number) =>
  ({ queryKey }: { queryKey: readonly unknown[] }) =>
    (queryKey[2] as { pagination?: { page?: number } } | undefined)?.pagination?.page === 1 ? ms : false;

/**
 * The orders of one task or of all of them, newest first: react-admin's list
 * of the `orders` resource (its state in the page, not the address, which
 * carries the spec's `taskId`). New orders arrive on the first page, which
 * refreshes itself; older pages stay put.
 */
const Orders = ({ taskId }: { taskId: string | null }) => (
  <ListBase
    resource={ORDERS}
    filter={taskId ? { taskId } : {}}
    perPage={20}
    sort={{ field: 'createdAt', order: 'DESC' }}
    disableSyncWithLocation
    storeKey={false}
    queryOptions={{ refetchInterval: firstPageEvery(TASK_REFRESH_MS) }}
  >
    <OrderTable taskId={taskId} />
  </ListBase>
);

/** Order history of one task: the route's `taskId` query is the page's `id`. */
export const OrderHistoryPage = ({ id }: { id: string | null }) => (
  <Screen titleKey="page.orderHistory">
    <Box data-task-id={id ?? ''} sx={{ minWidth: 0 }}>
      {id && <TaskCaption id={id} />}
      <Orders taskId={id} />
    </Box>
  </Screen>
);

export const OrderHistoryRoute = () => {
  const [params] = useSearchParams();
  return <OrderHistoryPage id={params.get('taskId')} />;
};

/** `/trade/all-order-history`: every order of every task. */
export const AllOrderHistoryPage = () => (
  <Screen titleKey="page.allOrderHistory">
    <Orders taskId={null} />
  </Screen>
);
