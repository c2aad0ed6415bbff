import {
  Alert,
  Box,
  Chip,
  Link as MuiLink,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { Link, useSearchParams } from 'react-router-dom';
import type { TradeOrder } from '../../api/trade';
import type { AppDataProvider } from '../../dataProvider/dataProvider';
import { Screen } from '../layout/Screen';
import { baseOf, formatPrice, formatQuantity, formatQuote, formatTime, orderReasonText, TASK_REFRESH_MS } from './taskText';

const SIDES = ['all', 'buy', 'sell'] as const;
type SideFilter = (typeof SIDES)[number];
const ROWS_PER_PAGE = [10, 20, 50];

const STATUS_COLOR = { intent: 'default', open: 'info', closed: 'success', canceled: 'default', failed: 'error' } as const;

const OrderRow = ({ order, showTaskLink }: { order: TradeOrder; showTaskLink: boolean }) => {
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
      <TableCell sx={{ color: order.side === 'buy' ? 'success.main' : 'error.main', fontWeight: 600 }} data-side={order.side}>
        {translate(`tasks.orders.sides.${order.side}`)}
      </TableCell>
      <TableCell>{orderReasonText(order, translate)}</TableCell>
      <TableCell align="right">{order.cycle}</TableCell>
      <TableCell align="right">{filled ? formatPrice(order.price, locale) : '—'}</TableCell>
      <TableCell align="right">{filled ? `${formatQuantity(order.amount, locale)} ${baseOf(order.symbol)}` : '—'}</TableCell>
      <TableCell align="right">{filled ? formatQuote(order.cost, locale) : '—'}</TableCell>
      <TableCell align="right">{filled ? `${formatQuantity(order.fee, locale)} ${order.feeCurrency ?? ''}`.trim() : '—'}</TableCell>
      <TableCell>
        <Chip
          size="small"
          variant="outlined"
          color={STATUS_COLOR[order.status]}
          label={
            order.status === 'failed' && order.error
              ? `${translate('tasks.orders.statuses.failed')} · ${translate(`tasks.errorReason.${order.error}`, { _: order.error })}`
              : translate(`tasks.orders.statuses.${order.status}`)
          }
        />
      </TableCell>
    </TableRow>
  );
};

/** A paged table of orders, of one task or of all of them, filtered by side. */
const OrderTable = ({ taskId }: { taskId: string | null }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [side, setSide] = useState<SideFilter>('all');
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(20);
  const isPhone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const query = { taskId: taskId ?? undefined, side: side === 'all' ? undefined : side, page: page + 1, pageSize };
  const orders = useQuery({
    queryKey: ['trade', 'orders', query],
    queryFn: ({ signal }) => dataProvider.tradeOrderHistory(query, signal),
    // New orders arrive on the first page; older pages stay put.
    refetchInterval: page === 0 ? TASK_REFRESH_MS : false,
    placeholderData: keepPreviousData,
  });
  const rows = orders.data?.list ?? [];

  return (
    <Paper sx={{ minWidth: 0, overflow: 'hidden' }}>
      <Box sx={{ p: { xs: 1.5, md: 2 }, display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          color="primary"
          value={side}
          aria-label={translate('tasks.orders.side')}
          onChange={(_, next: SideFilter | null) => {
            if (!next) return;
            setSide(next);
            setPage(0);
          }}
        >
          {SIDES.map((s) => (
            <ToggleButton key={s} value={s} sx={{ px: 2 }}>
              {s === 'all' ? translate('tasks.orders.all') : translate(`tasks.orders.sides.${s}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      {orders.error && (
        <Alert severity="error" sx={{ mx: 2, mb: 2 }}>
          {orders.error.message}
        </Alert>
      )}
      <TableContainer sx={{ width: '100%', overflowX: 'auto' }}>
        <Table size="small" aria-label={translate(taskId ? 'page.orderHistory' : 'page.allOrderHistory')} sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}>
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
              <OrderRow key={order.id} order={order} showTaskLink={!taskId} />
            ))}
            {orders.data && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={10} sx={{ color: 'text.secondary', py: 4 }}>
                  {translate('tasks.orders.empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={orders.data?.total ?? 0}
        page={page}
        rowsPerPage={pageSize}
        // On phones the size choice goes: the range and the arrows keep one line.
        rowsPerPageOptions={isPhone ? [] : ROWS_PER_PAGE}
        onPageChange={(_, next) => setPage(next)}
        onRowsPerPageChange={(event) => {
          setPageSize(Number(event.target.value));
          setPage(0);
        }}
        sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', rowGap: 0.5, pl: { xs: 1.5, md: 2 } } }}
      />
    </Paper>
  );
};

/** Which task the orders belong to, above its table. */
const TaskCaption = ({ id }: { id: string }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const task = useQuery({ queryKey: ['trade', 'detail', id], queryFn: ({ signal }) => dataProvider.tradeDetail(id, signal) });
  if (!task.data) return null;
  return (
    <Typography color="text.secondary" sx={{ mb: 2 }}>
      <MuiLink component={Link} to={`/trade/detail/${id}`} underline="hover">
        {translate('tasks.orders.ofTask', { symbol: task.data.symbol, exchange: task.data.exchangeName })}
      </MuiLink>
    </Typography>
  );
};

/** Order history of one task: the route's `taskId` query is the page's `id`. */
export const OrderHistoryPage = ({ id }: { id: string | null }) => (
  <Screen titleKey="page.orderHistory">
    <Box data-task-id={id ?? ''} sx={{ minWidth: 0 }}>
      {id && <TaskCaption id={id} />}
      <OrderTable taskId={id} />
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
    <OrderTable taskId={null} />
  </Screen>
);
