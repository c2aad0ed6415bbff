/** The notification calls: query keys and hooks. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useGetIdentity } from 'react-admin';
import type { MarkReadRequest, NotificationKind, NotificationKindTiming, NotificationPreference } from '../../api/notify';
import type { AppDataProvider } from '../../dataProvider/dataProvider';

/** The bell and the inbox ask again this often while the page is visible and has no live stream (the inbox also on every change it makes). */
export const UNREAD_REFRESH_MS = 15_000;
/** ... and this often while the stream is live: a fallback only. */
export const UNREAD_SLOW_REFRESH_MS = 120_000;

export const notifyKeys = {
  all: ['notify'] as const,
  unread: ['notify', 'unread'] as const,
  list: (filter: { unread: boolean; kind: NotificationKind | '' ; page: number }) => ['notify', 'list', filter] as const,
  preferences: ['notify', 'preferences'] as const,
  channels: ['notify', 'channels'] as const,
};

/** The unread count, for a signed-in user only (a guest on the not-found page asks nothing). */
export const useUnreadCount = (pollMs = UNREAD_REFRESH_MS) => {
  const api = useDataProvider<AppDataProvider>();
  const { identity } = useGetIdentity();
  return useQuery({
    queryKey: notifyKeys.unread,
    enabled: identity !== undefined,
    queryFn: ({ signal }) => api.notificationsUnreadCount(signal),
    refetchInterval: pollMs,
    refetchIntervalInBackground: false,
  });
};

export const useNotifications = (filter: { unread: boolean; kind: NotificationKind | ''; page: number }, pageSize = 20, pollMs = UNREAD_REFRESH_MS) => {
  const api = useDataProvider<AppDataProvider>();
  return useQuery({
    queryKey: notifyKeys.list(filter),
    queryFn: ({ signal }) =>
      api.notifications({ page: filter.page, pageSize, ...(filter.unread ? { unread: true } : {}), ...(filter.kind ? { kind: filter.kind } : {}) }, signal),
    placeholderData: keepPreviousData,
    refetchInterval: pollMs,
    refetchIntervalInBackground: false,
  });
};

export const useMarkRead = () => {
  const api = useDataProvider<AppDataProvider>();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: MarkReadRequest) => api.notificationsRead(request),
    onSuccess: (answer) => {
      client.setQueryData(notifyKeys.unread, answer);
      void client.invalidateQueries({ queryKey: notifyKeys.all });
    },
  });
};

/** The external channels' state: the inbox says which one a fault turned off. */
export const useChannelsState = () => {
  const api = useDataProvider<AppDataProvider>();
  return useQuery({ queryKey: notifyKeys.channels, queryFn: ({ signal }) => api.notifyChannels(signal) });
};

export const usePreferences = () => {
  const api = useDataProvider<AppDataProvider>();
  return useQuery({ queryKey: notifyKeys.preferences, queryFn: ({ signal }) => api.notificationPreferences(signal) });
};

export const useSavePreference = () => {
  const api = useDataProvider<AppDataProvider>();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (preference: NotificationPreference) => api.notificationPreferencesSave({ list: [preference] }),
    onSuccess: (answer) => client.setQueryData(notifyKeys.preferences, answer),
  });
};

/** A kind at once or in the hourly digest (the channels outside the app). */
export const useSaveTiming = () => {
  const api = useDataProvider<AppDataProvider>();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (timing: NotificationKindTiming) => api.notificationPreferencesSave({ timing: [timing] }),
    onSuccess: (answer) => client.setQueryData(notifyKeys.preferences, answer),
  });
};
