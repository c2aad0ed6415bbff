import { FormControlLabel, Switch } from '@mui/material';
import { useState } from 'react';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import type { TradeTask } from '../../api/trade';
import { useTaskAction } from './api';
import { useNotifyRefusal } from './RefusalWithRemedy';

/**
 * Starts or stops a task's robot. Starting goes at once; stopping asks first
 * (a stopped robot misses its levels and its take profit). The switch moves
 * at once; a refusal shows its reason (and its remedy) and puts the switch
 * back where the server says it is.
 */
export const RunningSwitch = ({ task }: { task: Pick<TradeTask, 'id' | 'running' | 'finished' | 'symbol' | 'exchangeId'> }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [wanted, setWanted] = useState<boolean | null>(null);
  const [confirming, setConfirming] = useState(false);
  const action = useTaskAction();
  const refused = useNotifyRefusal();

  const send = (running: boolean) => {
    setWanted(running);
    action.mutate(
      { id: task.id, action: running ? 'start' : 'stop' },
      {
        onSuccess: () => notify(translate(running ? 'tasks.startedToast' : 'tasks.stoppedToast'), { type: 'success' }),
        onError: (error) => refused(error, task.exchangeId),
        onSettled: () => setWanted(null),
      },
    );
  };

  return (
    <>
      <FormControlLabel
        sx={{ mr: 0 }}
        label={translate('tasks.running')}
        control={
          <Switch
            checked={wanted ?? task.running}
            disabled={task.finished || action.isPending}
            onChange={(_, checked) => (checked ? send(true) : setConfirming(true))}
            slotProps={{ input: { 'aria-label': `${task.symbol} ${translate('tasks.running')}` } }}
          />
        }
      />
      <Confirm
        isOpen={confirming}
        title={translate('tasks.stopConfirm.title', { symbol: task.symbol })}
        content={translate('tasks.stopConfirm.content')}
        confirm={translate('tasks.stopConfirm.confirm')}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          send(false);
        }}
      />
    </>
  );
};
