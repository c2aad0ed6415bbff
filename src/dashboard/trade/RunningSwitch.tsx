import { FormControlLabel, Switch } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { TradeTask } from '../../api/trade';
import type { AppDataProvider } from '../../dataProvider/dataProvider';
import { refusalText } from './taskText';

/**
 * Starts or stops a task's robot. The switch moves at once; a refusal shows
 * its reason and puts the switch back where the server says it is.
 */
export const RunningSwitch = ({ task }: { task: Pick<TradeTask, 'id' | 'running' | 'finished' | 'symbol'> }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [wanted, setWanted] = useState<boolean | null>(null);
  const action = useMutation({
    mutationFn: (running: boolean) => dataProvider.tradeAction({ id: task.id, action: running ? 'start' : 'stop' }),
    onSuccess: async (_, running) => {
      notify(translate(running ? 'tasks.startedToast' : 'tasks.stoppedToast'), { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: ['trade'] });
    },
    onError: (error) => notify(refusalText(error, translate), { type: 'error' }),
    onSettled: () => setWanted(null),
  });

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
            action.mutate(checked);
          }}
          slotProps={{ input: { 'aria-label': `${task.symbol} ${translate('tasks.running')}` } }}
        />
      }
    />
  );
};
