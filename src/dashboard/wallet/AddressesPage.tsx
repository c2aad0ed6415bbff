import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { Box, Chip, DialogContentText, FormControlLabel, IconButton, Paper, Skeleton, Stack, Switch, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { WithdrawalAddress } from '../../api/wallet';
import { Screen } from '../layout/Screen';
import { DemoLocked, useIsDemo } from '../kit/demo';
import { LoadError } from '../kit/LoadError';
import { sectionSx as section } from '../kit/Section';
import { useAddressBook, useApi, useWalletConfig, walletKeys } from './api';
import { ActionError, PasswordDialog, SubmitButton, mono } from './parts';
import { useWalletCall } from './useWalletAction';
import { formatDateTime, looksLikeAddress } from './walletText';

const LABEL_MAX = 40;
const ADDRESS_MAX = 100;

/** What waits for the password: adding an address, removing one, or turning the whitelist off. */
type Pending = { kind: 'add'; address: string; label: string } | { kind: 'remove'; entry: WithdrawalAddress } | { kind: 'off' };

const AddressRow = ({ entry, onRemove, locked }: { entry: WithdrawalAddress; onRemove: () => void; locked: boolean }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const usable = Date.parse(entry.usableAt) <= Date.now();
  return (
    <Box component="li" data-address={entry.address} sx={{ listStyle: 'none', py: 1.5, borderBottom: 1, borderColor: 'divider', '&:last-of-type': { borderBottom: 0 } }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Box sx={{ minWidth: 0, flexGrow: 1 }}>
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{entry.label || translate('wallet.addresses.noLabel')}</Typography>
            <Chip size="small" variant="outlined" label={entry.network} />
            <Chip size="small" color={usable ? 'success' : 'warning'} label={translate(usable ? 'wallet.addresses.usable' : 'wallet.addresses.waiting')} />
          </Stack>
          <Typography variant="body2" sx={{ ...mono, mt: 0.5 }}>
            {entry.address}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
            {translate('wallet.addresses.addedAt', { time: formatDateTime(entry.createdAt, locale) })}
            {' · '}
            <Box component="span" data-field="usableAt" sx={{ whiteSpace: 'nowrap' }}>
              {translate('wallet.addresses.usableFrom', { time: formatDateTime(entry.usableAt, locale) })}
            </Box>
          </Typography>
        </Box>
        {!locked && (
          <IconButton aria-label={translate('wallet.addresses.removeOne', { name: entry.label || entry.address })} onClick={onRemove} edge="end">
            <DeleteIcon />
          </IconButton>
        )}
      </Stack>
    </Box>
  );
};

/**
 * `/profile/wallet/addresses`: the withdrawal address book. The whitelist
 * (withdraw only to these), adding an address with a label (usable 24 hours
 * later), removing one; adding, removing and turning the whitelist off are
 * confirmed by the login password.
 */
export const AddressesPage = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const dataProvider = useApi();
  const book = useAddressBook();
  const config = useWalletConfig();
  const demo = useIsDemo();
  const queryClient = useQueryClient();
  // A change of the book: the book is asked again before the change resolves. With a second factor on, it asks for a code too (README "Second factors").
  const change = useWalletCall({ onSuccess: () => queryClient.invalidateQueries({ queryKey: walletKeys.addresses }) });
  const [address, setAddress] = useState('');
  const [label, setLabel] = useState('');
  const [errors, setErrors] = useState<{ address?: string; password?: string }>({});
  const [password, setPassword] = useState('');
  const [confirming, setConfirming] = useState<Pending | null>(null);

  const review = (event: FormEvent) => {
    event.preventDefault();
    const typed = address.trim();
    if (!typed) return setErrors({ address: translate('ra.validation.required') });
    if (!looksLikeAddress(typed, config.data?.depositNetwork)) return setErrors({ address: translate('wallet.validation.address', { network: config.data?.depositNetwork ?? '' }) });
    change.clearError();
    setConfirming({ kind: 'add', address: typed, label: label.trim() });
  };

  const toggle = async (enabled: boolean) => {
    change.clearError();
    // Off opens withdrawals to any address: the password confirms it.
    if (!enabled) return setConfirming({ kind: 'off' });
    if (await change.run((code) => dataProvider.walletWhitelist({ enabled: true }, code))) notify(translate('wallet.addresses.whitelistDone'), { type: 'success' });
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!confirming) return;
    if (!password) return setErrors({ password: translate('ra.validation.required') });
    let toast: string | null = null;
    if (confirming.kind === 'add') {
      const added = await change.run((code) => dataProvider.walletAddressAdd({ address: confirming.address, label: confirming.label, password }, code));
      if (added) {
        toast = translate('wallet.addresses.addDone', { time: formatDateTime(added.usableAt, locale) });
        setAddress('');
        setLabel('');
      }
    } else if (confirming.kind === 'remove') {
      const id = confirming.entry.id;
      if ((await change.run((code) => dataProvider.walletAddressRemove({ id, password }, code))) !== null) toast = translate('wallet.addresses.removeDone');
    } else if (await change.run((code) => dataProvider.walletWhitelist({ enabled: false, password }, code))) {
      toast = translate('wallet.addresses.whitelistOffDone');
    }
    setPassword('');
    if (toast) {
      setConfirming(null);
      notify(toast, { type: 'success' });
    }
  };

  const dialogTexts = confirming ? `wallet.addresses.${confirming.kind}` : 'wallet.addresses.add';
  const list = book.data?.list ?? [];

  return (
    <Screen titleKey="page.withdrawAddresses">
      {change.dialog}
      <Stack spacing={2}>
        {book.error && <LoadError error={book.error} onRetry={() => void book.refetch()} />}
        <Paper sx={section} data-section="whitelist">
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('wallet.addresses.intro')}
          </Typography>
          {demo ? (
            <DemoLocked />
          ) : (
            <FormControlLabel
              control={<Switch checked={book.data?.whitelist ?? false} disabled={!book.data || change.pending} onChange={(event) => void toggle(event.target.checked)} />}
              label={translate('wallet.addresses.whitelist')}
            />
          )}
          <Typography variant="caption" color="text.secondary" component="p">
            {translate('wallet.addresses.whitelistHelp')}
          </Typography>
          {!confirming && (
            <Box sx={{ mt: 1 }}>
              <ActionError error={change.error} />
            </Box>
          )}
        </Paper>

        {!demo && (
          <Paper sx={section}>
            <Stack component="form" noValidate spacing={2} onSubmit={review} aria-label={translate('wallet.addresses.addTitle')}>
              <Typography variant="h6" component="h2" sx={{ fontWeight: 600 }}>
                {translate('wallet.addresses.addTitle')}
              </Typography>
              <TextField
                label={translate('wallet.withdraw.address')}
                name="address"
                value={address}
                required
                error={Boolean(errors.address)}
                helperText={errors.address ?? translate('wallet.addresses.addHelp', { network: config.data?.depositNetwork ?? '' })}
                onChange={(event) => {
                  setAddress(event.target.value);
                  setErrors({});
                }}
                slotProps={{ htmlInput: { maxLength: ADDRESS_MAX, autoComplete: 'off', autoCapitalize: 'none', spellCheck: false } }}
              />
              <TextField
                label={translate('wallet.addresses.label')}
                name="label"
                value={label}
                onChange={(event) => setLabel(event.target.value.replace(/[<>]/g, ''))}
                slotProps={{ htmlInput: { maxLength: LABEL_MAX } }}
              />
              <SubmitButton pending={change.pending && confirming?.kind === 'add'} disabled={!config.data} label={translate('wallet.addresses.addSubmit')} />
            </Stack>
          </Paper>
        )}

        <Paper sx={section} data-section="addresses">
          <Typography variant="h6" component="h2" sx={{ fontWeight: 600 }}>
            {translate('wallet.addresses.listTitle')}
          </Typography>
          {book.isPending && <Skeleton height={64} />}
          {book.data && list.length === 0 && (
            <Typography color="text.secondary" sx={{ py: 2 }}>
              {translate('wallet.addresses.empty')}
            </Typography>
          )}
          {list.length > 0 && (
            <Box component="ul" sx={{ m: 0, p: 0 }}>
              {list.map((entry) => (
                <AddressRow key={entry.id} entry={entry} locked={demo} onRemove={() => setConfirming({ kind: 'remove', entry })} />
              ))}
            </Box>
          )}
        </Paper>
      </Stack>

      <PasswordDialog
        id="address-confirm-title"
        texts={dialogTexts}
        open={confirming !== null}
        onClose={() => {
          setConfirming(null);
          change.clearError();
        }}
        onSubmit={confirm}
        password={password}
        onPassword={(next) => {
          setPassword(next);
          setErrors(({ password: _, ...rest }) => rest);
        }}
        passwordError={errors.password}
        action={change}
      >
        {confirming && (
          <DialogContentText component="div" sx={{ mb: 2 }}>
            <Typography sx={{ overflowWrap: 'anywhere' }}>
              {confirming.kind === 'add'
                ? translate('wallet.addresses.add.text', { address: confirming.address })
                : confirming.kind === 'remove'
                  ? translate('wallet.addresses.remove.text', { address: confirming.entry.address })
                  : translate('wallet.addresses.off.text')}
            </Typography>
          </DialogContentText>
        )}
      </PasswordDialog>
    </Screen>
  );
};
