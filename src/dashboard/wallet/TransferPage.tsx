import InfoIcon from '@mui/icons-material/InfoOutlined';
import { Alert, Box, Chip, DialogContentText, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { ErrorCode } from '../../api/errors';
import type { CommunityMember } from '../../api/member';
import type { Asset, LedgerRecord } from '../../api/wallet';
import { Screen } from '../layout/Screen';
import { LoadError } from '../kit/LoadError';
import { sectionSx as section } from '../kit/Section';
import { useApi, useBalances, useDownline, useWalletConfig } from './api';
import { ActionError, AmountField, AvailableHint, PasswordDialog, SubmitButton, balanceOf } from './parts';
import { useWalletAction } from './useWalletAction';
import { ASSET_PLACES, checkAmount, formatAmount } from './walletText';

const RECIPIENT_MAX = 254;
/** Refusals that are about the recipient, shown on its field too. */
const RECIPIENT_CODES: readonly number[] = [ErrorCode.USER_NOT_EXIST, ErrorCode.POINTS_SUBORDINATE_ONLY, ErrorCode.POINTS_SELF_TRANSFER];

type Send = (payload: { to: string; amount: string; password: string; idempotencyKey: string }, secondFactor?: string) => Promise<LedgerRecord>;

/** Recipient and amount of `asset`, reviewed in a confirmation that asks for the login password, then sent once. */
const SendForm = ({
  asset,
  send,
  successKey,
  recipientLabel,
  recipientHelp,
  min,
  intro,
  picker,
}: {
  asset: Asset;
  send: Send;
  successKey: string;
  recipientLabel: string;
  recipientHelp: string;
  min?: string | undefined;
  intro: ReactNode;
  /** Offers recipients to pick: gets the setter of the field. */
  picker?: (pick: (to: string) => void) => ReactNode;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const balances = useBalances();
  const balance = balanceOf(balances.data?.balances, asset);
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ to?: string; amount?: string; password?: string }>({});
  const [confirming, setConfirming] = useState<{ to: string; amount: string } | null>(null);
  const action = useWalletAction(send, { successKey });

  const review = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkAmount(amount, { places: ASSET_PLACES[asset], min });
    const next: typeof errors = {};
    if (!to.trim()) next.to = translate('ra.validation.required');
    if (checked.error) next.amount = translate(...checked.error);
    setErrors(next);
    if (checked.amount === null || next.to) return;
    action.clearError();
    setConfirming({ to: to.trim(), amount: checked.amount });
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!confirming) return;
    if (!password) {
      setErrors({ password: translate('ra.validation.required') });
      return;
    }
    // The password is not part of what makes it the same transfer: retyping it keeps the key.
    const done = await action.submit({ ...confirming, password }, confirming);
    setPassword('');
    // A wrong password is answered in the dialog, to be typed again; any other refusal under the form.
    if (done || action.lastRefusal.current?.code !== ErrorCode.PASSWORD_ERROR) setConfirming(null);
    if (done) {
      setTo('');
      setAmount('');
    }
  };

  const pick = (value: string) => {
    setTo(value);
    setErrors(({ to: _, ...rest }) => rest);
    action.clearError();
  };
  const unit = translate(`wallet.units.${asset}`);

  return (
    <Stack spacing={2}>
      {action.dialog}
      {balances.error && <LoadError error={balances.error} onRetry={() => void balances.refetch()} />}
      {intro}
      <Paper sx={section}>
        <Stack component="form" noValidate spacing={2} onSubmit={review} aria-label={translate(`wallet.send.form.${asset}`)}>
          <TextField
            label={recipientLabel}
            name="to"
            value={to}
            required
            error={Boolean(errors.to) || (action.error?.code !== undefined && RECIPIENT_CODES.includes(action.error.code))}
            helperText={errors.to ?? recipientHelp}
            onChange={(event) => pick(event.target.value)}
            slotProps={{ htmlInput: { maxLength: RECIPIENT_MAX, autoComplete: 'off', autoCapitalize: 'none', spellCheck: false } }}
          />
          {picker?.(pick)}
          <AmountField
            label={translate('wallet.amount')}
            asset={asset}
            value={amount}
            error={errors.amount}
            max={balance?.available}
            hint={
              <>
                <AvailableHint balance={balance} />
                {min !== undefined && ` · ${translate('wallet.send.min', { amount: formatAmount(min, asset, locale), unit })}`}
              </>
            }
            onChange={(value) => {
              setAmount(value);
              setErrors(({ amount: _, ...rest }) => rest);
              action.clearError();
            }}
          />
          <ActionError error={confirming ? null : action.error} />
          <SubmitButton pending={action.pending} label={translate('wallet.send.submit')} />
        </Stack>
      </Paper>
      <PasswordDialog
        id={`send-confirm-${asset}`}
        texts="wallet.send"
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
        {confirming && (
          <DialogContentText sx={{ mb: 2, overflowWrap: 'anywhere' }}>
            {translate('wallet.send.confirmText', { amount: `${formatAmount(confirming.amount, asset, locale)} ${unit}`, to: confirming.to })}
          </DialogContentText>
        )}
      </PasswordDialog>
    </Stack>
  );
};

/** `/profile/wallet/transfer`: USDT to another user, by email or user id. */
export const TransferPage = () => {
  const translate = useTranslate();
  const dataProvider = useApi();
  const config = useWalletConfig();
  return (
    <Screen titleKey="page.transfer">
      {config.error && <LoadError error={config.error} onRetry={() => void config.refetch()} />}
      <SendForm
        asset="USDT"
        send={dataProvider.walletTransfer}
        successKey="wallet.transfer.done"
        recipientLabel={translate('wallet.transfer.to')}
        recipientHelp={translate('wallet.transfer.toHelp')}
        min={config.data?.transferMin}
        intro={
          <Typography color="text.secondary" data-section="intro">
            {translate('wallet.transfer.intro')}
          </Typography>
        }
      />
    </Screen>
  );
};

const PICKER_SIZE = 20;

/** Members of the user's team to pick as recipient (when the community call answers). */
const DownlinePicker = ({ pick }: { pick: (to: string) => void }) => {
  const translate = useTranslate();
  const team = useDownline(PICKER_SIZE);
  const members: CommunityMember[] = team.data?.list ?? [];
  if (members.length === 0) return null;
  return (
    <Box data-section="downline">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('wallet.points.pick')}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
        {members.map((member) => (
          <Chip
            key={member.id}
            clickable
            variant="outlined"
            label={`${member.nickname} · ${member.email}`}
            onClick={() => pick(member.id)}
            data-member={member.id}
          />
        ))}
      </Stack>
    </Box>
  );
};

/** `/profile/wallet/points-transfer`: points to a member of one's own down-line only. */
export const PointsTransferPage = () => {
  const translate = useTranslate();
  const dataProvider = useApi();
  return (
    <Screen titleKey="page.pointsTransfer">
      <SendForm
        asset="POINTS"
        send={dataProvider.walletPointsTransfer}
        successKey="wallet.points.done"
        recipientLabel={translate('wallet.points.to')}
        recipientHelp={translate('wallet.points.toHelp')}
        intro={
          <Alert severity="info" icon={<InfoIcon />} data-section="rule">
            {translate('wallet.points.rule')}
          </Alert>
        }
        picker={(pick) => <DownlinePicker pick={pick} />}
      />
    </Screen>
  );
};
