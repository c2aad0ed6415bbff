/** The returns calls: query keys and hooks. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider/dataProvider';
import { TASK_REFRESH_MS } from '../kit/queries';

export const returnsKeys = {
  task: (taskId: string) => ['trade', 'returns', taskId] as const,
  cycles: (taskId: string, page: number, pageSize: number) => ['trade', 'cycles', taskId, page, pageSize] as const,
  overview: ['trade', 'overview'] as const,
};

/** A task's returns (GET /api/trade/returns), asked again with the task's figures. */
export const useTaskReturns = (taskId: string) => {
  const api = useDataProvider<AppDataProvider>();
  return useQuery({
    queryKey: returnsKeys.task(taskId),
    queryFn: ({ signal }) => api.tradeReturns(taskId, signal),
    enabled: taskId !== '',
    refetchInterval: TASK_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
};

/** A page of a task's closed cycles, newest first. */
export const useTaskCycles = (taskId: string, page: number, pageSize: number) => {
  const api = useDataProvider<AppDataProvider>();
  return useQuery({
    queryKey: returnsKeys.cycles(taskId, page, pageSize),
    queryFn: ({ signal }) => api.tradeCycles({ taskId, page, pageSize }, signal),
    enabled: taskId !== '',
    placeholderData: keepPreviousData,
    refetchInterval: TASK_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
};

/** The overview asks every exchange account for its balances and prices: not more often than this. */
export const OVERVIEW_REFRESH_MS = 30_000;

/** Total assets and total return (GET /api/trade/overview). */
export const useReturnsOverview = () => {
  const api = useDataProvider<AppDataProvider>();
  return useQuery({ queryKey: returnsKeys.overview, queryFn: ({ signal }) => api.tradeOverview(signal), refetchInterval: OVERVIEW_REFRESH_MS, refetchIntervalInBackground: false });
};
