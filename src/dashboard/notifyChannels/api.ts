/** The channels page's calls: query keys and hooks. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider/dataProvider';

export const useApi = () => useDataProvider<AppDataProvider>();

export const channelKeys = { state: ['notify-channels'] as const };

/** The channels' state; asked again every 2 s while a Telegram link waits to be opened. */
export const useChannels = (waitingForLink: boolean) => {
  const api = useApi();
  return useQuery({ queryKey: channelKeys.state, queryFn: ({ signal }) => api.notifyChannels(signal), refetchInterval: waitingForLink ? 2000 : false });
};

export const useChannelAction = <A, R>(run: (api: AppDataProvider, argument: A) => Promise<R>) => {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (argument: A) => run(api, argument),
    onSettled: () => queryClient.invalidateQueries({ queryKey: channelKeys.state }),
  });
};
