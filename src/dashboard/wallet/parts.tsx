import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  InputAdornment,
  Paper,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { ErrorCode } from '../../api/errors';
import type { Asset, AssetBalance, Deposit, Withdrawal } from '../../api/wallet';
import type { WalletActionError } from './useWalletAction';
import { LoadError } from '../kit/LoadError';
import { sectionSx } from '../kit/Section';
import { useMovements } from './api';
import { STATUS_COLOR, formatAmount, formatDateTime } from './walletText';
import { TablePager } from '../kit/TablePager';

export const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', overflowWrap: 'anywhere' } as const;

/** The balance of one asset, "0" held and available while it is not known or the asset has none. */
export const balanceOf = (balances: AssetBalance[] | undefined, asset: Asset): AssetBalance | undefined =>
  balances ? (balances.find((b) => b.asset === asset) ?? { asset, available: '0', held: '0' }) : undefined;

/** The refusal of a submit, under its form. */
export const ActionError = ({ error }: { error: WalletActionError | null }) =>
  error ? (
    <Alert severity="error" role="alert" data-error-code={error.code ?? ''}>
      {error.message}
    </Alert>
  ) : null;

/** A submit button that shows and blocks while its call is in flight. */
export const SubmitButton = ({ pending, label, disabled = false, onClick }: { pending: boolean; label: string; disabled?: boolean; onClick?: () => void }) => (
  <Button
    type={onClick ? 'button' : 'submit'}
    variant="contained"
    size="large"
    disabled={pending || disabled}
    onClick={onClick}
    startIcon={pending ? <CircularProgress size={18} color="inherit" /> : undefined}
    sx={{ alignSelf: { xs: 'stretch', sm: 'flex-start' }, minWidth: { sm: 200 } }}
  >
    {label}
  </Button>
);

/**
 * The dialog that confirms money leaving the wallet with the login password:
 * what is about to happen (`children`), the password, the refusal, cancel and
 * confirm. `texts` is the area's key prefix ('wallet.withdraw', 'wallet.send').
 */
export const PasswordDialog = ({
  id,
  texts,
  open,
  onClose,
  onSubmit,
  password,
  onPassword,
  passwordError,
  action,
  children,
}: {
  id: string;
  texts: string;
  open: boolean;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  password: string;
  onPassword: (password: string) => void;
  passwordError: string | undefined;
  action: { pending: boolean; error: WalletActionError | null };
  children: ReactNode;
}) => {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={() => !action.pending && onClose()} fullWidth maxWidth="xs" aria-labelledby={id}>
      <Box component="form" noValidate onSubmit={onSubmit}>
        <DialogTitle id={id}>{translate(`${texts}.confirmTitle`)}</DialogTitle>
        <DialogContent>
          {children}
          <TextField
            label={translate(`${texts}.password`)}
            name="password"
            type="password"
            value={password}
            autoFocus
            fullWidth
            required
            error={Boolean(passwordError) || action.error?.code === ErrorCode.PASSWORD_ERROR}
            helperText={passwordError ?? translate(`${texts}.passwordHelp`)}
            onChange={(event) => onPassword(event.target.value)}
            slotProps={{ htmlInput: { autoComplete: 'current-password' } }}
          />
          <Box sx={{ mt: 2 }}>
            <ActionError error={action.error} />
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={action.pending}>
            {translate('ra.action.cancel')}
          </Button>
          <SubmitButton pending={action.pending} label={translate(`${texts}.confirm`)} />
        </DialogActions>
      </Box>
    </Dialog>
  );
};

/** A decimal amount input: the asset as its unit, an optional "all" shortcut, and the error or a hint below. */
export const AmountField = ({
  label,
  asset,
  value,
  onChange,
  error,
  hint,
  max,
  name = 'amount',
}: {
  label: string;
  asset: Asset;
  value: string;
  onChange: (value: string) => void;
  error?: string | null | undefined;
  hint?: ReactNode;
  /** Offered as an "all" shortcut when given. */
  max?: string | undefined;
  name?: string;
}) => {
  const translate = useTranslate();
  return (
    <TextField
      label={label}
      name={name}
      value={value}
      required
      error={Boolean(error)}
      helperText={error || hint}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{
        htmlInput: { inputMode: asset === 'CARD' ? 'numeric' : 'decimal', autoComplete: 'off' },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Typography variant="body2" color="text.secondary" component="span">
                {translate(`wallet.units.${asset}`)}
              </Typography>
              {max !== undefined && (
                <Button size="small" onClick={() => onChange(max)} sx={{ ml: 0.5, minWidth: 0 }}>
                  {translate('wallet.all')}
                </Button>
              )}
            </InputAdornment>
          ),
        },
      }}
    />
  );
};

