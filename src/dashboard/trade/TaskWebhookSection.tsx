import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOffOutlined';
import { Box, Button, IconButton, List, ListItem, ListItemText, MenuItem, Paper, Skeleton, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { Confirm, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { ALERT_ACTIONS, type AlertAction } from '../../api/conditions';
import type { TaskEvent, TradeTaskDetail } from '../../api/trade';
import type { TaskAlertRecord, TaskWebhook } from '../../api/webhook';
import { useCopy } from '../kit/copy';
import { LoadError } from '../kit/LoadError';
import { formatPrice } from '../kit/money';
import { SectionTitle, sectionSx as section } from '../kit/Section';
import { useTaskWebhook, useTaskWebhookChange } from './api';
import { alertOutcomeText, formatTime, refusalText } from './taskText';

const MASK = '••••••••••••';
const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 14, overflowWrap: 'anywhere', wordBreak: 'break-all' } as const;

/** A value with its copy button; `shown` is what the page shows of it (the secret masked). */
const Copyable = ({ label, value, shown = value, name, children }: { label: string; value: string; shown?: string; name: string; children?: ReactNode }) => {
  const translate = useTranslate();
  const copy = useCopy('tasks.signals.webhook.copied');
  return (
    <Box sx={{ minWidth: 0 }} data-copy={name}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0, bgcolor: 'action.hover', borderRadius: 1, pl: 1.5 }}>
        <Typography component="div" sx={{ ...mono, flexGrow: 1, minWidth: 0, py: 1, whiteSpace: 'pre-wrap' }}>
          {shown}
        </Typography>
        {children}
        <Tooltip title={translate('tasks.signals.webhook.copy')}>
          <IconButton onClick={() => void copy(value)} aria-label={translate('tasks.signals.webhook.copyNamed', { what: label })}>
            <ContentCopyIcon />
          </IconButton>
        </Tooltip>
      </Stack>
    </Box>
  );
};

/** What an alert asked and came to, and what the robot then did with it (its `alert_acted` / `alert_ignored` event). */
const AlertLine = ({ alert, events, tick }: { alert: TaskAlertRecord; events: TaskEvent[]; tick: string | null }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const did = events.find((event) => (event.kind === 'alert_acted' || event.kind === 'alert_ignored') && event.data.alert === alert.alertId);
  const line = translate('tasks.signals.webhook.alertLine', {
    action: translate(`tasks.alertActions.${alert.action}`),
    outcome: translate(`tasks.signals.webhook.outcome.${alert.outcome}`),
  });
  const price = alert.price ? translate('tasks.signals.webhook.alertPrice', { ticker: alert.ticker ?? '—', price: formatPrice(alert.price, locale, tick) }) : null;
  return (
    <ListItem disableGutters data-alert={alert.alertId} data-outcome={alert.outcome} sx={{ alignItems: 'flex-start' }}>
      <ListItemText
        sx={{ my: 0.25, minWidth: 0 }}
        primary={did ? `${line} · ${alertOutcomeText(did, translate)}` : line}
        secondary={[formatTime(alert.receivedAt, locale), price].filter(Boolean).join(' · ')}
        slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
      />
    </ListItem>
  );
};

