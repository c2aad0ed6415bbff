import { useCallback } from 'react';
import { cycleLabel } from '../api/cycles';
import { isTestnetExchange } from '../api/exchange';
import { formatPrice } from '../api/format';
import type { TradeTask } from '../api/trade';
import type { WidgetClient } from './client';
import { taskUrl } from './client';
import { Frame, StateView, emit, formatAmount, profitClass, useWidgetData, type WidgetProps } from './shared';

export interface TaskListProps extends WidgetProps {
  /** Most tasks shown (1-100, default 10). */
  limit?: number | string | undefined;
}

export const DEFAULT_TASK_LIMIT = 10;
const MAX_LIMIT = 100;

export const taskLimit = (value: TaskListProps['limit']): number => {
  const n = Math.floor(Number(value));
  return Number.isFinite(n) && n >= 1 ? Math.min(n, MAX_LIMIT) : DEFAULT_TASK_LIMIT;
};

/** The running tasks: pair and its last price (to the market's tick), cycle, floating and realized profit. A click emits `qt-task-click` and opens the task in the dashboard. */
export const TaskList = (props: TaskListProps) => {
  const limit = taskLimit(props.limit);
  const load = useCallback((client: WidgetClient, signal: AbortSignal) => client.runningTasks(limit, signal), [limit]);
  const state = useWidgetData(props, load, String(limit));
  const { t, locale, data } = state;

  const open = (task: TradeTask) => {
    const allowed = emit(props, 'onQt-task-click', { id: task.id });
    if (allowed && props.dashboardUrl) window.location.assign(taskUrl(props.dashboardUrl, task.id));
  };

  return (
    <Frame props={props} name="task-list" title={t('widgets.tasksTitle')}>
      <StateView state={state} props={props} />
      {state.status === 'ready' && data && data.list.length === 0 && <p className="state">{t('widgets.tasksEmpty')}</p>}
      {state.status === 'ready' && data && data.list.length > 0 && (
        <ul>
          {data.list.slice(0, limit).map((task) => (
            <li key={task.id}>
              <button type="button" className="row" data-task-id={task.id} onClick={() => open(task)}>
                <span>
                  <span className="pair">{task.symbol}</span>
                  {task.lastPrice !== null && (
                    <span className="muted" data-price>
                      {' '}
                      {formatPrice(task.lastPrice, locale, { tick: task.tickSize })}
                    </span>
                  )}
                  <span className="muted" style={{ display: 'block' }}>
                    {cycleLabel(task, t, 'widgets.cycle')}
                    {' · '}
                    {task.exchangeName}
                    {isTestnetExchange(task.prices.source) && <span data-testnet>{` · ${t('widgets.testnet')}`}</span>}
                  </span>
                </span>
                <span className="right">
                  <span className="muted" style={{ display: 'block' }}>
                    {t('widgets.floatingProfit')} <span className={profitClass(task.floatingProfit)}>{formatAmount(task.floatingProfit, locale, true)}</span>
                  </span>
                  <span className="muted" style={{ display: 'block' }}>
                    {t('widgets.realizedProfit')} <span className={profitClass(task.realizedProfit)}>{formatAmount(task.realizedProfit, locale, true)}</span>
                  </span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Frame>
  );
};
