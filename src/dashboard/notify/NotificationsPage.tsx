import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  FormControlLabel,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Pagination,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { NOTIFICATION_KINDS, NOTIFICATION_TIMINGS, isAlwaysByEmail, isPaperPriceNotice, type NotificationKind, type NotificationTiming } from '../../api/notify';
import { EmptyLine, QueryView } from '../kit/LoadError';
import { formatDateTime } from '../kit/time';
import { Screen } from '../layout/Screen';
import { useChannelsState, useMarkRead, useNotifications, usePreferences, useSavePreference, useSaveTiming } from './api';
import { useNotifyPollMs } from './liveNotifications';
import { kindLabelKey, notificationText } from './text';

const PAGE_SIZE = 20;
const CHANNELS_PAGE = '/profile/notification-channels';

/** A channel a fault turned off (a blocked bot, a webhook gone), until the user links it again. */
const ChannelsOff = () => {
  const translate = useTranslate();
  const state = useChannelsState().data;
  const off = [
    ...(state?.telegram?.disabledReason ? (['telegram'] as const) : []),
    ...(state?.webhook && !state.webhook.enabled ? (['webhook'] as const) : []),
  ];
  return (
    <>
      {off.map((channel) => (
        <Alert
          key={channel}
          severity="warning"
          data-channel-off={channel}
          action={
            <Button color="inherit" size="small" component={Link} to={CHANNELS_PAGE}>
              {translate('notify.openChannels')}
            </Button>
          }
          sx={{ flexWrap: 'wrap' }}
        >
          {translate(`notify.channelOff.${channel}`)}
        </Alert>
      ))}
    </>
  );
};

