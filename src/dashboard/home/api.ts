/** The home page's calls: query keys and hooks. */
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { TradeTask } from '../../api/trade';
import type { AppDataProvider } from '../../dataProvider/dataProvider';
import { browserTimeZone } from '../../dataProvider/timeZone';
import { TASK_REFRESH_MS } from '../kit/queries';

const MAX_PAGE_SIZE = 100;

export const homeKeys = {
  allTasks: ['trade', 'list', 'all'] as const,
  lastPrices: (entries: readonly (readonly [string, readonly string[]])[]) => ['trade', 'coin-price', 'home', entries] as const,
  todayProfit: (timeZone: string) => ['trade', 'profit-summary', timeZone] as const,
};

/** Every task of the user (the list answers 100 at most per page). */
export const useAllTasks = () => {
  const api = useDataProvider<AppDataProvider>();
  return useQuery({
    queryKey: homeKeys.allTasks,
    queryFn: async ({ signal }) => {
      const tasks: TradeTask[] = [];
      for (let page = 1; ; page += 1) {
        const answer = await api.tradeList({ page, pageSize: MAX_PAGE_SIZE }, signal);
        tasks.push(...answer.list);
        if (answer.list.length < MAX_PAGE_SIZE || tasks.length >= answer.total) return tasks;
      }
    },
    refetchInterval: TASK_REFRESH_MS,
  });
};

/** Last prices of the pairs in use, asked of each exchange account they trade on. */
export const useLastPrices = (symbolsByExchange: Record<string, string[]> | undefined) => {
  const api = useDataProvider<AppDataProvider>();
  const entries = Object.entries(symbolsByExchange ?? {}).filter(([, symbols]) => symbols.length > 0);
  return useQuery({
    queryKey: homeKeys.lastPrices(entries),
    queryFn: async () => {
      const answers = await Promise.all(entries.map(([exchangeId, coins]) => api.tradeCoinPrice({ exchangeId, coins })));
      return Object.assign({}, ...answers) as Record<string, string>;
    },
    enabled: entries.length > 0,
    refetchInterval: TASK_REFRESH_MS,
  });
};

/** Realized profit today, in the browser's time zone. */
export const useTodayProfit = () => {
  const api = useDataProvider<AppDataProvider>();
  const timeZone = browserTimeZone();
  return useQuery({ queryKey: homeKeys.todayProfit(timeZone), queryFn: ({ signal }) => api.tradeProfitSummary(timeZone, signal), refetchInterval: TASK_REFRESH_MS });
};
