import ReplayIcon from '@mui/icons-material/Replay';
import { Box, Button, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  Datagrid,
  List,
  NumberField,
  RecordContextProvider,
  SelectInput,
  TextField,
  WithListContext,
  useDataProvider,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { DELIVERY_STATUSES, type AdminNotificationDelivery } from '../../api/admin';
import { NOTIFICATION_CHANNELS } from '../../api/notify';
import type { AppDataProvider } from '../../dataProvider/dataProvider';
import { useIsPhone } from '../kit/responsive';
import { ConsolePagination, DateTimeText, stopRowClick, useDateTime, useDecision } from './common';

export const DELIVERIES = 'admin/notification-deliveries';

const CHANNELS = NOTIFICATION_CHANNELS.filter((c) => c !== 'inapp');
const STATUS_COLOR = { pending: 'warning', sent: 'success', dead: 'error' } as const;

const deliveryFilters = [
  <SelectInput key="status" source="status" label="admin.fields.status" choices={DELIVERY_STATUSES.map((id) => ({ id, name: `admin.deliveries.status.${id}` }))} alwaysOn />,
  <SelectInput key="channel" source="channel" label="admin.deliveries.fields.channel" choices={CHANNELS.map((id) => ({ id, name: `notify.channel.${id}` }))} alwaysOn />,
];

/** The outbox's messages per channel and status, above the list (loaded again with it after a retry). */
const DeliveryCounts = () => {
  const api = useDataProvider<AppDataProvider>();
  const translate = useTranslate();
  const { data } = useQuery({ queryKey: ['admin', 'notification-counts'], queryFn: ({ signal }) => api.adminNotificationCounts(signal) });
  if (!data) return null;
  return (
    <Box component="section" aria-label={translate('admin.deliveries.counts')} sx={{ mt: 2, mb: 1 }}>
      <Typography variant="subtitle2" component="h2" gutterBottom>
        {translate('admin.deliveries.counts')}
      </Typography>
      {data.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate('admin.deliveries.noCounts')}
        </Typography>
      ) : (
        <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(4, minmax(0, 1fr))' } }}>
          {data.map((row) => (
            <Card key={row.channel} variant="outlined" data-channel={row.channel}>
              <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {translate(`notify.channel.${row.channel}`, { _: row.channel })}
                </Typography>
                {DELIVERY_STATUSES.map((status) => (
                  <Typography key={status} variant="body2" color={status === 'dead' && row.dead > 0 ? 'error' : 'text.secondary'} data-status={status}>
                    {translate(`admin.deliveries.status.${status}`)} {row[status]}
                  </Typography>
                ))}
              </CardContent>
            </Card>
          ))}
        </Box>
      )}
    </Box>
  );
};

const StatusText = (_: { label?: string; sortBy?: string }) => {
  const record = useRecordContext<AdminNotificationDelivery>();
  const translate = useTranslate();
  if (!record) return null;
  return <Chip size="small" variant="outlined" color={STATUS_COLOR[record.status]} label={translate(`admin.deliveries.status.${record.status}`)} />;
};

const useKindText = () => {
  const translate = useTranslate();
  return (record: AdminNotificationDelivery) => {
    const kind = translate(`notify.kind.${record.kind.replaceAll('.', '_')}`, { _: record.kind });
    return record.events > 1 ? `${kind} ${translate('admin.deliveries.more', { count: record.events - 1 })}` : kind;
  };
};

const KindText = (_: { label?: string }) => {
  const record = useRecordContext<AdminNotificationDelivery>();
  const kindText = useKindText();
  return record ? <span>{kindText(record)}</span> : null;
};

const ChannelText = (_: { label?: string; sortBy?: string }) => {
  const record = useRecordContext<AdminNotificationDelivery>();
  const translate = useTranslate();
  return record ? <span>{translate(`notify.channel.${record.channel}`, { _: record.channel })}</span> : null;
};

/** A dead message back to pending (attempts from zero): the outbox's next pass sends it. */
const RetryButton = (_: { label?: string }) => {
  const record = useRecordContext<AdminNotificationDelivery>();
  const translate = useTranslate();
  const retry = useDecision<AdminNotificationDelivery>(DELIVERIES, 'admin.deliveries.retried');
  if (!record || record.status !== 'dead') return null;
  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={<ReplayIcon />}
      disabled={retry.isPending}
      onClick={(event) => {
        stopRowClick(event);
        retry.decide(record, { status: 'pending' });
      }}
      sx={{ whiteSpace: 'nowrap' }}
    >
      {translate('admin.deliveries.retry')}
    </Button>
  );
};

/** At phone width: one card a message, its error whole (wrapped), the retry under it. */
const DeliveryCards = () => {
  const translate = useTranslate();
  const dateTime = useDateTime();
  const kindText = useKindText();
  return (
    <WithListContext<AdminNotificationDelivery>
      render={({ data }) => (
        <Stack spacing={1} sx={{ p: 1 }}>
          {(data ?? []).map((record) => (
            <RecordContextProvider key={record.id} value={record}>
              <Card variant="outlined" data-delivery={record.id}>
                <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
                    <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                      {record.userEmail}
                    </Typography>
                    <StatusText />
                  </Stack>
                  <Typography variant="body2">
                    {translate(`notify.channel.${record.channel}`, { _: record.channel })} · {kindText(record)}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {translate('admin.deliveries.fields.attempts')} {record.attempts} · {dateTime(record.lastAttemptAt ?? record.createdAt)}
                  </Typography>
                  {record.lastError && (
                    <Typography variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }}>
                      {record.lastError}
                    </Typography>
                  )}
                  <Box sx={{ mt: 1 }}>
                    <RetryButton />
                  </Box>
                </CardContent>
              </Card>
            </RecordContextProvider>
          ))}
        </Stack>
      )}
    />
  );
};

/** The notifications outbox's messages, the dead ones first shown, with the counts per channel and status. */
export const DeliveryList = () => {
  const isPhone = useIsPhone();
  const translate = useTranslate();
  return (
    <>
      <DeliveryCounts />
      <List
        resource={DELIVERIES}
        title={translate('admin.deliveries.title')}
        filters={deliveryFilters}
        filterDefaultValues={{ status: 'dead' }}
        sort={{ field: 'createdAt', order: 'DESC' }}
        perPage={20}
        pagination={<ConsolePagination />}
        exporter={false}
      >
        {isPhone ? (
          <DeliveryCards />
        ) : (
          <Datagrid bulkActionButtons={false} rowClick={false}>
            <DateTimeText source="createdAt" label="admin.deliveries.fields.time" />
            <TextField source="userEmail" label="admin.fields.user" sortable={false} />
            <ChannelText label="admin.deliveries.fields.channel" sortBy="channel" />
            <KindText label="admin.deliveries.fields.kind" />
            <NumberField source="attempts" label="admin.deliveries.fields.attempts" />
            <DateTimeText source="lastAttemptAt" label="admin.deliveries.fields.lastAttempt" />
            <TextField source="lastError" label="admin.deliveries.fields.lastError" emptyText="—" sortable={false} sx={{ wordBreak: 'break-word', maxWidth: 360, display: 'inline-block' }} />
            <StatusText label="admin.fields.status" sortBy="status" />
            <RetryButton label="admin.fields.actions" />
          </Datagrid>
        )}
      </List>
    </>
  );
};
