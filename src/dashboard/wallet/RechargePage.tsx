import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Alert, Box, Button, Chip, Paper, Skeleton, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useState, type FormEvent } from 'react';
import { useCopy } from '../kit/copy';
import { useTranslate } from 'react-admin';
import type { RechargePayload } from '../../api/wallet';
import { Screen } from '../layout/Screen';
import { LoadError } from '../kit/LoadError';
import { sectionSx as section } from '../kit/Section';
import { useApi, useDepositAddress } from './api';
import { ActionError, AmountField, MovementList, SubmitButton, mono } from './parts';
import { useWalletAction } from './useWalletAction';
import { ASSET_PLACES, TX_HASH, checkAmount } from './walletText';

const TX_HASH_MAX = 80;

/** The address as a QR code (an SVG drawn in the browser: nothing leaves the page). */
const AddressQr = ({ address, label }: { address: string; label: string }) => {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    // Loaded on demand: the QR library stays out of the main bundle.
    import('qrcode')
      .then(({ default: QRCode }) => QRCode.toString(address, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then((text) => live && setSvg(text))
      .catch(() => live && setSvg(null));
    return () => {
      live = false;
    };
  }, [address]);
  if (!svg) return <Skeleton variant="rectangular" width={168} height={168} />;
  return (
    <Box
      component="img"
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt={label}
      data-qr={address}
      sx={{ width: 168, height: 168, bgcolor: '#fff', borderRadius: 1, border: 1, borderColor: 'divider', flexShrink: 0 }}
    />
  );
};

const DepositAddressCard = () => {
  const translate = useTranslate();
  const address = useDepositAddress();
  const copy = useCopy('wallet.recharge.copied', 'wallet.recharge.copyFailed');
  return (
    <Paper sx={section} data-section="deposit-address">
      <Typography variant="h6" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
        {translate('wallet.recharge.addressTitle')}
      </Typography>
      {address.error && <LoadError error={address.error} onRetry={() => void address.refetch()} />}
      {address.isPending && <Skeleton variant="rectangular" height={168} />}
      {address.data && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 2, sm: 3 }} sx={{ alignItems: { xs: 'center', sm: 'flex-start' } }}>
          <AddressQr address={address.data.address} label={translate('wallet.recharge.qr')} />
          <Stack spacing={1.5} sx={{ minWidth: 0, flexGrow: 1, width: '100%' }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
              <Chip size="small" color="primary" label={address.data.asset} />
              <Chip size="small" variant="outlined" label={translate('wallet.recharge.network', { network: address.data.network })} data-network={address.data.network} />
            </Stack>
            {/* 14 px: a TRC20 address (34 characters) on one line of a phone. */}
            <Typography sx={{ ...mono, fontSize: { xs: 14, sm: 16 }, p: 1.5, bgcolor: 'action.hover', borderRadius: 1 }} data-address={address.data.address}>
              {address.data.address}
            </Typography>
            <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={() => void copy(address.data.address)} sx={{ alignSelf: { xs: 'stretch', sm: 'flex-start' } }}>
              {translate('wallet.recharge.copy')}
            </Button>
            <Alert severity="warning" variant="outlined">
              {translate('wallet.recharge.networkWarning', { network: address.data.network })}
            </Alert>
          </Stack>
        </Stack>
      )}
    </Paper>
  );
};

/** The form that tells us about a deposit sent to the address: it waits for an operator's confirmation. */
const RechargeForm = () => {
  const translate = useTranslate();
  const dataProvider = useApi();
  const [amount, setAmount] = useState('');
  const [txHash, setTxHash] = useState('');
  const [amountError, setAmountError] = useState<string | null>(null);
  const [hashError, setHashError] = useState<string | null>(null);
  const action = useWalletAction((payload: RechargePayload) => dataProvider.walletRecharge(payload), { successKey: 'wallet.recharge.done' });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkAmount(amount, { places: ASSET_PLACES.USDT });
    setAmountError(checked.error ? translate(...checked.error) : null);
    const hash = txHash.trim();
    const badHash = hash !== '' && !TX_HASH.test(hash);
    setHashError(badHash ? translate('wallet.validation.txHash') : null);
    if (checked.amount === null || badHash) return;
    const done = await action.submit({ amount: checked.amount, ...(hash ? { txHash: hash } : {}) });
    if (done) {
      setAmount('');
      setTxHash('');
    }
  };

  return (
    <Paper sx={section}>
      <Typography variant="h6" component="h2" sx={{ fontWeight: 600 }}>
        {translate('wallet.recharge.formTitle')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('wallet.recharge.formHelp')}
      </Typography>
      <Stack component="form" noValidate spacing={2} onSubmit={submit} aria-label={translate('wallet.recharge.formTitle')}>
        <AmountField
          label={translate('wallet.amount')}
          asset="USDT"
          value={amount}
          error={amountError}
          onChange={(value) => {
            setAmount(value);
            setAmountError(null);
            action.clearError();
          }}
        />
        <TextField
          label={translate('wallet.recharge.txHash')}
          name="txHash"
          value={txHash}
          error={Boolean(hashError)}
          helperText={hashError ?? translate('wallet.recharge.txHashHelp')}
          onChange={(event) => {
            setTxHash(event.target.value);
            setHashError(null);
            action.clearError();
          }}
          slotProps={{ htmlInput: { maxLength: TX_HASH_MAX, autoComplete: 'off', autoCapitalize: 'none', spellCheck: false } }}
        />
        <ActionError error={action.error} />
        <SubmitButton pending={action.pending} label={translate('wallet.recharge.submit')} />
      </Stack>
    </Paper>
  );
};

/** `/profile/wallet/recharge`: the user's deposit address, the form to report a deposit, and the deposits so far. */
export const RechargePage = () => {
  const translate = useTranslate();
  return (
    <Screen titleKey="page.recharge">
      <Stack spacing={2}>
        <DepositAddressCard />
        <RechargeForm />
        <MovementList kind="deposit" title={translate('wallet.recharge.listTitle')} />
      </Stack>
    </Screen>
  );
};
