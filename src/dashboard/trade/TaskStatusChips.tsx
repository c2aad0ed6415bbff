import { Chip, Stack, type ChipProps } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { TradeTask } from '../../api/trade';
import { taskState, type TaskState } from './taskText';

const STATE_COLOR: Record<TaskState, ChipProps['color']> = {
  open: 'primary',
  ready: 'info',
  cooldown: 'warning',
  stopped: 'default',
  finished: 'default',
};

/** What the robot is doing (phase, stopped or finished) and whether it may replenish. */
export const TaskStatusChips = ({ task }: { task: Pick<TradeTask, 'finished' | 'running' | 'phase' | 'status' | 'attention'> }) => {
  const translate = useTranslate();
  const state = taskState(task);
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.75 }}>
      {task.attention && !task.finished && <Chip size="small" color="error" label={translate('tasks.phase.attention')} data-attention={task.attention.reason} />}
      <Chip size="small" color={STATE_COLOR[state]} label={translate(`tasks.phase.${state}`)} data-state={state} />
      {!task.finished && (
        <Chip
          size="small"
          variant="outlined"
          color={task.status === 'replenish_open' ? 'success' : 'default'}
          label={translate(`tasks.replenish.${task.status}`)}
        />
      )}
    </Stack>
  );
};
