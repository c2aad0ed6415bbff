import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider/dataProvider';

/** The exchanges a user can bind (paper first); it changes with a server release only. */
export const useExchangeCatalog = () => {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useQuery({
    queryKey: ['exchange-catalog'],
    queryFn: async ({ signal }) => (await dataProvider.exchangeCatalog(signal)).list,
    staleTime: 10 * 60_000,
  });
};
