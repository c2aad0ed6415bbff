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

export const exchangeKeys = { catalog: ['exchange-catalog'] as const };

/** The exchanges a user can bind (paper first); it changes with a server release only. */
export const useExchangeCatalog = () => {
  const api = useDataProvider<AppDataProvider>();
  return useQuery({ queryKey: exchangeKeys.catalog, queryFn: async ({ signal }) => (await api.exchangeCatalog(signal)).list, staleTime: 10 * 60_000 });
};
