import { Alert, Button, Skeleton, Stack } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { LoadError } from './LoadError';

/**
 * The states of a list around its rows: skeletons while the first answer
 * loads; on a failed read with rows already shown, the rows stay (a failed
 * refresh must not look like "my bots are gone") under a notice with a retry;
 * a failed first read says why, with a retry.
 */
export const ListState = ({
  hasData,
  isPending,
  error,
  onRetry,
  skeletons = 3,
  height = 120,
  children,
}: {
  hasData: boolean;
  isPending: boolean;
  error: unknown;
  onRetry: () => void;
  skeletons?: number;
  height?: number;
  children: ReactNode;
}) => {
  const translate = useTranslate();
  if (!hasData && error) return <LoadError error={error} onRetry={onRetry} />;
  if (!hasData && isPending) {
    return (
      <Stack spacing={1.5} aria-busy="true" data-state="loading" aria-label={translate('app.loading')}>
        {Array.from({ length: skeletons }, (_, i) => (
          <Skeleton key={i} variant="rounded" height={height} />
        ))}
      </Stack>
    );
  }
  return (
    <>
      {error ? (
        <Alert
          severity="warning"
          data-state="stale"
          sx={{ mb: 2, alignItems: 'center' }}
          action={
            <Button color="inherit" size="small" onClick={onRetry}>
              {translate('app.retry')}
            </Button>
          }
        >
          {translate('app.staleList', { error: error instanceof Error && error.message ? error.message : translate('error.fallback') })}
        </Alert>
      ) : null}
      {children}
    </>
  );
};