const Inbox = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [unread, setUnread] = useState(false);
  const [kind, setKind] = useState<NotificationKind | ''>('');
  const [page, setPage] = useState(1);
  const query = useNotifications({ unread, kind, page }, PAGE_SIZE, useNotifyPollMs());
  const markRead = useMarkRead();
  return (
    <Stack spacing={2}>
      <ChannelsOff />
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <TextField
          select
          size="small"
          label={translate('notify.kindFilter')}
          value={kind}
          onChange={(event) => {
            setKind(event.target.value as NotificationKind | '');
            setPage(1);
          }}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="">{translate('notify.all')}</MenuItem>
          {NOTIFICATION_KINDS.map((value) => (
            <MenuItem key={value} value={value}>
              {translate(kindLabelKey(value))}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={
            <Switch
              checked={unread}
              onChange={(_, checked) => {
                setUnread(checked);
                setPage(1);
              }}
            />
          }
          label={translate('notify.unread')}
        />
        <Box sx={{ flexGrow: 1 }} />
        <Button onClick={() => markRead.mutate({ all: true })} disabled={markRead.isPending}>
          {translate('notify.markAllRead')}
        </Button>
      </Stack>
      <QueryView query={query}>
        {(data) =>
          data.list.length === 0 ? (
            <EmptyLine text={translate('notify.empty')} />
          ) : (
            <>
              <List disablePadding>
                {data.list.map((item) => (
                  <ListItem
                    key={item.id}
                    divider
                    data-read={item.read}
                    sx={{ flexWrap: 'wrap', gap: 1, bgcolor: item.read ? undefined : 'action.hover' }}
                  >
                    <ListItemText
                      primary={notificationText(item, translate, locale)}
                      secondary={`${translate(kindLabelKey(item.kind))} · ${formatDateTime(item.createdAt, locale)}`}
                      sx={{ minWidth: 0, overflowWrap: 'anywhere', fontWeight: item.read ? undefined : 600 }}
                      slotProps={{ primary: { sx: { fontWeight: item.read ? 400 : 600 } } }}
                    />
                    <Stack direction="row" spacing={1}>
                      {item.taskId && (
                        <Button size="small" component={Link} to={`/trade/detail/${item.taskId}`}>
                          {translate('notify.openTask')}
                        </Button>
                      )}
                      {isPaperPriceNotice(item.kind) && (
                        <Button size="small" component={Link} to="/exchange">
                          {translate('page.exchange')}
                        </Button>
                      )}
                      {item.kind === 'user.channel_disabled' && (
                        <Button size="small" component={Link} to={CHANNELS_PAGE}>
                          {translate('notify.openChannels')}
                        </Button>
                      )}
                      {!item.read && (
                        <Button size="small" onClick={() => markRead.mutate({ ids: [item.id] })} disabled={markRead.isPending}>
                          {translate('notify.markRead')}
                        </Button>
                      )}
                    </Stack>
                  </ListItem>
                ))}
              </List>
              {data.total > PAGE_SIZE && (
                <Pagination count={Math.ceil(data.total / PAGE_SIZE)} page={page} onChange={(_, next) => setPage(next)} sx={{ alignSelf: 'center' }} />
              )}
            </>
          )
        }
      </QueryView>
    </Stack>
  );
};

/** The kinds stay in view while a phone scrolls the channels sideways. */
const kindCellSx = { position: 'sticky', left: 0, zIndex: 1, bgcolor: 'background.paper' } as const;

const Preferences = () => {
  const translate = useTranslate();
  const query = usePreferences();
  const save = useSavePreference();
  const saveTiming = useSaveTiming();
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {translate('notify.preferences')}
        </Typography>
        <QueryView query={query}>
          {(data) => (
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small">
                <TableHead>
                  <TableRow>
                    <TableCell sx={kindCellSx} />
                    {data.channels.map((channel) => (
                      <TableCell key={channel} align="center" sx={{ whiteSpace: 'nowrap', px: 1 }}>
                        {translate(`notify.channel.${channel}`)}
                      </TableCell>
                    ))}
                    {/* The one header that may wrap: the table fits a phone with the in-app and e-mail channels. */}
                    <TableCell sx={{ px: 1, minWidth: 96 }}>{translate('notify.timing.title')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {NOTIFICATION_KINDS.map((kind) => (
                    <TableRow key={kind}>
                      <TableCell component="th" scope="row" sx={kindCellSx}>
                        {translate(kindLabelKey(kind))}
                      </TableCell>
                      {data.channels.map((channel) => {
                        const fixed = channel === 'email' && isAlwaysByEmail(kind);
                        const enabled = fixed || (data.list.find((p) => p.kind === kind && p.channel === channel)?.enabled ?? false);
                        return (
                          <TableCell key={channel} align="center" padding="checkbox">
                            <Checkbox
                              checked={enabled}
                              disabled={save.isPending || fixed}
                              title={fixed ? translate('notify.alwaysByEmail') : undefined}
                              slotProps={{ input: { 'aria-label': `${translate(kindLabelKey(kind))} · ${translate(`notify.channel.${channel}`)}` } }}
                              onChange={(_, checked) => save.mutate({ kind, channel, enabled: checked })}
                            />
                          </TableCell>
                        );
                      })}
                      <TableCell sx={{ px: 1 }}>
                        {isAlwaysByEmail(kind) ? (
                          <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
                            {translate('notify.timing.immediate')}
                          </Typography>
                        ) : (
                          <TextField
                            select
                            size="small"
                            variant="standard"
                            value={data.timing.find((t) => t.kind === kind)?.timing ?? 'immediate'}
                            disabled={saveTiming.isPending}
                            onChange={(event) => saveTiming.mutate({ kind, timing: event.target.value as NotificationTiming })}
                            slotProps={{ htmlInput: { 'aria-label': `${translate(kindLabelKey(kind))} · ${translate('notify.timing.title')}` } }}
                          >
                            {NOTIFICATION_TIMINGS.map((timing) => (
                              <MenuItem key={timing} value={timing}>
                                {translate(`notify.timing.${timing}`)}
                              </MenuItem>
                            ))}
                          </TextField>
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          )}
        </QueryView>
      </CardContent>
    </Card>
  );
};

/** The inbox (filters, mark read, links to the task) and the preferences per kind and channel. */
export const NotificationsPage = () => (
  <Screen titleKey="page.notifications">
    <Stack spacing={3}>
      <Inbox />
      <Preferences />
    </Stack>
  </Screen>
);
