import { Alert, AlertTitle, Box, Button, Stack } from '@mui/material';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { TradeTaskDetail } from '../../api/trade';
import { useTaskAction } from './api';
import { useNotifyRefusal } from './RefusalWithRemedy';
import { figuresOf, formatTime } from './taskText';

/**
 * Why the robot stopped trading a task as usual, in the user's words, with
 * what they can do about it: resume (the engine tries again at once), check
 * the exchange account (funds, key), edit the strategy, or close the position
 * (the header's button).
 */
export const AttentionPanel = ({ task }: { task: TradeTaskDetail }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const action = useTaskAction();
  const refused = useNotifyRefusal();
  const resume = {
    isPending: action.isPending,
    mutate: () =>
      action.mutate(
        { id: task.id, action: 'start' },
        {
          onSuccess: () => notify(translate('tasks.attention.resumed'), { type: 'success' }),
          onError: (error) => refused(error, task.exchangeId),
        },
      ),
  };
  const attention = task.attention;
  if (!attention || task.finished) return null;
  const { reason, detail } = attention;
  const fundsOrKey = reason === 'insufficient_funds' || reason === 'permission_denied' || reason === 'order_refused' || reason === 'exchange_canceled';
  return (
    <Alert severity={attention.retrying ? 'warning' : 'error'} data-attention={reason} sx={{ '& .MuiAlert-message': { minWidth: 0, flexGrow: 1 } }}>
      <AlertTitle>{translate('tasks.attention.title')}</AlertTitle>
      <Box sx={{ overflowWrap: 'anywhere' }}>
        {translate(`tasks.attention.reason.${reason}`, {
          ...figuresOf(detail, locale),
          // The exchange's refusal code, in the page's words.
          ...(typeof detail.refusal === 'string' ? { refusal: translate(`tasks.errorReason.${detail.refusal}`, { _: detail.refusal }) } : {}),
          level: attention.level ?? '',
          side: attention.side ? translate(`tasks.orders.sides.${attention.side}`) : '',
          _: reason,
        })}
      </Box>
      <Box sx={{ color: 'text.secondary', mt: 0.5 }}>
        {translate('tasks.attention.since', { time: formatTime(attention.since, locale) })}
        {attention.retrying ? ` · ${translate('tasks.attention.retrying')}` : ''}
      </Box>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 1.5 }}>
        <Button size="small" variant="contained" disabled={resume.isPending} onClick={() => resume.mutate()}>
          {translate('tasks.attention.resume')}
        </Button>
        {fundsOrKey && (
          <Button size="small" variant="outlined" component={Link} to={`/exchange/edit/${task.exchangeId}`}>
            {translate('tasks.attention.account')}
          </Button>
        )}
        {!task.strategySystem && (
          <Button size="small" variant="outlined" component={Link} to={`/strategy/edit/${task.strategyId}`}>
            {translate('tasks.attention.strategy')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
};
