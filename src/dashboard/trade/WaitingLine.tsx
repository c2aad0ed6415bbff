import HourglassIcon from '@mui/icons-material/HourglassEmptyOutlined';
import { Alert, Box } from '@mui/material';
import Big from 'big.js';
import { useLocaleState, useTranslate, type TranslateFunction as Translate } from 'react-admin';
import type { TaskWaiting, TradeTaskDetail } from '../../api/trade';
import { conditionAt, conditionText, joinConditions } from '../kit/conditionText';
import { formatPrice } from '../kit/money';
import { formatTime } from './taskText';

/**
 * What a waiting task waits for, in the page's words, built from the
 * strategy's conditions and the engine's readings: each condition that does
 * not hold, with its value now ("等待条件：RSI(14,1h) < 30，当前 41.2").
 * An RSI reads to two decimals; a moving average, a band or the price to the
 * market's tick.
 */
export const waitingText = (waiting: TaskWaiting, task: Pick<TradeTaskDetail, 'strategy' | 'tickSize'>, translate: Translate, locale: string): string => {
  const group = task.strategy.conditions?.[waiting.gate];
  // The template changed since the engine read it: its own words are the best there is.
  if (!group) return translate(`tasks.signals.waiting.${waiting.gate}`, { conditions: waiting.text });
  const parts = waiting.readings
    .filter((reading) => !reading.holds)
    .map((reading) => {
      const condition = conditionAt(group, reading.path);
      if (!condition) return null;
      const text = conditionText(condition, translate, locale, task.tickSize);
      if (reading.current === null) return text;
      const value = !('mode' in condition) && condition.kind === 'rsi' ? new Big(reading.current).round(2).toString() : formatPrice(reading.current, locale, task.tickSize);
      return translate('tasks.signals.waiting.now', { condition: text, value });
    })
    .filter((part): part is string => part !== null);
  return translate(`tasks.signals.waiting.${waiting.gate}`, { conditions: parts.length > 0 ? joinConditions(group.mode, parts, translate) : waiting.text });
};

/** The waiting line of the task page: nothing while the task does not wait. */
export const WaitingLine = ({ task }: { task: TradeTaskDetail }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const waiting = task.waiting;
  if (!waiting || task.finished || !task.running) return null;
  return (
    <Alert severity="info" icon={<HourglassIcon />} data-waiting={waiting.gate} sx={{ '& .MuiAlert-message': { minWidth: 0, flexGrow: 1 } }}>
      <Box sx={{ overflowWrap: 'anywhere', fontWeight: 500 }} data-waiting-text>
        {waitingText(waiting, task, translate, locale)}
      </Box>
      <Box sx={{ color: 'text.secondary', mt: 0.5 }}>{translate('tasks.signals.waiting.since', { time: formatTime(waiting.since, locale) })}</Box>
    </Alert>
  );
};
