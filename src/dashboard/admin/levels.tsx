import { Typography } from '@mui/material';
import {
  Create,
  Datagrid,
  DeleteButton,
  Edit,
  List,
  NumberField,
  NumberInput,
  SaveButton,
  SimpleForm,
  SimpleList,
  TextInput,
  Toolbar,
  minValue,
  number,
  required,
  useGetList,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import type { AdminLevel } from '../../api/admin';
import { count, money, PercentField, UsdtField, ConsolePagination } from './common';
import { useIsPhone } from '../kit/responsive';

export const LEVELS = 'admin/levels';

const FIELDS = ['minDirect', 'minTeam', 'minTeamVolume', 'fuelDiscountPercent', 'taskLimit'] as const;
type LevelFields = Pick<AdminLevel, (typeof FIELDS)[number]>;

/** Form values as the contract types them (counts are integers, decimals stay strings); on an edit only what changed. */
export const levelBody = (data: Partial<AdminLevel>, previous?: Partial<AdminLevel>): Partial<LevelFields> => {
  const body: Partial<LevelFields> = {};
  for (const key of FIELDS) {
    const raw = data[key];
    if (raw === undefined || raw === null) continue;
    const value = key === 'minTeamVolume' || key === 'fuelDiscountPercent' ? String(raw).trim() : Number(raw);
    if (previous === undefined || String(value) !== String(previous[key])) (body as Record<string, unknown>)[key] = value;
  }
  return body;
};

const LevelInputs = () => {
  const translate = useTranslate();
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2, maxWidth: 560 }}>
        {translate('admin.levels.hint')}
      </Typography>
      <NumberInput source="minDirect" label="admin.levels.fields.minDirect" validate={count} step={1} />
      <NumberInput source="minTeam" label="admin.levels.fields.minTeam" validate={count} step={1} />
      <TextInput source="minTeamVolume" label="admin.levels.fields.minTeamVolume" validate={money} />
      <TextInput source="fuelDiscountPercent" label="admin.levels.fields.fuelDiscountPercent" validate={money} />
      <NumberInput source="taskLimit" label="admin.levels.fields.taskLimit" validate={[required(), number(), minValue(1)]} step={1} />
    </>
  );
};

export const LevelList = () => {
  const isPhone = useIsPhone();
  const translate = useTranslate();
  return (
    <List resource={LEVELS} title={translate('admin.levels.title')} sort={{ field: 'level', order: 'ASC' }} perPage={50} pagination={<ConsolePagination />} exporter={false}>
      {isPhone ? (
        <SimpleList<AdminLevel>
          primaryText={(l) => translate('admin.levels.editTitle', { level: l.level })}
          secondaryText={(l) =>
            `${translate('admin.levels.fields.minDirect')} ${l.minDirect} · ${translate('admin.levels.fields.minTeam')} ${l.minTeam} · ${translate('admin.levels.fields.taskLimit')} ${l.taskLimit}`
          }
          linkType="edit"
        />
      ) : (
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <NumberField source="level" label="admin.levels.fields.level" />
          <NumberField source="minDirect" label="admin.levels.fields.minDirect" sortable={false} />
          <NumberField source="minTeam" label="admin.levels.fields.minTeam" sortable={false} />
          <UsdtField source="minTeamVolume" label="admin.levels.fields.minTeamVolume" sortable={false} />
          <PercentField source="fuelDiscountPercent" label="admin.levels.fields.fuelDiscountPercent" sortable={false} />
          <NumberField source="taskLimit" label="admin.levels.fields.taskLimit" sortable={false} />
        </Datagrid>
      )}
    </List>
  );
};

const LevelTitle = () => {
  const record = useRecordContext<AdminLevel>();
  const translate = useTranslate();
  return <span>{translate('admin.levels.editTitle', { level: record?.level ?? '' })}</span>;
};

/** Save, and remove for the top level only (the server refuses any other, and level 0). */
const EditToolbar = () => {
  const record = useRecordContext<AdminLevel>();
  const top = useGetList<AdminLevel>(LEVELS, { pagination: { page: 1, perPage: 1 }, sort: { field: 'level', order: 'DESC' } });
  const removable = record !== undefined && record.level > 0 && top.data?.[0]?.level === record.level;
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      {removable && <DeleteButton mutationMode="pessimistic" successMessage="admin.levels.removed" />}
    </Toolbar>
  );
};

export const LevelEdit = () => (
  <Edit
    resource={LEVELS}
    title={<LevelTitle />}
    mutationMode="pessimistic"
    redirect="list"
    transform={(data: AdminLevel, options?: { previousData?: AdminLevel }) => levelBody(data, options?.previousData ?? data)}
  >
    <SimpleForm toolbar={<EditToolbar />} sx={{ maxWidth: 560 }}>
      <LevelInputs />
    </SimpleForm>
  </Edit>
);

export const LevelCreate = () => {
  const translate = useTranslate();
  return (
    <Create resource={LEVELS} title={translate('admin.levels.createTitle')} redirect="list" transform={(data: AdminLevel) => levelBody(data)}>
      <SimpleForm toolbar={<Toolbar><SaveButton /></Toolbar>} sx={{ maxWidth: 560 }}>
        <LevelInputs />
      </SimpleForm>
    </Create>
  );
};
