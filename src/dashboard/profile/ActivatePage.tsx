import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import CreditCardIcon from '@mui/icons-material/CreditCard';
import PaidIcon from '@mui/icons-material/Paid';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Big from 'big.js';
import { useState } from 'react';
import { Confirm, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { ErrorCode } from '../../api/errors';
import type { ActivatePayload, MemberStatus } from '../../api/member';
import { newRequestId } from '../../api/signing';
import type { WalletBalances } from '../../api/wallet';
import { isApiError } from '../../dataProvider/ApiError';
import { Screen } from '../layout/Screen';
import { formatQuote } from '../kit/money';
import { LoadError, QueryView } from '../kit/LoadError';
import { profileKeys, useApi, useBalances, useMemberStatus, useRefreshIdentity } from './api';
import { formatAsset } from '../../api/format';
import { formatDateTime } from './format';

type Method = ActivatePayload['method'];

const availableOf = (balances: WalletBalances | undefined, asset: 'CARD' | 'USDT') => balances?.balances.find((b) => b.asset === asset)?.available ?? '0';

const enough = (available: string, price: string) => {
  try {
    return new Big(available).gte(price);
  } catch {
    return false;
  }
};

const Activated = ({ status }: { status: MemberStatus }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <Paper sx={{ p: { xs: 2.5, md: 4 }, textAlign: 'center' }} data-state="activated">
      <VerifiedUserIcon color="success" sx={{ fontSize: 56 }} />
      <Typography variant="h6" component="h2" sx={{ fontWeight: 600, mt: 1 }}>
        {translate('profile.activate.done')}
      </Typography>
      {status.activatedAt && (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {translate('profile.activate.doneAt', { time: formatDateTime(status.activatedAt, locale) })}
        </Typography>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 3, justifyContent: 'center' }}>
        <Button component={Link} to="/profile/member-level" variant="outlined">
          {translate('page.memberLevel')}
        </Button>
        <Button component={Link} to="/trade/add" variant="contained">
          {translate('profile.activate.startTrading')}
        </Button>
      </Stack>
    </Paper>
  );
};

const PayOptions = ({ status }: { status: MemberStatus }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const api = useApi();
  const queryClient = useQueryClient();
  const refreshIdentity = useRefreshIdentity();
  const balances = useBalances();
  const [chosen, setChosen] = useState<Method | null>(null);
  // One key per intended payment: a retry after a lost answer reuses it, so it never pays twice.
  const [keys, setKeys] = useState<Partial<Record<Method, string>>>({});
  const [refusal, setRefusal] = useState<string | null>(null);

  const prices: Record<Method, string> = { card: status.activation.cardPrice, usdt: status.activation.usdtPrice };
  const available: Record<Method, string> = { card: availableOf(balances.data, 'CARD'), usdt: availableOf(balances.data, 'USDT') };
  const amountText = (method: Method, value: string) =>
    method === 'card' ? translate('profile.activate.cards', { count: Number(value), amount: formatAsset(value, 'CARD', locale) }) : `${formatQuote(value, locale)} USDT`;

  const activate = useMutation({
    mutationFn: (method: Method) => {
      const idempotencyKey = keys[method] ?? newRequestId();
      if (!keys[method]) setKeys((k) => ({ ...k, [method]: idempotencyKey }));
      return api.memberActivate({ method, idempotencyKey });
    },
    onSuccess: async (next, method) => {
      setKeys((k) => ({ ...k, [method]: undefined }));
      queryClient.setQueryData(profileKeys.member, next);
      notify(translate('profile.activate.success'), { type: 'success' });
      try {
        refreshIdentity(await api.me());
      } catch {
        refreshIdentity();
      }
    },
    onError: (error, method) => {
      const lost = isApiError(error) && (error.kind === 'network' || error.kind === 'timeout');
      if (!lost) setKeys((k) => ({ ...k, [method]: undefined }));
      let text = error instanceof Error && error.message ? error.message : translate('error.fallback');
      if (isApiError(error) && error.code === ErrorCode.INSUFFICIENT_BALANCE) {
        text = translate(`profile.activate.insufficient.${method}`, { price: amountText(method, prices[method]), available: amountText(method, available[method]) });
        void balances.refetch();
      } else if (isApiError(error) && error.code === ErrorCode.ALREADY_EXISTS) {
        text = translate('profile.activate.already');
        void queryClient.invalidateQueries({ queryKey: profileKeys.member });
        refreshIdentity();
      }
      setRefusal(text);
      notify(text, { type: 'error' });
    },
  });

  const option = (method: Method) => {
    const short = balances.data !== undefined && !enough(available[method], prices[method]);
    return (
      <Paper key={method} sx={{ p: { xs: 2, md: 2.5 }, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 1 }} data-method={method}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          {method === 'card' ? <CreditCardIcon color="primary" /> : <PaidIcon color="primary" />}
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {translate(`profile.activate.${method}Title`)}
          </Typography>
        </Stack>
        <Typography variant="h5" component="p" sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }} data-price={method}>
          {amountText(method, prices[method])}
        </Typography>
        <Typography variant="body2" color={short ? 'error' : 'text.secondary'} data-available={method}>
          {balances.data !== undefined ? translate('profile.activate.youHave', { amount: amountText(method, available[method]) }) : ' '}
        </Typography>
        <Box sx={{ flexGrow: 1 }} />
        <Button variant="contained" disabled={activate.isPending} onClick={() => { setRefusal(null); setChosen(method); }}>
          {translate(`profile.activate.payWith.${method}`)}
        </Button>
      </Paper>
    );
  };

  return (
    <Stack spacing={2}>
      <Alert severity="info">{translate('profile.activate.why')}</Alert>
      {balances.error ? <LoadError error={balances.error} onRetry={() => void balances.refetch()} /> : null}
      {refusal && (
        <Alert
          severity="error"
          data-state="refused"
          action={
            <Button component={Link} to="/profile/wallet" color="inherit" size="small">
              {translate('profile.activate.topUp')}
            </Button>
          }
        >
          {refusal}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}>
        {option('card')}
        {option('usdt')}
      </Box>
      <Box>
        <Button component={Link} to="/profile/wallet" startIcon={<AccountBalanceWalletIcon />}>
          {translate('profile.activate.topUpHint')}
        </Button>
      </Box>
      <Confirm
        isOpen={chosen !== null}
        title={translate('profile.activate.confirmTitle')}
        content={chosen ? translate('profile.activate.confirmText', { price: amountText(chosen, prices[chosen]) }) : ''}
        loading={activate.isPending}
        onClose={() => setChosen(null)}
        onConfirm={() => {
          if (chosen) activate.mutate(chosen);
          setChosen(null);
        }}
      />
    </Stack>
  );
};

/** `/profile/activate`: the account's activation (11001 until done), paid with an activation card or USDT. */
export const ActivatePage = () => {
  const status = useMemberStatus();
  return (
    <Screen titleKey="page.activate">
      <QueryView query={status} skeletons={2} height={120}>
        {(data) => (data.activated ? <Activated status={data} /> : <PayOptions status={data} />)}
      </QueryView>
    </Screen>
  );
};
