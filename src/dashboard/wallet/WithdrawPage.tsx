import { Box, DialogContentText, Link as MuiLink, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import type { WithdrawPayload } from '../../api/wallet';
import { Screen } from '../layout/Screen';
import { LoadError } from '../kit/LoadError';
import { sectionSx as section } from '../kit/Section';
import { Link } from 'react-router-dom';
import { useAddressBook, useApi, useBalances, useWalletConfig } from './api';
import { ActionError, AmountField, AvailableHint, MovementList, PasswordDialog, SubmitButton, balanceOf } from './parts';
import { useWalletAction } from './useWalletAction';
import { ASSET_PLACES, checkAmount, exceeds, formatAmount, formatDateTime, looksLikeAddress, withdrawAllAmount, withdrawHold } from './walletText';

const ADDRESS_MAX = 128;

const SummaryLine = ({ label, value, strong = false, name }: { label: string; value: string; strong?: boolean; name: string }) => (
  <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between' }} data-summary={name}>
    <Typography variant="body2" color="text.secondary">
      {label}
    </Typography>
    <Typography variant="body2" sx={{ fontWeight: strong ? 700 : 500, fontVariantNumeric: 'tabular-nums', textAlign: 'right' }}>
      {value}
    </Typography>
  </Stack>
);

/** `/profile/wallet/withdraw`: USDT out to an address, held (amount plus fee) until an operator approves; confirmed by the login password. */
export const WithdrawPage = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useApi();
  const balances = useBalances();
  const config = useWalletConfig();
  const book = useAddressBook();
  const saved = book.data?.list ?? [];
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ address?: string; amount?: string; password?: string }>({});
  /** The checked request waiting for the password. */
  const [confirming, setConfirming] = useState<{ amount: string; address: string } | null>(null);
  // To another user's deposit address the amount is theirs at once, without fee: the toast says so.
  const action = useWalletAction((payload: WithdrawPayload, secondFactor?: string) => dataProvider.walletWithdraw(payload, secondFactor), {
    successKey: (answer) => (answer.internal ? 'wallet.withdraw.doneInternal' : 'wallet.withdraw.done'),
  });

  const usdt = balanceOf(balances.data?.balances, 'USDT');
  const fee = config.data?.withdrawFee;
  const min = config.data?.withdrawMin;
  const typed = checkAmount(amount, { places: ASSET_PLACES.USDT });
  const usdtText = (value: string) => `${formatAmount(value, 'USDT', locale)} USDT`;

  const review = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkAmount(amount, { places: ASSET_PLACES.USDT, min });
    const next: typeof errors = {};
    if (!address.trim()) next.address = translate('ra.validation.required');
    else if (!looksLikeAddress(address.trim(), config.data?.depositNetwork)) next.address = translate('wallet.validation.address', { network: config.data?.depositNetwork ?? '' });
    if (checked.error) next.amount = translate(...checked.error);
    // The balance is checked before the password is asked for: the amount plus the fee must be there.
    else if (usdt && fee !== undefined && exceeds(withdrawHold(checked.amount, fee), usdt.available)) {
      next.amount = translate('wallet.validation.insufficientWithFee', { fee: usdtText(fee), need: usdtText(withdrawHold(checked.amount, fee)), available: usdtText(usdt.available) });
    }
    setErrors(next);
    if (checked.amount === null || next.address || next.amount) return;
    action.clearError();
    setConfirming({ amount: checked.amount, address: address.trim() });
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!confirming) return;
    if (!password) {
      setErrors({ password: translate('ra.validation.required') });
      return;
    }
    // The password is not part of what makes it the same withdrawal: retyping it keeps the key.
    const done = await action.submit({ ...confirming, password }, confirming);
    setPassword('');
    if (done) {
      setConfirming(null);
      setAddress('');
      setAmount('');
    }
  };

  const changed = (field: 'address' | 'amount') => {
    setErrors(({ [field]: _, ...rest }) => rest);
    action.clearError();
  };

  return (
    <Screen titleKey="page.withdraw">
      {action.dialog}
      <Stack spacing={2}>
        {(balances.error || config.error) && (
          <LoadError
            error={balances.error ?? config.error}
            onRetry={() => {
              void balances.refetch();
              void config.refetch();
            }}
          />
        )}
        <Paper sx={section}>
          <Stack component="form" noValidate spacing={2} onSubmit={review} aria-label={translate('page.withdraw')}>
            {saved.length > 0 && (
              <TextField
                select
                label={translate('wallet.withdraw.saved')}
                name="savedAddress"
                value={saved.some((entry) => entry.address === address.trim()) ? address.trim() : ''}
                onChange={(event) => {
                  setAddress(event.target.value);
                  changed('address');
                }}
                slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
              >
                <MenuItem value="">{translate('wallet.withdraw.savedNone')}</MenuItem>
                {saved.map((entry) => (
                  <MenuItem key={entry.id} value={entry.address} sx={{ whiteSpace: 'normal', overflowWrap: 'anywhere' }}>
                    {entry.label ? `${entry.label} · ` : ''}
                    {entry.address}
                    {Date.parse(entry.usableAt) > Date.now() ? ` (${translate('wallet.addresses.usableFrom', { time: formatDateTime(entry.usableAt, locale) })})` : ''}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <TextField
              label={translate('wallet.withdraw.address')}
              name="address"
              value={address}
              required
              error={Boolean(errors.address)}
              helperText={errors.address ?? (config.data ? translate('wallet.withdraw.addressHelp', { network: config.data.depositNetwork }) : ' ')}
              onChange={(event) => {
                setAddress(event.target.value);
                changed('address');
              }}
              slotProps={{ htmlInput: { maxLength: ADDRESS_MAX, autoComplete: 'off', autoCapitalize: 'none', spellCheck: false } }}
            />
            <MuiLink component={Link} to="/profile/wallet/addresses" variant="body2" underline="hover" sx={{ alignSelf: 'flex-start', mt: '4px !important' }}>
              {translate('wallet.addresses.manage')}
            </MuiLink>
            <AmountField
              label={translate('wallet.amount')}
              asset="USDT"
              value={amount}
              error={errors.amount}
              hint={<AvailableHint balance={usdt} />}
              max={usdt && fee !== undefined ? (withdrawAllAmount(usdt.available, fee) ?? undefined) : undefined}
              onChange={(value) => {
                setAmount(value);
                changed('amount');
              }}
            />
            {fee !== undefined && min !== undefined && (
              <Box sx={{ p: 1.5, bgcolor: 'action.hover', borderRadius: 1 }} data-section="withdraw-summary">
                <Stack spacing={0.75}>
                  <SummaryLine name="fee" label={translate('wallet.withdraw.fee')} value={usdtText(fee)} />
                  <SummaryLine name="min" label={translate('wallet.withdraw.min')} value={usdtText(min)} />
                  <SummaryLine name="arrives" label={translate('wallet.withdraw.arrives')} value={typed.amount ? usdtText(typed.amount) : '—'} strong />
                  <SummaryLine name="held" label={translate('wallet.withdraw.held')} value={typed.amount ? usdtText(withdrawHold(typed.amount, fee)) : '—'} />
                </Stack>
                <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
                  {translate('wallet.withdraw.holdHelp')}
                </Typography>
              </Box>
            )}
            <ActionError error={confirming ? null : action.error} />
            <SubmitButton pending={action.pending} disabled={!config.data} label={translate('wallet.withdraw.submit')} />
          </Stack>
        </Paper>
        <MovementList kind="withdrawal" title={translate('wallet.withdraw.listTitle')} />
      </Stack>

      <PasswordDialog
        id="withdraw-confirm-title"
        texts="wallet.withdraw"
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        onSubmit={confirm}
        password={password}
        onPassword={(next) => {
          setPassword(next);
          setErrors(({ password: _, ...rest }) => rest);
        }}
        passwordError={errors.password}
        action={action}
      >
        {confirming && fee !== undefined && (
          <DialogContentText component="div" sx={{ mb: 2 }}>
            <Typography sx={{ overflowWrap: 'anywhere' }}>
              {translate('wallet.withdraw.confirmText', { amount: usdtText(confirming.amount), address: confirming.address })}
            </Typography>
            <Typography variant="body2" sx={{ mt: 1 }}>
              {translate('wallet.withdraw.confirmHold', { held: usdtText(withdrawHold(confirming.amount, fee)), fee: usdtText(fee) })}
            </Typography>
          </DialogContentText>
        )}
      </PasswordDialog>
    </Screen>
  );
};
