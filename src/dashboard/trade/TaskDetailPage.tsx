import CallMadeIcon from '@mui/icons-material/CallMade';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLongOutlined';
import SellIcon from '@mui/icons-material/SellOutlined';
import {
  Box,
  Button,
  List,
  ListItem,
  ListItemText,
  Paper,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import Big from 'big.js';
import { useState } from 'react';
import { Confirm, useGetList, useGetOne, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { formatMoney } from '../../api/format';
import { Link, useParams } from 'react-router-dom';
import type { TradeOrder, TradeTaskDetail } from '../../api/trade';
import { LoadError } from '../kit/LoadError';
import { SectionTitle, sectionSx as section } from '../kit/Section';
import { Screen } from '../layout/Screen';
import { TaskReturns } from '../kit/embeds';
import { templateLabel } from '../kit/templateText';
import { AttentionPanel } from './AttentionPanel';
import { ladderLines } from './candleChartData';
import { Figure } from '../kit/Figure';
import { RunningSwitch } from './RunningSwitch';
import { PriceSourceChip, TestnetChip } from './PriceSourceChip';
import { replenishPreview } from './replenish';
import { TaskChart } from './TaskChart';
import { TaskLadderSection } from './TaskLadderSection';
import { TaskStatusChips } from './TaskStatusChips';
import { TaskWebhookSection } from './TaskWebhookSection';
import { WaitingLine } from './WaitingLine';
import { cycleText, eventText, levelsText, eventTone, feesOf, formatTime, refusalText, taskState } from './taskText';
import { baseOf, formatPrice, formatQuantity, formatQuote, formatSigned, profitColor, quoteOf } from '../kit/money';
import { DETAIL, ORDERS, TASKS, useClosePosition, useTaskAction } from './api';
import { TASK_REFRESH_MS } from '../kit/queries';

const figures = { display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' } } as const;


/** The header: what the task trades, where, with which template, and what can be done to it. */
const TaskHeader = ({ task }: { task: TradeTaskDetail }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const [confirmClose, setConfirmClose] = useState(false);
  const [confirmReplenish, setConfirmReplenish] = useState(false);
  const replenish = useTaskAction();
  const close = useClosePosition();
  const refused = (error: unknown) => notify(refusalText(error, translate, locale), { type: 'error' });
  const hasPosition = new Big(task.quantity).gt(0);
  // A market buy spends money at once: a secondary action, confirmed with what it buys and what it does to the average.
  const preview = replenishPreview(task);

  return (
    <Paper sx={section}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start', minWidth: 0 }}>
        <Box sx={{ minWidth: 0, flexGrow: 1 }}>
          <Typography variant="h5" component="h2" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
            {task.symbol}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {task.exchangeName} · {templateLabel({ name: task.strategyName, system: task.strategySystem }, translate)} ·{' '}
            {/* The cycle count wraps as a whole ("Cycle 1 of 3"), never before its last number. */}
            <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
              {cycleText(task, translate)}
            </Box>
          </Typography>
          <Stack direction="row" sx={{ mt: 1, flexWrap: 'wrap', gap: 0.75 }}>
            <TaskStatusChips task={task} />
            <PriceSourceChip prices={task.prices} />
            <TestnetChip source={task.prices.source} />
          </Stack>
        </Box>
        <Box sx={{ flexShrink: 0 }}>
          <RunningSwitch task={task} />
        </Box>
      </Stack>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 2 }}>
        <Button variant="outlined" startIcon={<CallMadeIcon />} disabled={preview === null || replenish.isPending} onClick={() => setConfirmReplenish(true)}>
          {translate('tasks.detail.replenishNow')}
        </Button>
        <Button variant="outlined" color="error" startIcon={<SellIcon />} disabled={task.finished || close.isPending} onClick={() => setConfirmClose(true)}>
          {translate('tasks.detail.close')}
        </Button>
        <Button component={Link} to={`/trade/order-history?taskId=${task.id}`} startIcon={<ReceiptLongIcon />}>
          {translate('tasks.detail.orders')}
        </Button>
      </Stack>
      {preview && (
        <Confirm
          isOpen={confirmReplenish}
          loading={replenish.isPending}
          title={translate('tasks.detail.replenishTitle', { level: preview.level })}
          content={translate('tasks.detail.replenishConfirm', {
            level: preview.level,
            amount: formatQuote(preview.amount, locale),
            price: formatPrice(preview.price, locale, task.tickSize),
            average: formatPrice(preview.average, locale, task.tickSize),
            newAverage: formatPrice(preview.newAverage, locale, task.tickSize),
          })}
          confirm={translate('tasks.detail.replenishConfirmButton', { amount: formatQuote(preview.amount, locale) })}
          onClose={() => setConfirmReplenish(false)}
          onConfirm={() =>
            replenish.mutate(
              { id: task.id, action: 'replenish' },
              {
                onSuccess: () => notify(translate('tasks.detail.replenishSent'), { type: 'success' }),
                onError: refused,
                onSettled: () => setConfirmReplenish(false),
              },
            )
          }
        />
      )}
      <Confirm
        isOpen={confirmClose}
        loading={close.isPending}
        title={translate('tasks.detail.closeTitle')}
        content={
          hasPosition
            ? translate('tasks.detail.closeConfirm', { symbol: task.symbol, quantity: `${formatQuantity(task.quantity, locale, task.amountStep)} ${baseOf(task.symbol)}` })
            : translate('tasks.detail.closeConfirmNoPosition', { symbol: task.symbol })
        }
        confirm={translate('tasks.detail.close')}
        confirmColor="warning"
        onClose={() => setConfirmClose(false)}
        onConfirm={() =>
          close.mutate(task.id, {
            onSuccess: (result) => {
              // A remainder below the exchange's step cannot be sold: say so, and that it stays with the task.
              const remainder = result && Number(result.remainder) > 0 ? result.remainder : null;
              notify(
                remainder
                  ? translate('tasks.detail.closedRemainder', { remainder: formatQuantity(remainder, locale, task.amountStep), base: baseOf(task.symbol) })
                  : translate('tasks.detail.closed'),
                { type: 'success' },
              );
            },
            onError: refused,
            onSettled: () => setConfirmClose(false),
          })
        }
      />
    </Paper>
  );
};

/**
 * The cycle under way: its phase and the numbers the robot decides on. A task
 * that is stopped (or finished) with no cycle under way shows that one state
 * and what it still holds, not the figures of a cycle that is not there.
 */
const CycleState = ({ task }: { task: TradeTaskDetail }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const lines = ladderLines(task);
  const next = lines.find((line) => line.kind === 'level' && line.level === task.levelsFilled + 1);
  const takeProfit = lines.find((line) => line.kind === 'takeProfit');
  const hasPosition = new Big(task.quantity).gt(0);
  const inCycle = task.phase === 'open';
  const idle = !inCycle && (task.finished || !task.running);
  const quantity = formatQuantity(task.quantity, locale, task.amountStep);
  const base = baseOf(task.symbol);
  const position = (
    <Figure testId="position" label={translate('tasks.figure.positionOf', { base })} value={hasPosition ? quantity : '—'} />
  );
  const cost = <Figure testId="cost" label={translate('tasks.figure.cost')} value={`${formatQuote(task.cost, locale)} USDT`} />;
  const last = <Figure testId="last" label={translate('tasks.figure.lastPrice')} value={formatPrice(task.lastPrice, locale, task.tickSize)} />;
  const realized = <Figure testId="realized" label={translate('tasks.figure.realized')} value={formatSigned(task.realizedProfit, locale)} color={profitColor(task.realizedProfit)} />;

  const cycleOrders = useCycleOrders(task, inCycle);
  const fees = feesOf(cycleOrders);
  const firstOrder = cycleOrders.find((order) => order.side === 'buy' && order.level === 0);
  const feeValue = [...fees.byAsset].map(([asset, amount]) => (asset === quoteOf(task.symbol) ? `${formatMoney(amount.toFixed(), locale, { decimals: 4 })} ${asset}` : `${formatQuantity(amount.toFixed(), locale)} ${asset}`)).join(' + ');

  if (idle)
    return (
      <Paper sx={section} data-section="cycle" data-idle={taskState(task)}>
        <SectionTitle gutterBottom>{translate('tasks.detail.cycleTitle')}</SectionTitle>
        <Typography sx={{ mb: hasPosition ? 1 : 2 }} data-idle-text>
          {translate(`tasks.detail.idle.${task.finished ? 'finished' : 'stopped'}`, { cycles: task.cyclesDone })}
        </Typography>
        {hasPosition && (
          <Typography color="text.secondary" sx={{ mb: 2 }} data-remainder>
            {translate('tasks.detail.idleRemainder', { quantity, base })}
          </Typography>
        )}
        <Box sx={figures}>
          {position}
          {cost}
          {last}
          {realized}
        </Box>
      </Paper>
    );

  return (
    <Paper sx={section} data-section="cycle">
      <SectionTitle gutterBottom>{translate('tasks.detail.cycleTitle')}</SectionTitle>
      {!hasPosition && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {translate('tasks.detail.noPosition')}
        </Typography>
      )}
      {hasPosition && !inCycle && (
        <Typography color="text.secondary" sx={{ mb: 2 }} data-remainder>
          {translate('tasks.detail.remainder', { quantity, base })}
        </Typography>
      )}
      <Box sx={figures}>
        <Figure testId="phase" label={translate('tasks.figure.phase')} value={translate(`tasks.phase.${taskState(task)}`)} />
        <Figure testId="firstFill" label={translate('tasks.figure.firstFill')} value={formatPrice(task.firstFillPrice, locale, task.tickSize)} />
        <Figure testId="average" label={translate('tasks.figure.average')} value={formatPrice(task.averagePrice, locale, task.tickSize)} />
        {last}
        {position}
        {cost}
        <Figure testId="floating" label={translate('tasks.figure.floating')} value={formatSigned(task.floatingProfit, locale)} color={profitColor(task.floatingProfit)} />
        {realized}
        <Figure testId="levels" label={translate('tasks.figure.levels')} value={levelsText(task)} />
        <Figure
          testId="nextLevel"
          label={translate('tasks.figure.nextLevel')}
          // "All filled" only in a cycle whose every level is bought; between cycles there is no next level yet.
          value={next ? formatPrice(next.price, locale, task.tickSize) : inCycle && task.levelsFilled >= task.levelsTotal ? translate('tasks.allLevelsFilled') : '—'}
        />
        <Figure testId="takeProfitPrice" label={translate('tasks.figure.takeProfitPrice')} value={takeProfit ? formatPrice(takeProfit.price, locale, task.tickSize) : '—'} />
        {inCycle && (
          <Figure
            testId="cycleFees"
            label={translate('tasks.figure.cycleFees')}
            value={cycleOrders.length === 0 ? '—' : fees.total !== null && fees.byAsset.size > 0 && !fees.byAsset.has(quoteOf(task.symbol)) ? `${feeValue} ≈ ${formatMoney(fees.total.toFixed(), locale, { decimals: 4 })} ${quoteOf(task.symbol)}` : feeValue}
          />
        )}
        <Figure
          testId="takeProfitArmed"
          label={translate('tasks.figure.takeProfitArmed')}
          value={translate(task.takeProfitArmed ? 'tasks.armed' : 'tasks.notArmed')}
          color={task.takeProfitArmed ? 'success.main' : undefined}
        />
      </Box>
      {inCycle && hasPosition && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 2 }} data-explained="average">
          {translate('tasks.detail.averageExplained', {
            average: formatPrice(task.averagePrice, locale, task.tickSize),
            cost: formatQuote(task.cost, locale),
            quantity,
            base,
          })}
          {firstOrder && !new Big(firstOrder.cost).eq(task.firstOrderAmount) && (
            <>
              {' '}
              {translate('tasks.detail.firstOrderFilled', {
                planned: formatQuote(task.firstOrderAmount, locale),
                filled: formatQuote(firstOrder.cost, locale),
                price: formatPrice(firstOrder.price, locale, task.tickSize),
                step: task.amountStep ? `${formatQuantity(task.amountStep, locale)} ${base}` : base,
              })}
            </>
          )}
        </Typography>
      )}
    </Paper>
  );
};