/** "Available 12.50 USDT" under an amount field. */
export const AvailableHint = ({ balance }: { balance: AssetBalance | undefined }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (!balance) return <Skeleton width={160} />;
  return (
    <span data-available={balance.asset}>
      {translate('wallet.availableHint', { amount: formatAmount(balance.available, balance.asset, locale), unit: translate(`wallet.units.${balance.asset}`) })}
    </span>
  );
};

export const StatusChip = ({ status }: { status: Deposit['status'] | Withdrawal['status'] }) => {
  const translate = useTranslate();
  return <Chip size="small" variant="outlined" color={STATUS_COLOR[status]} label={translate(`wallet.status.${status}`)} data-status={status} />;
};

/** One deposit or withdrawal in a list: amount and status, then time, address or hash, fee and reason. */
export const MovementRow = ({ kind, item }: { kind: 'deposit' | 'withdrawal'; item: Deposit | Withdrawal }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const fee = 'fee' in item ? item.fee : null;
  const txHash = 'txHash' in item ? item.txHash : null;
  return (
    <Box component="li" data-movement={item.id} data-kind={kind} sx={{ py: 1.5, listStyle: 'none', minWidth: 0, '& + &': { borderTop: 1, borderColor: 'divider' } }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
          {translate(`wallet.movement.${kind}`)} {formatAmount(item.amount, item.asset, locale)} {item.asset}
        </Typography>
        <StatusChip status={item.status} />
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {formatDateTime(item.createdAt, locale)}
        {'internal' in item && item.internal
          ? ` · ${translate('wallet.withdraw.internal')}`
          : fee !== null && ` · ${translate('wallet.withdraw.feeShort', { fee: formatAmount(fee, item.asset, locale) })}`}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="div" sx={mono}>
        {txHash ? translate('wallet.recharge.txHashShort', { hash: txHash }) : item.address}
      </Typography>
      {item.status === 'rejected' && item.reason && (
        <Typography variant="body2" color="error.main" sx={{ mt: 0.5 }}>
          {translate('wallet.reason', { reason: item.reason })}
        </Typography>
      )}
    </Box>
  );
};

/** The user's deposits or withdrawals, newest first, paged. */
export const MovementList = ({ kind, title }: { kind: 'deposit' | 'withdrawal'; title: string }) => {
  const translate = useTranslate();
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(10);
  const list = useMovements(kind, page + 1, pageSize);
  return (
    <Paper sx={{ ...sectionSx, pb: 0 }} data-section={`${kind}-list`}>
      <Typography variant="h6" component="h2" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {list.error && <LoadError error={list.error} onRetry={() => void list.refetch()} />}
      {list.isPending && (
        <Box role="progressbar" aria-label={translate('wallet.loading')} sx={{ py: 1 }}>
          <Skeleton height={48} />
          <Skeleton height={48} />
        </Box>
      )}
      {list.data && list.data.list.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 3 }}>
          {translate(kind === 'deposit' ? 'wallet.recharge.empty' : 'wallet.withdraw.empty')}
        </Typography>
      )}
      {list.data && list.data.list.length > 0 && (
        <Box component="ul" sx={{ m: 0, p: 0 }}>
          {list.data.list.map((item) => (
            <MovementRow key={item.id} kind={kind} item={item} />
          ))}
        </Box>
      )}
      {list.data && list.data.total > pageSize && (
        <TablePager
          count={list.data.total}
          page={page}
          pageSize={pageSize}
          onPage={setPage}
          onPageSize={(next) => {
            setPageSize(next);
            setPage(0);
          }}
        />
      )}
      <Box sx={{ pb: 1 }} />
    </Paper>
  );
};
