import { Alert, Box, Button, Chip, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { ErrorCode } from '../../api/errors';
import type { NotifyChannelsState, TelegramLinkAnswer } from '../../api/notifyChannels';
import { WEBHOOK_URL_MAX } from '../../api/notifyChannels';
import { isApiError } from '../../dataProvider/ApiError';
import { CopyField } from '../kit/copy';
import { QueryView } from '../kit/LoadError';
import { Section } from '../kit/Section';
import { formatDateTime } from '../kit/time';
import { Screen } from '../layout/Screen';
import { useChannelAction, useChannels } from './api';
import { currentSubscription, pushSupported, subscribeThisBrowser } from './pushSubscription';

const errorText = (error: unknown, translate: (key: string) => string): string => {
  if (isApiError(error) && error.code === ErrorCode.PARAM_FORMAT) {
    const reason = (error.data as { reason?: string } | null)?.reason;
    if (reason === 'private_address') return translate('notifyChannels.webhook.privateAddress');
    if (reason === 'unresolved') return translate('notifyChannels.webhook.unresolved');
  }
  return error instanceof Error ? error.message : String(error);
};

const TelegramSection = ({ state, link, onLink }: { state: NonNullable<NotifyChannelsState['telegram']>; link: TelegramLinkAnswer | null; onLink: (link: TelegramLinkAnswer | null) => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const create = useChannelAction((api) => api.telegramLink());
  const unlink = useChannelAction((api) => api.telegramUnlink());
  // When the link was made: a chat linked since then (a new linkedAt) ends the wait, also when another chat was linked before.
  const [linkedBefore, setLinkedBefore] = useState<string | null>(null);
  useEffect(() => {
    if (link && state.linked && state.linkedAt !== linkedBefore) onLink(null);
  }, [state.linked, state.linkedAt, linkedBefore, link, onLink]);
  const start = () =>
    create.mutate(undefined, {
      onSuccess: (answer) => {
        setLinkedBefore(state.linkedAt);
        onLink(answer);
      },
      onError: (error) => notify(errorText(error, translate), { type: 'error' }),
    });
  return (
    <Section name="telegram" title={translate('notifyChannels.telegram.title')}>
      <Stack spacing={1.5}>
        {state.disabledReason && <Alert severity="warning">{translate('notifyChannels.telegram.turnedOff', { reason: state.disabledReason })}</Alert>}
        <Box>
          <Chip color={state.linked ? 'success' : 'default'} label={state.linked ? translate('notifyChannels.telegram.linked', { time: formatDateTime(state.linkedAt, locale) }) : translate('notifyChannels.telegram.notLinked')} />
        </Box>
        {link ? (
          <Stack spacing={1} data-state="waiting">
            <Typography variant="body2">{translate('notifyChannels.telegram.linkHint', { time: formatDateTime(link.expiresAt, locale) })}</Typography>
            <CopyField name="telegram-link" mono label={translate('notifyChannels.telegram.linkAddress')} value={link.url} />
            <Box>
              <Button variant="contained" href={link.url} target="_blank" rel="noopener noreferrer">
                {translate('notifyChannels.telegram.open')}
              </Button>
            </Box>
            <Typography variant="body2" color="text.secondary" role="status">
              {translate('notifyChannels.telegram.waiting')}
            </Typography>
          </Stack>
        ) : (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Button variant={state.linked ? 'outlined' : 'contained'} onClick={start} disabled={create.isPending}>
              {translate('notifyChannels.telegram.link')}
            </Button>
            {state.linked && (
              <Button color="error" onClick={() => unlink.mutate(undefined)} disabled={unlink.isPending}>
                {translate('notifyChannels.telegram.unlink')}
              </Button>
            )}
          </Stack>
        )}
      </Stack>
    </Section>
  );
};

const PushSection = ({ state }: { state: NotifyChannelsState['push'] }) => {
  const translate = useTranslate();
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const subscribe = useChannelAction((api, payload: Parameters<typeof api.pushSubscribe>[0]) => api.pushSubscribe(payload));
  const unsubscribe = useChannelAction((api, address: string) => api.pushUnsubscribe(address));
  const supported = pushSupported();
  useEffect(() => {
    if (supported) void currentSubscription().then((subscription) => setEndpoint(subscription?.endpoint ?? null), () => setEndpoint(null));
  }, [supported]);

  const enable = async () => {
    setProblem(null);
    try {
      const payload = await subscribeThisBrowser(state.publicKey);
      if (payload === 'denied') return setProblem(translate('notifyChannels.push.denied'));
      await subscribe.mutateAsync(payload);
      setEndpoint(payload.endpoint);
    } catch (error) {
      setProblem(translate('notifyChannels.push.failed', { reason: errorText(error, translate) }));
    }
  };
  const disable = async () => {
    setProblem(null);
    try {
      const subscription = await currentSubscription();
      await subscription?.unsubscribe();
      if (endpoint) await unsubscribe.mutateAsync(endpoint);
      setEndpoint(null);
    } catch (error) {
      setProblem(translate('notifyChannels.push.failed', { reason: errorText(error, translate) }));
    }
  };

  return (
    <Section name="push" title={translate('notifyChannels.push.title')}>
      <Stack spacing={1.5}>
        <Typography variant="body2" color="text.secondary">
          {translate('notifyChannels.push.browsers', { count: state.subscriptions })}
        </Typography>
        {!supported ? (
          <Alert severity="info">{translate('notifyChannels.push.unsupported')}</Alert>
        ) : endpoint ? (
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Chip color="success" label={translate('notifyChannels.push.on')} />
            <Button onClick={() => void disable()} disabled={unsubscribe.isPending}>
              {translate('notifyChannels.push.disable')}
            </Button>
          </Stack>
        ) : (
          <Box>
            <Button variant="contained" onClick={() => void enable()} disabled={subscribe.isPending}>
              {translate('notifyChannels.push.enable')}
            </Button>
          </Box>
        )}
        {problem && <Alert severity="warning">{problem}</Alert>}
      </Stack>
    </Section>
  );
};

const WebhookSection = ({ state }: { state: NotifyChannelsState['webhook'] }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [url, setUrl] = useState(state?.url ?? '');
  const [secret, setSecret] = useState<string | null>(null);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [test, setTest] = useState<{ ok: boolean; error: string | null } | null>(null);
  const save = useChannelAction((api, newSecret: boolean) => api.webhookSave({ url: url.trim(), ...(newSecret ? { newSecret } : {}) }));
  const remove = useChannelAction((api) => api.webhookDelete());
  const send = useChannelAction((api) => api.webhookTest());

  const submit = (newSecret: boolean) => {
    setUrlError(null);
    setTest(null);
    if (!/^https?:\/\/\S+$/.test(url.trim())) return setUrlError(translate('ra.validation.required'));
    save.mutate(newSecret, {
      onSuccess: (answer) => {
        if (answer.secret) setSecret(answer.secret);
        notify(translate('notifyChannels.webhook.saved'), { type: 'success' });
      },
      onError: (error) => setUrlError(errorText(error, translate)),
    });
  };

  return (
    <Section name="webhook" title={translate('notifyChannels.webhook.title')}>
      <Stack spacing={1.5} sx={{ maxWidth: 640 }}>
        <Typography variant="body2" color="text.secondary">
          {translate('notifyChannels.webhook.hint')}
        </Typography>
        {state && !state.enabled && state.disabledReason && <Alert severity="warning">{translate('notifyChannels.webhook.turnedOff', { reason: state.disabledReason })}</Alert>}
        <TextField
          label={translate('notifyChannels.webhook.url')}
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          error={!!urlError}
          helperText={urlError ?? ' '}
          slotProps={{ htmlInput: { maxLength: WEBHOOK_URL_MAX, inputMode: 'url', name: 'webhook-url' } }}
          fullWidth
        />
        {secret && (
          <Stack spacing={1}>
            <Alert severity="info">{translate('notifyChannels.webhook.secretOnce')}</Alert>
            <CopyField name="webhook-secret" mono label={translate('notifyChannels.webhook.secret')} value={secret} />
          </Stack>
        )}
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button variant="contained" onClick={() => submit(false)} disabled={save.isPending}>
            {translate('notifyChannels.webhook.save')}
          </Button>
          {state && (
            <>
              <Button onClick={() => send.mutate(undefined, { onSuccess: setTest, onError: (error) => setTest({ ok: false, error: errorText(error, translate) }) })} disabled={send.isPending}>
                {translate('notifyChannels.webhook.test')}
              </Button>
              <Button onClick={() => submit(true)} disabled={save.isPending}>
                {translate('notifyChannels.webhook.newSecret')}
              </Button>
              <Button color="error" onClick={() => remove.mutate(undefined, { onSuccess: () => (setSecret(null), setTest(null), setUrl('')) })} disabled={remove.isPending}>
                {translate('notifyChannels.webhook.remove')}
              </Button>
            </>
          )}
        </Stack>
        {test && (
          <Alert severity={test.ok ? 'success' : 'error'} role="status">
            {test.ok ? translate('notifyChannels.webhook.testOk') : translate('notifyChannels.webhook.testFailed', { error: test.error ?? '' })}
          </Alert>
        )}
      </Stack>
    </Section>
  );
};

/** Telegram, this browser's web push and a webhook: linked, turned on and tested here. */
export const ChannelsPage = () => {
  const translate = useTranslate();
  const [link, setLink] = useState<TelegramLinkAnswer | null>(null);
  const channels = useChannels(link !== null);
  return (
    <Screen titleKey="page.notifyChannels">
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary">
          {translate('notifyChannels.intro')}
        </Typography>
        <QueryView query={channels} skeletons={3}>
          {(state) => (
            <Stack spacing={2}>
              {state.telegram && <TelegramSection state={state.telegram} link={link} onLink={setLink} />}
              <PushSection state={state.push} />
              <WebhookSection state={state.webhook} />
            </Stack>
          )}
        </QueryView>
      </Stack>
    </Screen>
  );
};
