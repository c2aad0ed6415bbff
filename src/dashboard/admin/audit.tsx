import { Box, Typography } from '@mui/material';
import {
  Datagrid,
  List,
  SimpleList,
  TextField,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import type { AuditEntry } from '../../api/admin';
import { DateTimeText, useDateTime, ConsolePagination } from './common';
import { useIsPhone } from '../kit/responsive';

export const AUDIT = 'admin/audit';

const auditFilters = [
  <TextInput key="action" source="action" label="admin.audit.fields.action" alwaysOn resettable />,
  <TextInput key="operatorId" source="operatorId" label="admin.audit.fields.operatorId" resettable />,
  <TextInput key="targetType" source="targetType" label="admin.audit.fields.targetType" resettable />,
  <TextInput key="targetId" source="targetId" label="admin.audit.fields.targetId" resettable />,
];

const dataText = (data: Record<string, unknown> | undefined) => (data && Object.keys(data).length > 0 ? JSON.stringify(data) : '—');

const Target = (_: { label?: string }) => {
  const record = useRecordContext<AuditEntry>();
  if (!record) return null;
  return <span>{record.targetId ? `${record.targetType} ${record.targetId}` : record.targetType}</span>;
};

/** The action's data, on one shortened line in the table; whole in the expanded row. */
const DataSummary = (_: { label?: string }) => {
  const record = useRecordContext<AuditEntry>();
  const text = dataText(record?.data);
  return (
    <Typography variant="body2" component="span" sx={{ fontFamily: 'monospace', display: 'inline-block', maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', verticalAlign: 'bottom' }} title={text}>
      {text}
    </Typography>
  );
};

const DataPanel = () => {
  const record = useRecordContext<AuditEntry>();
  return (
    <Box component="pre" sx={{ m: 0, p: 1.5, fontSize: 13, whiteSpace: 'pre-wrap', wordBreak: 'break-all', bgcolor: 'action.hover', borderRadius: 1 }}>
      {JSON.stringify(record?.data ?? {}, null, 2)}
    </Box>
  );
};

/** The operators' actions, newest first: read only. */
export const AuditList = () => {
  const isPhone = useIsPhone();
  const translate = useTranslate();
  const dateTime = useDateTime();
  return (
    <List resource={AUDIT} title={translate('admin.audit.title')} filters={auditFilters} sort={{ field: 'createdAt', order: 'DESC' }} perPage={50} pagination={<ConsolePagination />} exporter={false}>
      {isPhone ? (
        <SimpleList<AuditEntry>
          primaryText={(e) => e.action}
          secondaryText={(e) => `${e.operatorEmail} · ${e.targetType}${e.targetId ? ` ${e.targetId}` : ''}`}
          tertiaryText={(e) => dateTime(e.createdAt)}
          linkType={false}
        />
      ) : (
        <Datagrid bulkActionButtons={false} rowClick={false} expand={<DataPanel />}>
          <DateTimeText source="createdAt" label="admin.audit.fields.time" />
          <TextField source="operatorEmail" label="admin.audit.fields.operator" sortable={false} />
          <TextField source="action" label="admin.audit.fields.action" sortable={false} />
          <Target label="admin.audit.fields.target" />
          <DataSummary label="admin.audit.fields.data" />
        </Datagrid>
      )}
    </List>
  );
};
