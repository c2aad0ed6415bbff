/**
 * The profile area's calls: query keys and hooks (the area's pages use these,
 * never the data provider directly). Everything under `['profile', ...]` is
 * asked again after a change of the user.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuthProvider, useDataProvider, type AuthProvider } from 'react-admin';
import type { User } from '../../api/types';
import type { WidgetTokenRequest } from '../../api/widget';
import type { AppDataProvider } from '../../dataProvider/dataProvider';
import { browserTimeZone } from '../../dataProvider/timeZone';
import { inviteKey } from '../kit/queries';

export const useApi = () => useDataProvider<AppDataProvider>();

export const profileKeys = {
  all: ['profile'] as const,
  me: ['profile', 'me'] as const,
  member: ['profile', 'member'] as const,
  fuel: ['profile', 'fuel'] as const,
  fuelRecords: ['profile', 'fuel', 'records'] as const,
  balances: ['profile', 'balances'] as const,
  sessions: ['profile', 'sessions'] as const,
  widgetGrants: ['profile', 'widget-grants'] as const,
  securityStatus: ['profile', 'security-status'] as const,
  invite: inviteKey,
  community: (query: object) => ['profile', 'community', query] as const,
  profitSummary: (timeZone: string) => ['profile', 'profit-summary', timeZone] as const,
  profitDays: (query: object) => ['profile', 'profit-days', query] as const,
  profitDay: (date: string, timeZone: string) => ['profile', 'profit-day', date, timeZone] as const,
  profitRank: (period: string, timeZone: string) => ['profile', 'profit-rank', period, timeZone] as const,
};

/** The signed-in user as the server knows them now (GET /api/user/me). */
export const useMe = () => {
  const api = useApi();
  return useQuery({ queryKey: profileKeys.me, queryFn: ({ signal }) => api.me(signal) });
};

export const useMemberStatus = () => {
  const api = useApi();
  return useQuery({ queryKey: profileKeys.member, queryFn: ({ signal }) => api.memberStatus(signal) });
};

export const useBalances = () => {
  const api = useApi();
  return useQuery({ queryKey: profileKeys.balances, queryFn: ({ signal }) => api.walletBalances(signal) });
};

export const useFuel = () => {
  const api = useApi();
  return useQuery({ queryKey: profileKeys.fuel, queryFn: ({ signal }) => api.memberFuel(signal) });
};

/** The latest fuel records (charges, top-ups), newest first. */
export const useFuelRecords = () => {
  const api = useApi();
  return useQuery({ queryKey: profileKeys.fuelRecords, queryFn: ({ signal }) => api.walletRecords({ asset: 'FUEL', page: 1, pageSize: 10 }, signal) });
};

export const useInviteInfo = () => {
  const api = useApi();
  return useQuery({ queryKey: profileKeys.invite, queryFn: ({ signal }) => api.inviteInfo(signal) });
};

export const useCommunity = (query: { scope: string; page: number; pageSize: number }) => {
  const api = useApi();
  return useQuery({ queryKey: profileKeys.community(query), queryFn: ({ signal }) => api.inviteCommunity(query, signal), placeholderData: keepPreviousData });
};

/** Profit figures, with days in the browser's time zone. */
export const useProfitSummary = () => {
  const api = useApi();
  const timeZone = browserTimeZone();
  return useQuery({ queryKey: profileKeys.profitSummary(timeZone), queryFn: ({ signal }) => api.profitSummary({ timeZone }, signal) });
};

export const useProfitDays = (page: number, pageSize: number) => {
  const api = useApi();
  const query = { page, pageSize, timeZone: browserTimeZone() };
  return useQuery({ queryKey: profileKeys.profitDays(query), queryFn: ({ signal }) => api.profitDaily(query, signal), placeholderData: keepPreviousData });
};

export const useProfitDay = (date: string) => {
  const api = useApi();
  const timeZone = browserTimeZone();
  return useQuery({ queryKey: profileKeys.profitDay(date, timeZone), queryFn: ({ signal }) => api.profitDailyDetail(date, timeZone, signal) });
};

export const useProfitRank = (period: 'day' | 'all') => {
  const api = useApi();
  const timeZone = browserTimeZone();
  return useQuery({ queryKey: profileKeys.profitRank(period, timeZone), queryFn: ({ signal }) => api.profitRank(period, timeZone, signal) });
};

export const useSessions = () => {
  const api = useApi();
  return useQuery({ queryKey: profileKeys.sessions, queryFn: ({ signal }) => api.userSessions(signal) });
};

/** A change of the user's that asks again for the list it touched. */
const useChange = <A, R>(call: (api: AppDataProvider) => (arg: A) => Promise<R>, touches: readonly string[]) => {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: call(api), onSuccess: () => queryClient.invalidateQueries({ queryKey: touches }) });
};

/** Ends one of the user's sessions. */
export const useRevokeSession = () => useChange((api) => api.revokeSession, profileKeys.sessions);

export const useWidgetGrants = () => {
  const api = useApi();
  return useQuery({ queryKey: profileKeys.widgetGrants, queryFn: ({ signal }) => api.widgetGrants(signal) });
};

/** Allows a partner site: answers the grant's first token and its partner key, once. */
export const useIssueWidgetGrant = () =>
  useChange((api) => ({ request, secondFactor }: { request: WidgetTokenRequest; secondFactor?: string | undefined }) => api.widgetTokenIssue(request, secondFactor), profileKeys.widgetGrants);

/** The user's second factors, recovery codes left and any hold on withdrawals. */
export const useSecurityStatus = () => {
  const api = useApi();
  return useQuery({ queryKey: profileKeys.securityStatus, queryFn: ({ signal }) => api.securityStatus(signal) });
};

export const useRevokeWidgetGrant = () => useChange((api) => api.widgetTokenRevoke, profileKeys.widgetGrants);

/**
 * After a change of the user (profile edit, activation): the profile pages ask
 * again, and react-admin's cached identity (app bar, user menu) shows the new
 * one at once.
 */
export const useRefreshIdentity = () => {
  const queryClient = useQueryClient();
  const authProvider = useAuthProvider() as (AuthProvider & { rememberIdentity?: (user: User) => void }) | undefined;
  return (user?: User) => {
    if (user) {
      // The authProvider keeps the identity per access token: it answers the new user from now on too.
      authProvider?.rememberIdentity?.(user);
      queryClient.setQueryData(profileKeys.me, user);
      queryClient.setQueryData(['auth', 'getIdentity'], { ...user, fullName: user.nickname, avatar: user.avatar ?? undefined });
    }
    void queryClient.invalidateQueries({ queryKey: profileKeys.all });
  };
};
