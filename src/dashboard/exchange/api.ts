/**
 * The exchange-account pages' custom call: the catalog of exchanges. The
 * accounts themselves go through react-admin's controllers (resource
 * `exchange`).
 */
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider/dataProvider';

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
