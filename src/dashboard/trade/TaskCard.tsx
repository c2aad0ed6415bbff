import { Box, Button, Card, CardActionArea, CardActions, CardContent, Divider, Stack, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { TradeTask } from '../../api/trade';
import { templateLabel } from '../kit/templateText';
import { Figure } from '../kit/Figure';
import { RunningSwitch } from './RunningSwitch';
import { PriceSourceChip, TestnetChip } from './PriceSourceChip';
import { TaskStatusChips } from './TaskStatusChips';
import { cycleText, levelsText } from './taskText';
import { baseOf, formatPrice, formatQuantity, formatSigned, profitColor } from '../kit/money';

/** As many columns as fit at 7.5 rem each: two on a phone, so "持仓数量（DOGE）" and a SHIB quantity keep one line. */
const figures = { display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(7.5rem, 1fr))', mt: 1.5 } as const;

/** One task at a glance; the body opens its detail, the footer starts or stops it. */
export const TaskCard = ({ task }: { task: TradeTask }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const hasPosition = Number(task.quantity) > 0;
  // As on the task page: a stopped or finished task with no cycle under way has no ladder levels to count.
  const idle = task.phase !== 'open' && (task.finished || !task.running);
  return (
    <Card variant="outlined" data-task={task.id} sx={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
      <CardActionArea component={Link} to={`/trade/detail/${task.id}`} sx={{ flexGrow: 1 }}>
        <CardContent sx={{ pb: 1.5 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', minWidth: 0 }}>
            <Box sx={{ minWidth: 0, flexGrow: 1 }}>
              <Typography variant="h6" component="h2" noWrap sx={{ fontWeight: 600, lineHeight: 1.3 }}>
                {task.symbol}
              </Typography>
              <Typography variant="body2" color="text.secondary" noWrap>
                {task.exchangeName} · {templateLabel({ name: task.strategyName, system: task.strategySystem }, translate)}
              </Typography>
            </Box>
            <Typography variant="body2" color="text.secondary" sx={{ flexShrink: 0, whiteSpace: 'nowrap' }} data-figure="cycle">
              {cycleText(task, translate)}
            </Typography>
          </Stack>
          <Stack direction="row" sx={{ mt: 1, flexWrap: 'wrap', gap: 0.75 }}>
            <TaskStatusChips task={task} />
            <PriceSourceChip prices={task.prices} />
            <TestnetChip source={task.prices.source} />
          </Stack>
          <Box sx={figures}>
            <Figure
              testId="position"
              label={translate('tasks.figure.positionOf', { base: baseOf(task.symbol) })}
              value={hasPosition ? formatQuantity(task.quantity, locale, task.amountStep) : '—'}
            />
            <Figure testId="average" label={translate('tasks.figure.average')} value={formatPrice(task.averagePrice, locale, task.tickSize)} />
            <Figure testId="last" label={translate('tasks.figure.lastPrice')} value={formatPrice(task.lastPrice, locale, task.tickSize)} />
            <Figure
              testId="floating"
              label={translate('tasks.figure.floating')}
              value={formatSigned(task.floatingProfit, locale)}
              color={profitColor(task.floatingProfit)}
            />
            <Figure
              testId="realized"
              label={translate('tasks.figure.realized')}
              value={formatSigned(task.realizedProfit, locale)}
              color={profitColor(task.realizedProfit)}
            />
            {!idle && <Figure testId="levels" label={translate('tasks.figure.levels')} value={levelsText(task)} />}
          </Box>
        </CardContent>
      </CardActionArea>
      <Divider />
      <CardActions sx={{ px: 2, justifyContent: 'space-between' }}>
        <RunningSwitch task={task} />
        <Button size="small" component={Link} to={`/trade/order-history?taskId=${task.id}`}>
          {translate('tasks.detail.orders')}
        </Button>
      </CardActions>
    </Card>
  );
};
