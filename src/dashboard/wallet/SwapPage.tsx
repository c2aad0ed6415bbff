import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import { Alert, Box, MenuItem, Paper, Skeleton, Stack, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { Confirm, useLocaleState, useTranslate } from 'react-admin';
import type { Asset, SwapPayload, SwapRate } from '../../api/wallet';
import { Screen } from '../layout/Screen';
import { LoadError } from '../kit/LoadError';
import { sectionSx as section } from '../kit/Section';
import { useApi, useBalances, useWalletConfig } from './api';
import { ActionError, AmountField, AvailableHint, SubmitButton, balanceOf } from './parts';
import { useWalletAction } from './useWalletAction';
import { ASSET_PLACES, checkAmount, exceeds, formatAmount, swapPreview, swapStep } from './walletText';

const pairId = (rate: Pick<SwapRate, 'from' | 'to'>) => `${rate.from}-${rate.to}`;

/** `/profile/wallet/exchange` ("swap" in code): converts one asset into another at a configured rate, with a live preview. */
export const SwapPage = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useApi();
  const config = useWalletConfig();
  const balances = useBalances();
  const rates = config.data?.swapRates ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const [amount, setAmount] = useState('');
  const [amountError, setAmountError] = useState<string | null>(null);
  /** A conversion checked and waiting for the user's confirmation: it cannot be undone. */
  const [confirming, setConfirming] = useState<{ rate: SwapRate; amount: string; receive: string } | null>(null);
  const action = useWalletAction((payload: SwapPayload) => dataProvider.walletSwap(payload), { successKey: 'wallet.swap.done' });

  const rate = rates.find((r) => pairId(r) === chosen) ?? rates[0];
  const unit = (asset: Asset) => translate(`wallet.units.${asset}`);
  const typed = rate ? checkAmount(amount, { places: ASSET_PLACES[rate.from] }) : null;
  const preview = rate && typed?.amount ? swapPreview(typed.amount, rate) : null;
  const step = rate ? swapStep(rate) : null;
  /** A conversion into whole units (cards) must give a whole number of them. */
  const notWhole = preview !== null && step !== null && !preview.whole;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!rate) return;
    const checked = checkAmount(amount, { places: ASSET_PLACES[rate.from] });
    if (checked.error) {
      setAmountError(translate(...checked.error));
      return;
    }
    // The balance is checked before anything is sent (or any password asked for).
    const have = balanceOf(balances.data?.balances, rate.from);
    if (have && exceeds(checked.amount, have.available)) {
      setAmountError(translate('wallet.validation.insufficient', { available: `${formatAmount(have.available, rate.from, locale)} ${unit(rate.from)}` }));
      return;
    }
    if (notWhole || !preview) return;
    setConfirming({ rate, amount: checked.amount, receive: preview.receive });
  };

  const convert = async () => {
    if (!confirming) return;
    const { rate: at, amount: spend } = confirming;
    setConfirming(null);
    const done = await action.submit({ from: at.from, to: at.to, amount: spend });
    if (done) setAmount('');
  };

  return (
    <Screen titleKey="page.swap">
      <Stack spacing={2}>
        {(config.error || balances.error) && (
          <LoadError
            error={config.error ?? balances.error}
            onRetry={() => {
              void config.refetch();
              void balances.refetch();
            }}
          />
        )}
        {config.isPending && <Skeleton variant="rectangular" height={320} sx={{ borderRadius: 1 }} />}
        {config.data && rates.length === 0 && <Alert severity="info">{translate('wallet.swap.none')}</Alert>}
        {rate && (
          <Paper sx={section}>
            <Stack component="form" noValidate spacing={2} onSubmit={submit} aria-label={translate('page.swap')}>
              <TextField
                select
                label={translate('wallet.swap.pair')}
                name="pair"
                value={pairId(rate)}
                onChange={(event) => {
                  setChosen(event.target.value);
                  setAmountError(null);
                  action.clearError();
                }}
              >
                {rates.map((r) => (
                  <MenuItem key={pairId(r)} value={pairId(r)}>
                    {translate('wallet.swap.pairLabel', { from: translate(`wallet.assets.${r.from}`), to: translate(`wallet.assets.${r.to}`) })}
                  </MenuItem>
                ))}
              </TextField>
              <Typography variant="body2" color="text.secondary" data-section="rate">
                {translate('wallet.swap.rate', { from: unit(rate.from), rate: formatAmount(rate.rate, null, locale, { plain: true }), to: unit(rate.to) })}
              </Typography>
              <AmountField
                label={translate('wallet.swap.spend', { asset: translate(`wallet.assets.${rate.from}`) })}
                asset={rate.from}
                value={amount}
                error={amountError ?? (notWhole && step ? translate('wallet.swap.wholeOnly', { step: formatAmount(step, rate.from, locale, { plain: true }), from: unit(rate.from), to: translate(`wallet.assets.${rate.to}`) }) : null)}
                max={balanceOf(balances.data?.balances, rate.from)?.available}
                hint={<AvailableHint balance={balanceOf(balances.data?.balances, rate.from)} />}
                onChange={(value) => {
                  setAmount(value);
                  setAmountError(null);
                  action.clearError();
                }}
              />
              <Box sx={{ display: 'flex', justifyContent: 'center', color: 'text.secondary' }} aria-hidden>
                <ArrowDownwardIcon />
              </Box>
              <Box sx={{ p: 2, bgcolor: 'action.hover', borderRadius: 1, textAlign: 'center' }} data-section="preview" aria-live="polite">
                <Typography variant="body2" color="text.secondary">
                  {translate('wallet.swap.receive')}
                </Typography>
                <Typography variant="h5" component="p" sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }} data-field="receive">
                  {preview ? `${formatAmount(preview.receive, rate.to, locale)} ${unit(rate.to)}` : '—'}
                </Typography>
              </Box>
              <ActionError error={action.error} />
              <SubmitButton pending={action.pending} disabled={notWhole || preview?.receive === '0'} label={translate('wallet.swap.submit')} />
            </Stack>
          </Paper>
        )}
        <Confirm
          isOpen={confirming !== null}
          title="wallet.swap.confirmTitle"
          confirm="wallet.swap.confirm"
          content={
            confirming
              ? translate('wallet.swap.confirmText', {
                  give: `${formatAmount(confirming.amount, confirming.rate.from, locale)} ${unit(confirming.rate.from)}`,
                  get: `${formatAmount(confirming.receive, confirming.rate.to, locale)} ${unit(confirming.rate.to)}`,
                  rate: translate('wallet.swap.rate', { from: unit(confirming.rate.from), rate: formatAmount(confirming.rate.rate, null, locale, { plain: true }), to: unit(confirming.rate.to) }),
                })
              : ''
          }
          onClose={() => setConfirming(null)}
          onConfirm={() => void convert()}
        />
      </Stack>
    </Screen>
  );
};
