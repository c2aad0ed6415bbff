import { Button, Chip } from '@mui/material';
import { useState } from 'react';
import type { AppDataProvider } from '../../dataProvider/dataProvider';
import { isApiError } from '../../dataProvider/ApiError';
import {
  BooleanField,
  BooleanInput,
  Datagrid,
  Edit,
  FunctionField,
  Labeled,
  List,
  NullableBooleanInput,
  NumberField,
  NumberInput,
  SaveButton,
  SearchInput,
  SelectInput,
  SimpleForm,
  SimpleList,
  TextField,
  Toolbar,
  minValue,
  number,
  required,
  Confirm,
  useDataProvider,
  useLocaleState,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import type { AdminUser } from '../../api/admin';
import { formatAsset } from '../../api/format';
import { DateTimeText, UsdtField, useDateTime, ConsolePagination } from './common';
import { useIsPhone } from '../kit/responsive';

export const USERS = 'admin/users';

/** The fields an operator may change; the edit call carries only the changed ones. */
const EDITABLE = ['level', 'activated', 'disabled'] as const;

const roleChoices = [
  { id: 'user', name: 'admin.users.roles.user' },
  { id: 'operator', name: 'admin.users.roles.operator' },
];

const userFilters = (translate: (key: string) => string) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={translate('admin.users.search')} />,
  <NumberInput key="level" source="level" label="admin.users.fields.level" min={0} step={1} />,
  <NullableBooleanInput key="activated" source="activated" label="admin.users.fields.activated" />,
  <NullableBooleanInput key="disabled" source="disabled" label="admin.users.fields.disabled" />,
  <SelectInput key="role" source="role" label="admin.users.fields.role" choices={roleChoices} />,
];

const RoleChip = (_: { label?: string }) => {
  const record = useRecordContext<AdminUser>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Chip
      size="small"
      color={record.role === 'operator' ? 'secondary' : 'default'}
      variant="outlined"
      label={translate(`admin.users.roles.${record.role}`)}
    />
  );
};

export const UserList = () => {
  const isPhone = useIsPhone();
  const translate = useTranslate();
  const dateTime = useDateTime();
  const [locale] = useLocaleState();
  return (
    <List
      resource={USERS}
      title={translate('admin.users.title')}
      filters={userFilters(translate)}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={20} pagination={<ConsolePagination />}
      exporter={false}
    >
      {isPhone ? (
        <SimpleList<AdminUser>
          primaryText={(user) => user.email}
          secondaryText={(user) =>
            `${user.nickname} · ${translate('admin.users.levelShort', { level: user.level })} · ${translate(
              user.activated ? 'admin.users.activatedYes' : 'admin.users.activatedNo',
            )}${user.disabled ? ` · ${translate('admin.users.disabledYes')}` : ''}`
          }
          tertiaryText={(user) => dateTime(user.createdAt)}
          linkType="edit"
        />
      ) : (
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <TextField source="email" label="admin.users.fields.email" />
          <TextField source="nickname" label="admin.users.fields.nickname" />
          <RoleChip label="admin.users.fields.role" />
          <NumberField source="level" label="admin.users.fields.level" />
          <BooleanField source="activated" label="admin.users.fields.activated" />
          <BooleanField source="disabled" label="admin.users.fields.disabled" />
          <FunctionField<AdminUser> source="usdt" label="admin.users.fields.usdt" render={(record) => formatAsset(record.usdt, 'USDT', locale)} />
          <TextField source="inviterEmail" label="admin.users.fields.inviter" emptyText="—" sortable={false} />
          <DateTimeText source="createdAt" label="admin.users.fields.createdAt" />
        </Datagrid>
      )}
    </List>
  );
};

/**
 * For a user who lost their authenticator and recovery codes: removes every second factor, holds
 * the user's withdrawals for 24 hours, and writes an audit line (README "Second factors").
 */
const ResetSecondFactor = () => {
  const record = useRecordContext<AdminUser>();
  const translate = useTranslate();
  const notify = useNotify();
  const api = useDataProvider<AppDataProvider>();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  if (!record) return null;
  const reset = async () => {
    setPending(true);
    try {
      await api.adminResetSecondFactor(String(record.id));
      notify(translate('admin.users.resetFactorDone'), { type: 'success' });
    } catch (error) {
      notify(isApiError(error) ? error.localizedMessage() : String(error), { type: 'error' });
    } finally {
      setPending(false);
      setOpen(false);
    }
  };
  return (
    <>
      <Button color="warning" variant="outlined" disabled={pending} onClick={() => setOpen(true)} data-action="reset-second-factor">
        {translate('admin.users.resetFactor')}
      </Button>
      <Confirm
        isOpen={open}
        loading={pending}
        title={translate('admin.users.resetFactorTitle')}
        content={translate('admin.users.resetFactorText', { email: record.email })}
        onConfirm={() => void reset()}
        onClose={() => setOpen(false)}
      />
    </>
  );
};

const UserTitle = () => {
  const record = useRecordContext<AdminUser>();
  const translate = useTranslate();
  return <span>{translate('admin.users.editTitle', { email: record?.email ?? '' })}</span>;
};

/** The edit body: the id and only what changed among level, activated and disabled. */
export const userEditBody = (data: Partial<AdminUser>, previous: Partial<AdminUser> | undefined) => {
  const body: Partial<Pick<AdminUser, (typeof EDITABLE)[number]>> = {};
  for (const key of EDITABLE) {
    if (data[key] !== undefined && data[key] !== previous?.[key]) (body as Record<string, unknown>)[key] = data[key];
  }
  return body;
};

export const UserEdit = () => (
  <Edit
    resource={USERS}
    title={<UserTitle />}
    mutationMode="pessimistic"
    transform={(data: AdminUser, options?: { previousData?: AdminUser }) => userEditBody(data, options?.previousData)}
  >
    <SimpleForm
      toolbar={
        <Toolbar sx={{ gap: 1, flexWrap: 'wrap' }}>
          <SaveButton />
          <ResetSecondFactor />
        </Toolbar>
      }
      sx={{ maxWidth: 560 }}
    >
      <Labeled label="admin.users.fields.email">
        <TextField source="email" />
      </Labeled>
      <Labeled label="admin.users.fields.nickname">
        <TextField source="nickname" />
      </Labeled>
      <Labeled label="admin.users.fields.role">
        <RoleChip />
      </Labeled>
      <Labeled label="admin.users.fields.usdt">
        <UsdtField source="usdt" label="admin.users.fields.usdt" />
      </Labeled>
      <NumberInput source="level" label="admin.users.fields.level" min={0} step={1} validate={[required(), number(), minValue(0)]} />
      <BooleanInput source="activated" label="admin.users.fields.activated" />
      <BooleanInput source="disabled" label="admin.users.fields.disabled" helperText="admin.users.disabledHelp" />
    </SimpleForm>
  </Edit>
);
