/**
 * The strategy pages' custom call: the system templates. The user's own
 * templates go through react-admin's controllers (resource `strategy`).
 */
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider/dataProvider';

/** The user's strategy templates (react-admin resource: /api/strategy/list|detail|add|edit|delete). */
export const STRATEGIES = 'strategy';

export const strategyKeys = { system: ['strategy', 'config-templates'] as const };

/** The system templates (GET /api/trade/config-templates): they change with a release only. */
export const useSystemTemplates = () => {
  const api = useDataProvider<AppDataProvider>();
  return useQuery({ queryKey: strategyKeys.system, queryFn: ({ signal }) => api.tradeConfigTemplates(signal), staleTime: 10 * 60_000 });
};
