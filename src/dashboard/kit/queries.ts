/**
 * What several areas ask the server for, one query key and hook each, so they
 * share one cache entry without importing each other: the exchange catalog
 * and an account's balance (the exchange pages, the trade wizard, the
 * backtest), the system templates (the strategy pages, the wizard) and the
 * user's invite (the invite page, the returns poster). The exchange accounts
 * themselves go through react-admin's controllers (resource `exchange`).
 */
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider/dataProvider';

/** Task figures refresh this often while a page shows them. */
export const TASK_REFRESH_MS = 5_000;

/** The user's exchange accounts (react-admin resource: /api/exchange/list|detail|add|edit|delete). */
export const EXCHANGES = 'exchange';

export const exchangeKeys = { catalog: ['exchange-catalog'] as const, balance: (id: string) => ['exchange-balance', id] as const };

/** The exchanges a user can bind (paper first); it changes with a server release only. */
export const useExchangeCatalog = () => {
  const api = useDataProvider<AppDataProvider>();
  return useQuery({ queryKey: exchangeKeys.catalog, queryFn: async ({ signal }) => (await api.exchangeCatalog(signal)).list, staleTime: 10 * 60_000 });
};

/** An account's free USDT now (`free` null: its exchange cannot be asked now); asked again on every visit. */
export const useAccountBalance = (id: string | null | undefined) => {
  const api = useDataProvider<AppDataProvider>();
  return useQuery({
    queryKey: exchangeKeys.balance(id ?? ''),
    queryFn: ({ signal }) => api.exchangeBalance(id!, signal),
    enabled: Boolean(id),
    staleTime: 5_000,
    retry: false,
  });
};

export const strategyKeys = { system: ['strategy', 'config-templates'] as const };

/** The system templates (GET /api/trade/config-templates): they change with a release only. */
export const useSystemTemplates = () => {
  const api = useDataProvider<AppDataProvider>();
  return useQuery({ queryKey: strategyKeys.system, queryFn: ({ signal }) => api.tradeConfigTemplates(signal), staleTime: 10 * 60_000 });
};

/** The user's invite code and register path (GET /api/member/invite-info), under `['profile', ...]`: asked again after a change of the user. */
export const inviteKey = ['profile', 'invite'] as const;

/** The full invite link: this dashboard's address and the register path the server gives. */
export const inviteLink = (registerPath: string, origin = window.location.origin) => `${origin.replace(/\/+$/, '')}${registerPath.startsWith('/') ? '' : '/'}${registerPath}`;
