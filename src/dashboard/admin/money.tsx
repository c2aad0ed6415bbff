import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { Button, Stack } from '@mui/material';
import { useMemo, useState, type ReactNode } from 'react';
import {
  Confirm,
  Datagrid,
  Labeled,
  List,
  SelectInput,
  Show,
  SimpleList,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import type { AdminDeposit, AdminWithdrawal } from '../../api/admin';
import {
  DateTimeText,
  StatusChip,
  TextPromptDialog,
  statusChoices,
  stopRowClick,
  useDecision,
  useDateTime,
  ConsolePagination,
  UsdtField,
} from './common';
import { useIsPhone } from '../kit/responsive';

export const DEPOSITS = 'admin/deposits';
export const WITHDRAWALS = 'admin/withdrawals';

const amountText = (amount: string, asset: string) => `${amount} ${asset}`;

/** Action buttons keep their label on one line however narrow their column gets. */
const noWrapButtons = { '& .MuiButton-root': { whiteSpace: 'nowrap', flexShrink: 0 } } as const;

// ---------------------------------------------------------------------------------------------
// Deposits: confirm (credits the user) or reject with a reason.

const DepositActions = ({ size = 'small' }: { label?: string; size?: 'small' | 'medium' }) => {
  const record = useRecordContext<AdminDeposit>();
  const translate = useTranslate();
  const [dialog, setDialog] = useState<'confirm' | 'reject' | null>(null);
  const confirm = useDecision<AdminDeposit>(DEPOSITS, 'admin.deposits.confirmed');
  const reject = useDecision<AdminDeposit>(DEPOSITS, 'admin.deposits.rejected');
  const close = () => setDialog(null);
  if (!record || record.status !== 'pending') return null;
  const what = { amount: amountText(record.amount, record.asset), email: record.userEmail };
  return (
    <Stack direction="row" spacing={1} onClick={stopRowClick} data-actions={record.id} sx={noWrapButtons}>
      <Button size={size} variant="contained" color="success" startIcon={<CheckIcon />} onClick={() => setDialog('confirm')}>
        {translate('admin.deposits.confirm')}
      </Button>
      <Button size={size} variant="outlined" color="error" startIcon={<CloseIcon />} onClick={() => setDialog('reject')}>
        {translate('admin.reject')}
      </Button>
      <Confirm
        isOpen={dialog === 'confirm'}
        loading={confirm.isPending}
        title={translate('admin.deposits.confirmTitle')}
        content={translate('admin.deposits.confirmText', what)}
        onClose={() => setDialog(null)}
        onConfirm={() => confirm.decide(record, { status: 'confirmed' }, close)}
      />
      <TextPromptDialog
        open={dialog === 'reject'}
        title={translate('admin.deposits.rejectTitle')}
        text={translate('admin.deposits.rejectText', what)}
        fieldLabel={translate('admin.reason')}
        required
        confirmLabel={translate('admin.reject')}
        pending={reject.isPending}
        onClose={() => setDialog(null)}
        onSubmit={(reason) => reject.decide(record, { status: 'rejected', reason }, close)}
      />
    </Stack>
  );
};

const DEPOSIT_STATUSES = ['pending', 'confirmed', 'rejected'] as const;
const WITHDRAWAL_STATUSES = ['pending', 'approved', 'rejected'] as const;

/**
 * The list of deposits or withdrawals: pending ones first by default, cards
 * at phone width, a table on desktop with the request's own columns between
 * the amount and the status, and the decision buttons on each row.
 */
const MoneyRequestList = ({
  resource,
  kind,
  statuses,
  actions,
  children,
}: {
  resource: string;
  kind: 'deposits' | 'withdrawals';
  statuses: readonly string[];
  actions: ReactNode;
  children: ReactNode;
}) => {
  const isPhone = useIsPhone();
  const translate = useTranslate();
  const dateTime = useDateTime();
  const filters = useMemo(
    () => [<SelectInput key="status" source="status" label="admin.fields.status" choices={statusChoices(statuses)} alwaysOn />],
    [statuses],
  );
  return (
    <List
      resource={resource}
      title={translate(`admin.${kind}.title`)}
      filters={filters}
      filterDefaultValues={{ status: 'pending' }}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={20} pagination={<ConsolePagination />}
      exporter={false}
    >
      {isPhone ? (
        <SimpleList<AdminDeposit | AdminWithdrawal>
          primaryText={(r) => amountText(r.amount, r.asset)}
          secondaryText={(r) => r.userEmail}
          tertiaryText={(r) => `${translate(`wallet.status.${r.status}`)} · ${dateTime(r.createdAt)}`}
          linkType="show"
        />
      ) : (
        <Datagrid rowClick="show" bulkActionButtons={false}>
          <DateTimeText source="createdAt" label="admin.fields.createdAt" />
          <TextField source="userEmail" label="admin.fields.user" sortable={false} />
          <UsdtField source="amount" label="admin.fields.amount" />
          {children}
          <StatusChip label="admin.fields.status" />
          <TextField source="reason" label="admin.fields.reason" emptyText="—" sortable={false} />
          {actions}
        </Datagrid>
      )}
    </List>
  );
};

export const DepositList = () => (
  <MoneyRequestList resource={DEPOSITS} kind="deposits" statuses={DEPOSIT_STATUSES} actions={<DepositActions label="admin.fields.actions" />}>
    <TextField source="txHash" label="admin.fields.txHash" emptyText="—" sx={{ wordBreak: 'break-all' }} sortable={false} />
  </MoneyRequestList>
);

const DepositShowActions = () => (
  <TopToolbar>
    <DepositActions size="medium" />
  </TopToolbar>
);

export const DepositShow = () => {
  const translate = useTranslate();
  return (
    <Show resource={DEPOSITS} title={translate('admin.deposits.showTitle')} actions={<DepositShowActions />}>
      <SimpleShowLayout>
        <TextField source="userEmail" label="admin.fields.user" />
        <UsdtField source="amount" label="admin.fields.amount" />
        <TextField source="asset" label="admin.fields.asset" />
        <TextField source="address" label="admin.fields.address" sx={{ wordBreak: 'break-all' }} />
        <TextField source="txHash" label="admin.fields.txHash" emptyText="—" sx={{ wordBreak: 'break-all' }} />
        <Labeled label="admin.fields.status">
          <StatusChip />
        </Labeled>
        <TextField source="reason" label="admin.fields.reason" emptyText="—" />
        <DateTimeText source="createdAt" label="admin.fields.createdAt" />
        <DateTimeText source="decidedAt" label="admin.fields.decidedAt" />
      </SimpleShowLayout>
    </Show>
  );
};

// ---------------------------------------------------------------------------------------------
// Withdrawals: approve (optionally with the chain transaction hash) or reject with a reason
// (the held amount and fee go back to the user).

const WithdrawalActions = ({ size = 'small' }: { label?: string; size?: 'small' | 'medium' }) => {
  const record = useRecordContext<AdminWithdrawal>();
  const translate = useTranslate();
  const [dialog, setDialog] = useState<'approve' | 'reject' | null>(null);
  const approve = useDecision<AdminWithdrawal>(WITHDRAWALS, 'admin.withdrawals.approved');
  const reject = useDecision<AdminWithdrawal>(WITHDRAWALS, 'admin.withdrawals.rejected');
  const close = () => setDialog(null);
  if (!record || record.status !== 'pending') return null;
  const what = { amount: amountText(record.amount, record.asset), email: record.userEmail, address: record.address };
  return (
    <Stack direction="row" spacing={1} onClick={stopRowClick} data-actions={record.id} sx={noWrapButtons}>
      <Button size={size} variant="contained" color="success" startIcon={<CheckIcon />} onClick={() => setDialog('approve')}>
        {translate('admin.withdrawals.approve')}
      </Button>
      <Button size={size} variant="outlined" color="error" startIcon={<CloseIcon />} onClick={() => setDialog('reject')}>
        {translate('admin.reject')}
      </Button>
      <TextPromptDialog
        open={dialog === 'approve'}
        title={translate('admin.withdrawals.approveTitle')}
        text={translate('admin.withdrawals.approveText', what)}
        fieldLabel={translate('admin.fields.txHash')}
        required={false}
        confirmLabel={translate('admin.withdrawals.approve')}
        pending={approve.isPending}
        onClose={() => setDialog(null)}
        onSubmit={(txHash) => approve.decide(record, txHash ? { status: 'approved', txHash } : { status: 'approved' }, close)}
      />
      <TextPromptDialog
        open={dialog === 'reject'}
        title={translate('admin.withdrawals.rejectTitle')}
        text={translate('admin.withdrawals.rejectText', what)}
        fieldLabel={translate('admin.reason')}
        required
        confirmLabel={translate('admin.reject')}
        pending={reject.isPending}
        onClose={() => setDialog(null)}
        onSubmit={(reason) => reject.decide(record, { status: 'rejected', reason }, close)}
      />
    </Stack>
  );
};

export const WithdrawalList = () => (
  <MoneyRequestList resource={WITHDRAWALS} kind="withdrawals" statuses={WITHDRAWAL_STATUSES} actions={<WithdrawalActions label="admin.fields.actions" />}>
    <UsdtField source="fee" label="admin.fields.fee" sortable={false} />
    <TextField source="address" label="admin.fields.address" sx={{ wordBreak: 'break-all' }} sortable={false} />
  </MoneyRequestList>
);

const WithdrawalShowActions = () => (
  <TopToolbar>
    <WithdrawalActions size="medium" />
  </TopToolbar>
);

export const WithdrawalShow = () => {
  const translate = useTranslate();
  return (
    <Show resource={WITHDRAWALS} title={translate('admin.withdrawals.showTitle')} actions={<WithdrawalShowActions />}>
      <SimpleShowLayout>
        <TextField source="userEmail" label="admin.fields.user" />
        <UsdtField source="amount" label="admin.fields.amount" />
        <UsdtField source="fee" label="admin.fields.fee" />
        <TextField source="asset" label="admin.fields.asset" />
        <TextField source="address" label="admin.fields.address" sx={{ wordBreak: 'break-all' }} />
        <TextField source="txHash" label="admin.fields.txHash" emptyText="—" sx={{ wordBreak: 'break-all' }} />
        <Labeled label="admin.fields.status">
          <StatusChip />
        </Labeled>
        <TextField source="reason" label="admin.fields.reason" emptyText="—" />
        <DateTimeText source="createdAt" label="admin.fields.createdAt" />
        <DateTimeText source="decidedAt" label="admin.fields.decidedAt" />
      </SimpleShowLayout>
    </Show>
  );
};