/** The filled orders of the cycle under way (the chart's query: one request for both). */
const useCycleOrders = (task: TradeTaskDetail, enabled: boolean): TradeOrder[] => {
  const orders = useGetList<TradeOrder>(
    ORDERS,
    { filter: { taskId: task.id }, pagination: { page: 1, perPage: 100 }, sort: { field: 'createdAt', order: 'DESC' } },
    { refetchInterval: TASK_REFRESH_MS, enabled },
  );
  return (orders.data ?? []).filter((order) => order.status === 'closed' && order.cycle === task.cyclesDone + 1);
};

/** The ladder of the cycle under way, or of the next one while the robot runs between cycles; none for a stopped or finished task. */
const Ladder = ({ task }: { task: TradeTaskDetail }) => {
  const inCycle = task.phase === 'open';
  const orders = useCycleOrders(task, inCycle);
  if (!inCycle && (task.finished || !task.running)) return null;
  return <TaskLadderSection task={task} orders={orders} />;
};

const TONE_COLOR = { success: 'success.main', error: 'error.main', warning: 'warning.main', info: 'info.main', default: 'grey.400' } as const;

const Events = ({ task }: { task: TradeTaskDetail }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <Paper sx={section} data-section="events">
      <SectionTitle gutterBottom>{translate('tasks.detail.events')}</SectionTitle>
      {task.events.length === 0 ? (
        <Typography color="text.secondary">{translate('tasks.detail.noEvents')}</Typography>
      ) : (
        <List dense disablePadding aria-label={translate('tasks.detail.events')}>
          {task.events.map((event) => (
            <ListItem key={event.id} disableGutters data-event={event.kind} sx={{ alignItems: 'flex-start', gap: 1.5 }}>
              <Box aria-hidden sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: TONE_COLOR[eventTone(event)], mt: 1, flexShrink: 0 }} />
              <ListItemText
                sx={{ my: 0.25, minWidth: 0 }}
                primary={eventText(event, translate, locale, task)}
                secondary={formatTime(event.createdAt, locale)}
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );
};

/** `/trade/detail/:id`: one task, its cycle, its price against its ladder and what it has done. */
export const TaskDetailPage = () => {
  const { id = '' } = useParams();
  const detail = useGetOne<TradeTaskDetail>(TASKS, { id, ...DETAIL }, { refetchInterval: TASK_REFRESH_MS, enabled: id !== '' });
  const task = detail.data;

  return (
    <Screen titleKey="page.tradeDetail">
      <Box data-task-id={id} sx={{ minWidth: 0 }}>
        {detail.error && !task && <LoadError error={detail.error} onRetry={() => void detail.refetch()} />}
        {detail.isPending && !detail.error && (
          <Stack spacing={2}>
            <Skeleton variant="rounded" height={140} />
            <Skeleton variant="rounded" height={220} />
          </Stack>
        )}
        {task && (
          <Stack spacing={2}>
            <TaskHeader task={task} />
            <AttentionPanel task={task} />
            <WaitingLine task={task} />
            <CycleState task={task} />
            <Ladder task={task} />
            <TaskReturns taskId={task.id} />
            <TaskChart task={task} />
            <TaskWebhookSection task={task} />
            <Events task={task} />
          </Stack>
        )}
      </Box>
    </Screen>
  );
};
