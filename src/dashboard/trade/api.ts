/**
 * The trading pages' custom calls: query keys and hooks. Lists and single
 * tasks go through react-admin's controllers (resources `trade` and
 * `orders`); what is left here are the calls outside its CRUD verbs.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AlertAction } from '../../api/conditions';
import type { CandleTimeframe } from '../../api/trade';
import type { TaskWebhook } from '../../api/webhook';
import type { TradeActionPayload } from '../../api/types';
import type { AppDataProvider } from '../../dataProvider/dataProvider';
import { TASK_REFRESH_MS } from '../kit/queries';

/** The order history of a task (react-admin resource, GET /api/trade/order-history). */
export const ORDERS = 'orders';
/** Trading tasks (react-admin resource: GET /api/trade/list, /api/trade/detail/:id, POST /api/trade/update). */
export const TASKS = 'trade';

/**
 * The query meta of a task's detail (GET /api/trade/detail/:id). react-admin
 * fills the getOne cache of every record a list answers; a list's task has no
 * events or ladder, so the detail keeps a cache entry of its own.
 */
export const DETAIL = { meta: { view: 'detail' } } as const;

export const useApi = () => useDataProvider<AppDataProvider>();

export const tradeKeys = {
  pairs: (exchangeId: string | undefined, q: string) => ['trade', 'pairs', exchangeId, q] as const,
  hotPairs: (exchangeId: string | undefined, sort: string) => ['trade', 'hot-pairs', exchangeId, sort] as const,
  ohlcv: (taskId: string, timeframe: CandleTimeframe, limit: number) => ['trade', 'ohlcv', taskId, timeframe, limit] as const,
  webhook: (taskId: string) => ['trade', 'webhook', taskId] as const,
};

/** The pairs an exchange account trades, by search text. */
export const usePairs = (exchangeId: string | undefined, q: string) => {
  const api = useApi();
  return useQuery({ queryKey: tradeKeys.pairs(exchangeId, q), queryFn: ({ signal }) => api.tradePairs({ exchangeId, q, pageSize: 100 }, signal), enabled: Boolean(exchangeId) });
};

/** The most traded or most moving pairs of an exchange over 24 h. */
export const useHotPairs = (exchangeId: string | undefined, sort: 'volume' | 'change') => {
  const api = useApi();
  return useQuery({ queryKey: tradeKeys.hotPairs(exchangeId, sort), queryFn: ({ signal }) => api.tradeHotPairs({ exchangeId, sort, limit: 8 }, signal), enabled: Boolean(exchangeId) });
};

/**
 * A task's candles (GET /api/trade/ohlcv). `refetchMs` asks again at that
 * interval while the page is visible; `keepPrevious` keeps the last answer on
 * screen while another timeframe loads.
 */
export const useOhlcv = (
  taskId: string,
  timeframe: CandleTimeframe,
  limit: number,
  options: { refetchMs?: number; enabled?: boolean; keepPrevious?: boolean } = {},
) => {
  const api = useApi();
  return useQuery({
    queryKey: tradeKeys.ohlcv(taskId, timeframe, limit),
    queryFn: ({ signal }) => api.tradeOhlcv({ taskId, timeframe, limit }, signal),
    enabled: (options.enabled ?? true) && taskId !== '',
    refetchInterval: options.refetchMs ?? false,
    refetchIntervalInBackground: false,
    placeholderData: options.keepPrevious ? keepPreviousData : undefined,
  });
};

/** After an action every task figure and order list is asked again. */
const useRefreshTrading = () => {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: [TASKS] }), queryClient.invalidateQueries({ queryKey: [ORDERS] })]);
};

/** Start, stop or replenish now. */
export const useTaskAction = () => {
  const api = useApi();
  const refresh = useRefreshTrading();
  return useMutation({ mutationFn: (payload: TradeActionPayload) => api.tradeAction(payload), onSuccess: refresh });
};

/** Sell the whole position at market and stop the task. */
export const useClosePosition = () => {
  const api = useApi();
  const refresh = useRefreshTrading();
  return useMutation({ mutationFn: (id: string) => api.tradeCloseOrder(id), onSuccess: refresh });
};

/** A task's TradingView webhook and its recent alerts, asked again with the task. */
export const useTaskWebhook = (taskId: string) => {
  const api = useApi();
  return useQuery({ queryKey: tradeKeys.webhook(taskId), queryFn: ({ signal }) => api.taskWebhook(taskId, signal), refetchInterval: TASK_REFRESH_MS, refetchIntervalInBackground: false });
};

/** Turn on, change the action or rotate the secret (`save`), or turn off the webhook; the answer replaces what the page shows. */
export const useTaskWebhookChange = (taskId: string) => {
  const api = useApi();
  const queryClient = useQueryClient();
  const set = (webhook: TaskWebhook | null) => queryClient.setQueryData(tradeKeys.webhook(taskId), webhook);
  return {
    save: useMutation({ mutationFn: (action: AlertAction) => api.taskWebhookSave({ id: taskId, action }), onSuccess: set }),
    off: useMutation({ mutationFn: () => api.taskWebhookOff(taskId), onSuccess: () => set(null) }),
  };
};
