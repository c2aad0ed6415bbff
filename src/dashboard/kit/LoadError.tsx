import { Alert, Box, Button, Skeleton, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/** A read call that failed: its localized text, and a retry when one is given. */
export const LoadError = ({ error, onRetry }: { error: unknown; onRetry?: (() => void) | undefined }) => {
  const translate = useTranslate();
  return (
    <Alert
      severity="error"
      data-state="error"
      sx={{ mb: 2 }}
      action={
        onRetry && (
          <Button color="inherit" size="small" onClick={onRetry}>
            {translate('app.retry')}
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