/** The webhook once on: its address, secret and message to paste into TradingView, its action, and its last alerts. */
const WebhookOn = ({ task, webhook }: { task: TradeTaskDetail; webhook: TaskWebhook }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const { save, off } = useTaskWebhookChange(task.id);
  const [shown, setShown] = useState(false);
  const [action, setAction] = useState<AlertAction>(webhook.action);
  const [confirm, setConfirm] = useState<'rotate' | 'off' | null>(null);
  const t = (key: string, options?: object) => translate(`tasks.signals.webhook.${key}`, options);
  const refused = (error: unknown) => notify(refusalText(error, translate, locale), { type: 'error' });
  const changed = action !== webhook.action;
  // The message carries the secret: hidden with it.
  const template = shown ? webhook.template : webhook.template.split(webhook.secret).join(MASK);
  return (
    <Stack spacing={2}>
      <Copyable label={t('url')} value={webhook.url} name="url" />
      <Copyable label={t('secret')} value={webhook.secret} shown={shown ? webhook.secret : MASK} name="secret">
        <Tooltip title={t(shown ? 'hide' : 'show')}>
          <IconButton onClick={() => setShown((value) => !value)} aria-label={t(shown ? 'hide' : 'show')} aria-pressed={shown}>
            {shown ? <VisibilityOffIcon /> : <VisibilityIcon />}
          </IconButton>
        </Tooltip>
      </Copyable>
      <Copyable label={t('template')} value={webhook.template} shown={template} name="template" />
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <TextField select size="small" label={t('action')} value={action} onChange={(event) => setAction(event.target.value as AlertAction)} sx={{ minWidth: 180, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}>
          {ALERT_ACTIONS.map((each) => (
            <MenuItem key={each} value={each}>
              {translate(`tasks.alertActions.${each}`)}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="outlined" disabled={save.isPending} onClick={() => setConfirm('rotate')}>
          {t(changed ? 'save' : 'rotate')}
        </Button>
        <Button color="error" disabled={off.isPending} onClick={() => setConfirm('off')}>
          {t('turnOff')}
        </Button>
      </Stack>
      <Box>
        <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
          {t('alerts')}
        </Typography>
        {webhook.alerts.length === 0 ? (
          <Typography color="text.secondary">{t('noAlerts')}</Typography>
        ) : (
          <List dense disablePadding aria-label={t('alerts')}>
            {webhook.alerts.map((alert) => (
              <AlertLine key={alert.alertId} alert={alert} events={task.events} tick={task.tickSize} />
            ))}
          </List>
        )}
      </Box>
      <Confirm
        isOpen={confirm === 'rotate'}
        loading={save.isPending}
        title={t(changed ? 'save' : 'rotate')}
        content={t('rotateConfirm')}
        onClose={() => setConfirm(null)}
        onConfirm={() =>
          save.mutate(action, {
            onSuccess: () => notify(changed ? t('saved', { action: translate(`tasks.alertActions.${action}`) }) : t('rotated'), { type: 'success' }),
            onError: refused,
            onSettled: () => setConfirm(null),
          })
        }
      />
      <Confirm
        isOpen={confirm === 'off'}
        loading={off.isPending}
        title={t('turnOff')}
        content={t('turnOffConfirm')}
        confirmColor="warning"
        onClose={() => setConfirm(null)}
        onConfirm={() => off.mutate(undefined, { onSuccess: () => notify(t('turnedOff'), { type: 'success' }), onError: refused, onSettled: () => setConfirm(null) })}
      />
    </Stack>
  );
};

/** No webhook yet: what it is for, the action its alerts take, and the button that turns it on. */
const WebhookOff = ({ task }: { task: TradeTaskDetail }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const { save } = useTaskWebhookChange(task.id);
  const [action, setAction] = useState<AlertAction>('start_cycle');
  const t = (key: string) => translate(`tasks.signals.webhook.${key}`);
  return (
    <Stack spacing={1.5}>
      <Typography color="text.secondary">{t('off')}</Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <TextField select size="small" label={t('action')} value={action} onChange={(event) => setAction(event.target.value as AlertAction)} sx={{ minWidth: 180, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}>
          {ALERT_ACTIONS.map((each) => (
            <MenuItem key={each} value={each}>
              {translate(`tasks.alertActions.${each}`)}
            </MenuItem>
          ))}
        </TextField>
        <Button
          variant="contained"
          disabled={save.isPending || task.finished}
          onClick={() => save.mutate(action, { onSuccess: () => notify(t('turnedOn'), { type: 'success' }), onError: (error) => notify(refusalText(error, translate, locale), { type: 'error' }) })}
        >
          {t('turnOn')}
        </Button>
      </Stack>
    </Stack>
  );
};

/** The task's TradingView webhook (issue 29): turn it on, paste it into TradingView, rotate its secret, turn it off; its recent alerts. */
export const TaskWebhookSection = ({ task }: { task: TradeTaskDetail }) => {
  const translate = useTranslate();
  const webhook = useTaskWebhook(task.id);
  return (
    <Paper sx={section} data-section="webhook">
      <SectionTitle gutterBottom>{translate('tasks.signals.webhook.title')}</SectionTitle>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('tasks.signals.webhook.intro')}
      </Typography>
      {webhook.error && webhook.data === undefined ? (
        <LoadError error={webhook.error} onRetry={() => void webhook.refetch()} />
      ) : webhook.data === undefined ? (
        <Skeleton variant="rounded" height={80} />
      ) : webhook.data === null ? (
        <WebhookOff task={task} />
      ) : (
        // A new secret or action starts the form again from what the server keeps.
        <WebhookOn key={`${webhook.data.rotatedAt}-${webhook.data.action}`} task={task} webhook={webhook.data} />
      )}
    </Paper>
  );
};
