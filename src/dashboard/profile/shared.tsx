import { Alert, Box, Button, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useAuthProvider, useDataProvider, useTranslate, type AuthProvider } from 'react-admin';
import type { User } from '../../api/types';
import { isApiError } from '../../dataProvider/ApiError';
import type { AppDataProvider } from '../../dataProvider/dataProvider';

export const useApi = () => useDataProvider<AppDataProvider>();

/** The browser's time zone: profit days follow it. */
export const browserTimeZone = (): string => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'Asia/Shanghai';
  } catch {
    return 'Asia/Shanghai';
  }
};

/** A business refusal will not cure itself: only a lost answer is asked again (once). */
export const retryLost = (count: number, error: unknown) => isApiError(error) && (error.kind === 'network' || error.kind === 'timeout') && count < 1;

/** Query keys of the profile area (invalidated together after a change). */
export const profileKeys = {
  me: ['profile', 'me'] as const,
  member: ['profile', 'member'] as const,
  fuel: ['profile', 'fuel'] as const,
  balances: ['profile', 'balances'] as const,
  sessions: ['profile', 'sessions'] as const,
  invite: ['profile', 'invite'] as const,
};

/** A read call of the profile area, with the area's retry rule. */
export const useProfileQuery = <T,>(queryKey: QueryKey, queryFn: (signal: AbortSignal) => Promise<T>, options: { enabled?: boolean; refetchInterval?: number } = {}) =>
  useQuery({ queryKey, queryFn: ({ signal }) => queryFn(signal), retry: retryLost, ...options });

/** The signed-in user as the server knows them now (GET /api/user/me). */
export const useMe = () => {
  const api = useApi();
  return useProfileQuery(profileKeys.me, (signal) => api.me(signal));
};

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
    void queryClient.invalidateQueries({ queryKey: ['profile'] });
  };
};

/** A section of a page: a paper with an optional heading and action. */
export const Section = ({ title, action, children, name }: { title?: ReactNode; action?: ReactNode; children: ReactNode; name?: string }) => (
  <Paper sx={{ p: { xs: 2, md: 2.5 }, minWidth: 0 }} data-section={name}>
    {(title || action) && (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1.5, minWidth: 0 }}>
        {title && (
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, minWidth: 0 }}>
            {title}
          </Typography>
        )}
        {action}
      </Stack>
    )}
    {children}
  </Paper>
);

/** An error of a read call, with a retry button. */
export const LoadError = ({ error, onRetry }: { error: unknown; onRetry?: () => void }) => {
  const translate = useTranslate();
  return (
    <Alert
      severity="error"
      data-state="error"
      action={
        onRetry && (
          <Button color="inherit" size="small" onClick={onRetry}>
            {translate('profile.retry')}
          </Button>
        )
      }
    >
      {error instanceof Error && error.message ? error.message : translate('error.fallback')}
    </Alert>
  );
};

/** Loading (skeletons), error (with retry) or the content once the data is there. */
export const QueryView = <T,>({
  query,
  children,
  skeletons = 2,
  height = 96,
}: {
  query: { data: T | undefined; error: unknown; refetch: () => unknown };
  children: (data: T) => ReactNode;
  skeletons?: number;
  height?: number;
}) => {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.error) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <Stack spacing={1.5} aria-busy="true" data-state="loading">
      {Array.from({ length: skeletons }, (_, i) => (
        <Skeleton key={i} variant="rounded" height={height} />
      ))}
    </Stack>
  );
};

/** Nothing to list: one quiet line (and what to do, if anything). */
export const EmptyLine = ({ text, children }: { text: string; children?: ReactNode }) => (
  <Box sx={{ py: 3, textAlign: 'center' }} data-state="empty">
    <Typography color="text.secondary">{text}</Typography>
    {children}
  </Box>
);

/** A label above its value (figures of a summary). */
export const Stat = ({ label, value, unit, color, name, hint }: { label: string; value: ReactNode; unit?: string; color?: string; name?: string; hint?: ReactNode }) => (
  <Box sx={{ minWidth: 0 }} data-stat={name}>
    <Typography variant="caption" color="text.secondary" component="div" noWrap>
      {label}
    </Typography>
    <Typography component="div" sx={{ fontWeight: 700, fontSize: { xs: 18, md: 20 }, color, overflowWrap: 'anywhere', fontVariantNumeric: 'tabular-nums' }}>
      {value}
      {unit && (
        <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 0.5, fontWeight: 400 }}>
          {unit}
        </Typography>
      )}
    </Typography>
    {hint && (
      <Typography variant="caption" color="text.secondary" component="div">
        {hint}
      </Typography>
    )}
  </Box>
);

/** A grid of figures: two columns on phones, more on wide screens. */
export const statGrid = (columns = 4) =>
  ({
    display: 'grid',
    gap: 2,
    gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: `repeat(${columns}, minmax(0, 1fr))` },
  }) as const;

export const formatDate = (iso: string, locale: string) => new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));

export const formatDateTime = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(iso));

/** A whole amount of cards or points, fuel with its decimals: display only, the value stays a decimal string. */
export const formatAmount = (value: string | null | undefined, locale: string, maxDecimals = 8) => {
  if (value === null || value === undefined || value === '') return '—';
  const number = Number(value);
  if (!Number.isFinite(number)) return value;
  return new Intl.NumberFormat(locale, { maximumFractionDigits: maxDecimals }).format(number);
};
