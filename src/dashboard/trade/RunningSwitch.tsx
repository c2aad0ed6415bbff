import { FormControlLabel, Switch } from '@mui/material';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import type { TradeTask } from '../../api/trade';
import { useTaskAction } from './api';
import { useNotifyRefusal } from './RefusalWithRemedy';

/**
 * Starts or stops a task's robot. The switch moves at once; a refusal shows
 * its reason (and its remedy) and puts the switch back where the server says it is.
 */
export const RunningSwitch = ({ task }: { task: Pick<TradeTask, 'id' | 'running' | 'finished' | 'symbol' | 'exchangeId'> }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [wanted, setWanted] = useState<boolean | null>(null);
  const action = useTaskAction();
  const refused = useNotifyRefusal();

  return (
    <FormControlLabel
      sx={{ mr: 0 }}
      label={translate('tasks.running')}
      control={
        <Switch
          checked={wanted ?? task.running}
          disabled={task.finished || action.isPending}
          onChange={(_, checked) => {
            setWanted(checked);
            action.mutate(
              { id: task.id, action: checked ? 'start' : 'stop' },
              {
                onSuccess: () => notify(translate(checked ? 'tasks.startedToast' : 'tasks.stoppedToast'), { type: 'success' }),
                onError: (error) => refused(error, task.exchangeId),
                onSettled: () => setWanted(null),
              },
            );
          }}
          slotProps={{ input: { 'aria-label': `${task.symbol} ${translate('tasks.running')}` } }}
        />
      }
    />
  );
};
