import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DevicesIcon from '@mui/icons-material/Devices';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import WidgetsIcon from '@mui/icons-material/WidgetsOutlined';
import { Accordion, AccordionDetails, AccordionSummary, Alert, AlertTitle, Box, Button, Chip, List, ListItem, ListItemIcon, ListItemText, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Confirm, Form, PasswordInput, TextInput, maxLength, required, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { ErrorCode } from '../../api/errors';
import type { ChangePasswordPayload, UserSession } from '../../api/member';
import { WIDGET_GRANT_LIMIT, WIDGET_GRANT_NAME_MAX, WIDGET_ORIGIN_MAX, parseWidgetOrigin, type WidgetGrant, type WidgetGrantIssued } from '../../api/widget';
import { isApiError } from '../../dataProvider/ApiError';
import { rules, useServerErrors } from '../kit/forms';
import { CopyField, useCopy } from '../kit/copy';
import { EmptyLine, QueryView } from '../kit/LoadError';
import { Section } from '../kit/Section';
import { Screen } from '../layout/Screen';
import { DemoLocked, useIsDemo } from '../kit/demo';
import { profileKeys, useApi, useIssueWidgetGrant, useRevokeSession, useRevokeWidgetGrant, useSessions, useWidgetGrants } from './api';
import { AntiPhishing } from './AntiPhishing';
import { formatDateTime } from './format';
import { deviceLabel } from './userAgent';
import { isStepUpCancelled, useStepUp } from '../kit/StepUp';
import { ChangeEmailSection } from './ChangeEmailSection';
import { PasskeysSection } from './PasskeysSection';
import { TwoFactorSection } from './TwoFactorSection';

const PasswordFields = ({ pending }: { pending: boolean }) => {
  const translate = useTranslate();
  return (
    <Stack sx={{ maxWidth: 480 }}>
      <PasswordInput source="oldPassword" autoComplete="current-password" label={translate('profile.security.oldPassword')} validate={rules.password.slice(0, 1)} fullWidth />
      <PasswordInput source="newPassword" autoComplete="new-password" label={translate('auth.newPassword')} validate={rules.password} helperText={translate('auth.passwordHelp')} fullWidth />
      <PasswordInput
        source="secondPassword"
        autoComplete="new-password"
        label={translate('auth.secondPassword')}
        validate={[...rules.password, rules.sameAs('newPassword')]}
        fullWidth
      />
      <Box>
        <Button type="submit" variant="contained" disabled={pending}>
          {translate('profile.security.submit')}
        </Button>
      </Box>
    </Stack>
  );
};

/** Clears the fields after a change (inside the form, where react-hook-form's reset is). */
const ResetOnDone = ({ done }: { done: number }) => {
  const { reset } = useFormContext();
  useEffect(() => {
    if (done > 0) reset({ oldPassword: '', newPassword: '', secondPassword: '' });
  }, [done, reset]);
  return null;
};

const ChangePassword = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const api = useApi();
  const queryClient = useQueryClient();
  const serverErrors = useServerErrors();
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(0);
  const stepUp = useStepUp();

  const submit = async (values: Partial<ChangePasswordPayload>) => {
    setPending(true);
    try {
      const payload = { oldPassword: values.oldPassword ?? '', newPassword: values.newPassword ?? '', secondPassword: values.secondPassword ?? '' };
      await stepUp.run((secondFactor) => api.changePassword(payload, secondFactor));
      notify(translate('profile.security.changed'), { type: 'success' });
      setDone((n) => n + 1);
      void queryClient.invalidateQueries({ queryKey: profileKeys.sessions });
      return undefined;
    } catch (error) {
      if (isStepUpCancelled(error)) return undefined;
      if (isApiError(error) && error.code === ErrorCode.PASSWORD_ERROR) {
        notify(error.message, { type: 'error' });
        return { oldPassword: error.message };
      }
      return serverErrors(error);
    } finally {
      setPending(false);
    }
  };

  return (
    <Section name="password" title={translate('profile.security.password')}>
      {stepUp.dialog}
      <Form onSubmit={submit as never} defaultValues={{ oldPassword: '', newPassword: '', secondPassword: '' }} noValidate>
        <ResetOnDone done={done} />
        <PasswordFields pending={pending} />
      </Form>
    </Section>
  );
};

/** A line of the security page that can be ended: what it is, when, and its revoke button. */
const RevocableRow = ({
  data,
  icon,
  primary,
  lines,
  revoke,
}: {
  data: Record<`data-${string}`, string | undefined>;
  icon: ReactNode;
  primary: ReactNode;
  lines: string[];
  revoke?: { label: string; disabled: boolean; onClick: () => void } | undefined;
}) => (
  <ListItem divider disableGutters {...data} sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}>
    <ListItemIcon sx={{ minWidth: 36, mt: 0.5 }}>{icon}</ListItemIcon>
    <ListItemText
      sx={{ minWidth: 0, flex: '1 1 200px' }}
      primary={primary}
      secondary={lines.map((line, index) => (
        <span key={line}>
          {index > 0 && <br />}
          {line}
        </span>
      ))}
      slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } }, secondary: { component: 'span', sx: { overflowWrap: 'anywhere' } } }}
    />
    {revoke && (
      <Button size="small" color="error" variant="outlined" sx={{ flexShrink: 0 }} disabled={revoke.disabled} onClick={revoke.onClick}>
        {revoke.label}
      </Button>
    )}
  </ListItem>
);

const Sessions = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const sessions = useSessions();
  const [toRevoke, setToRevoke] = useState<UserSession | null>(null);
  const revokeSession = useRevokeSession();
  const revoke = {
    isPending: revokeSession.isPending,
    mutate: (id: string) =>
      revokeSession.mutate(id, {
        onSuccess: () => {
          queryClient.setQueryData<UserSession[]>(profileKeys.sessions, (list) => list?.filter((s) => s.id !== id));
          notify(translate('profile.security.revoked'), { type: 'success' });
        },
        onError: (error) => notify(error instanceof Error ? error.message : translate('error.fallback'), { type: 'error' }),
      }),
  };
  const label = (session: UserSession) => deviceLabel(session.userAgent) ?? translate('profile.security.unknownDevice');

  return (
    <Section name="sessions" title={translate('profile.security.sessions')}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('profile.security.sessionsHint')}
      </Typography>
      <QueryView query={sessions} skeletons={2} height={56}>
        {(list) =>
          list.length === 0 ? (
            <EmptyLine text={translate('profile.security.noSessions')} />
          ) : (
            <List disablePadding>
              {list.map((session) => (
                <RevocableRow
                  key={session.id}
                  data={{ 'data-session': session.id, 'data-current': session.current ? 'true' : undefined }}
                  icon={<DevicesIcon color={session.current ? 'primary' : 'action'} />}
                  primary={
                    <Stack direction="row" spacing={1} component="span" sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
                      <span>{label(session)}</span>
                      {session.current && <Chip size="small" color="primary" label={translate('profile.security.current')} />}
                    </Stack>
                  }
                  lines={[
                    translate('profile.security.ip', { ip: session.ip ?? '—' }),
                    translate('profile.security.lastSeen', { time: formatDateTime(session.lastSeenAt, locale) }),
                    translate('profile.security.since', { time: formatDateTime(session.createdAt, locale) }),
                  ]}
                  revoke={session.current ? undefined : { label: translate('profile.security.revoke'), disabled: revoke.isPending, onClick: () => setToRevoke(session) }}
                />
              ))}
            </List>
          )
        }
      </QueryView>
      <Confirm
        isOpen={toRevoke !== null}
        title={translate('profile.security.revokeTitle')}
        content={toRevoke ? translate('profile.security.revokeText', { device: label(toRevoke), ip: toRevoke.ip ?? '—' }) : ''}
        onClose={() => setToRevoke(null)}
        onConfirm={() => {
          if (toRevoke) revoke.mutate(toRevoke.id);
          setToRevoke(null);
        }}
      />
    </Section>
  );
};

/** Where the dashboard's API answers (the widgets call it from the partner's page). */
const apiBase = () => (import.meta.env.VITE_API_BASE || window.location.origin).replace(/\/+$/, '');

/** The embed code of a grant: the widgets' script and the three widgets, carrying its embed token (README "Widget tokens"). */
export const embedCode = (base: string, embedToken: string, locale: string) =>
  [
    `<script src="${base}/widgets/qt-widgets.iife.js"></script>`,
    `<qt-profit-card api-base="${base}" token="${embedToken}" locale="${locale}"></qt-profit-card>`,
    `<qt-task-list api-base="${base}" token="${embedToken}" locale="${locale}" dashboard-url="${base}/"></qt-task-list>`,
    `<qt-wallet-balance api-base="${base}" token="${embedToken}" locale="${locale}"></qt-wallet-balance>`,
  ].join('\n');

/**
 * A new grant, shown this once: first the embed code for the site (its embed
 * token lives until revoked), then, under "Developers", the short-lived token,
 * the partner key and how a partner's server renews tokens with it.
 */
const IssuedGrant = ({ grant, onDone }: { grant: WidgetGrantIssued; onDone: () => void }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const copy = useCopy('profile.security.widgets.embedCopied');
  const base = apiBase();
  const embed = embedCode(base, grant.embedToken, locale);
  const renew = `curl -X PUT ${base}/api/user/widget-token -H 'Content-Type: application/json' -d '{"key":"${grant.key}"}'`;
  return (
    <Stack spacing={1.5} data-state="issued" data-grant={grant.id} sx={{ minWidth: 0 }}>
      <Alert severity="success" sx={{ '& .MuiAlert-message': { minWidth: 0, flexGrow: 1 }, '& .MuiAlert-icon': { display: { xs: 'none', sm: 'flex' } } }}>
        <AlertTitle>{translate('profile.security.widgets.embedTitle')}</AlertTitle>
        <Typography variant="body2" sx={{ mb: 1.5 }}>
          {translate('profile.security.widgets.embedHint', { origin: grant.origin })}
        </Typography>
        <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
          <Button variant="contained" startIcon={<ContentCopyIcon />} onClick={() => void copy(embed)}>
            {translate('profile.security.widgets.copyEmbed')}
          </Button>
          <Box sx={{ alignSelf: 'stretch', minWidth: 0 }}>
            <CopyField name="embed" mono label={translate('profile.security.widgets.embed')} value={embed} />
          </Box>
        </Stack>
      </Alert>
      <Accordion disableGutters variant="outlined" data-fold="developer">
        <AccordionSummary expandIcon={<ExpandMoreIcon />}>
          <Typography>{translate('profile.security.widgets.developer')}</Typography>
        </AccordionSummary>
        <AccordionDetails>
          <Stack spacing={1.5} sx={{ minWidth: 0 }}>
            <Typography variant="body2" color="text.secondary">
              {translate('profile.security.widgets.once')}
            </Typography>
            <CopyField name="widget-token" mono label={translate('profile.security.widgets.token', { time: formatDateTime(grant.expiresAt, locale) })} value={grant.token} />
            <CopyField name="partner-key" mono label={translate('profile.security.widgets.key')} value={grant.key} />
            <CopyField name="renew" mono label={translate('profile.security.widgets.renew')} value={renew} />
          </Stack>
        </AccordionDetails>
      </Accordion>
      <Box>
        <Button variant="outlined" color="inherit" onClick={onDone}>
          {translate('profile.security.widgets.done')}
        </Button>
      </Box>
    </Stack>
  );
};

/** The partner sites allowed to show the user's data with widget tokens: allow one, see them, revoke one. */
const WidgetGrants = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const serverErrors = useServerErrors();
  const grants = useWidgetGrants();
  const issue = useIssueWidgetGrant();
  const stepUp = useStepUp();
  const revoke = useRevokeWidgetGrant();
  const [issued, setIssued] = useState<WidgetGrantIssued | null>(null);
  const [toRevoke, setToRevoke] = useState<WidgetGrant | null>(null);

  const originRule = (value: unknown) => (typeof value === 'string' && value.trim() !== '' && !parseWidgetOrigin(value) ? translate('profile.security.widgets.originInvalid') : undefined);

  const submit = async (values: { name?: string; origin?: string }) => {
    try {
      const origin = values.origin ?? '';
      const request = { name: (values.name ?? '').trim(), origin: parseWidgetOrigin(origin) ?? origin.trim() };
      setIssued(await stepUp.run((secondFactor) => issue.mutateAsync({ request, secondFactor })));
      notify(translate('profile.security.widgets.created'), { type: 'success' });
      return undefined;
    } catch (error) {
      if (isStepUpCancelled(error)) return undefined;
      if (isApiError(error) && error.code === ErrorCode.PARAM_SIZE) {
        const message = translate('profile.security.widgets.limit', { max: WIDGET_GRANT_LIMIT });
        notify(message, { type: 'error' });
        return { name: message };
      }
      return serverErrors(error);
    }
  };

  return (
    <Section name="widget-grants" title={translate('profile.security.widgets.title')}>
      {stepUp.dialog}
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('profile.security.widgets.hint')}
      </Typography>
      {issued ? (
        <IssuedGrant grant={issued} onDone={() => setIssued(null)} />
      ) : (
        <Form onSubmit={submit as never} defaultValues={{ name: '', origin: '' }} noValidate>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={{ xs: 0, md: 1.5 }} sx={{ alignItems: { md: 'flex-start' }, maxWidth: 820 }}>
            <TextInput
              source="name"
              label={translate('profile.security.widgets.name')}
              helperText={translate('profile.security.widgets.nameHelp')}
              validate={[required(), maxLength(WIDGET_GRANT_NAME_MAX)]}
              fullWidth
            />
            <TextInput
              source="origin"
              type="url"
              autoComplete="url"
              label={translate('profile.security.widgets.origin')}
              helperText={translate('profile.security.widgets.originHelp')}
              validate={[required(), maxLength(WIDGET_ORIGIN_MAX), originRule]}
              fullWidth
            />
            <Button type="submit" variant="contained" disabled={issue.isPending} sx={{ mt: 1, flexShrink: 0, whiteSpace: 'nowrap' }}>
              {translate('profile.security.widgets.create')}
            </Button>
          </Stack>
        </Form>
      )}
      <QueryView query={grants} skeletons={1} height={56}>
        {(list) =>
          list.length === 0 ? (
            <EmptyLine text={translate('profile.security.widgets.empty')} />
          ) : (
            <List disablePadding>
              {list.map((grant) => (
                <RevocableRow
                  key={grant.id}
                  data={{ 'data-widget-grant': grant.id }}
                  icon={<WidgetsIcon color="action" />}
                  primary={grant.name}
                  lines={[
                    translate('profile.security.widgets.originLine', { origin: grant.origin ?? translate('profile.security.widgets.noOrigin') }),
                    translate('profile.security.widgets.createdAt', { time: formatDateTime(grant.createdAt, locale) }),
                    translate(grant.origin ? 'profile.security.widgets.lasting' : 'profile.security.widgets.expires', { time: formatDateTime(grant.expiresAt, locale) }),
                    // A partner's server renewed tokens with the key: when it last did.
                    ...(grant.lastIssuedAt !== grant.createdAt ? [translate('profile.security.widgets.lastIssued', { time: formatDateTime(grant.lastIssuedAt, locale) })] : []),
                  ]}
                  revoke={{ label: translate('profile.security.widgets.revoke'), disabled: revoke.isPending, onClick: () => setToRevoke(grant) }}
                />
              ))}
            </List>
          )
        }
      </QueryView>
      <Confirm
        isOpen={toRevoke !== null}
        title={translate('profile.security.widgets.revokeTitle')}
        content={toRevoke ? translate('profile.security.widgets.revokeText', { name: toRevoke.name }) : ''}
        onClose={() => setToRevoke(null)}
        onConfirm={() => {
          if (toRevoke) {
            revoke.mutate(toRevoke.id, {
              onSuccess: () => notify(translate('profile.security.widgets.revoked'), { type: 'success' }),
              onError: (error) => notify(error instanceof Error ? error.message : translate('error.fallback'), { type: 'error' }),
            });
            if (issued?.id === toRevoke.id) setIssued(null);
          }
          setToRevoke(null);
        }}
      />
    </Section>
  );
};

/** `/profile/security`: change the password or the e-mail, see where the account is signed in and end those sessions, and the partner sites allowed to show my data. */
export const SecurityPage = () => {
  const translate = useTranslate();
  // The shared demo account: its password and widget grants are nobody's to change; each visitor sees only their own session.
  const demo = useIsDemo();
  return (
    <Screen titleKey="page.security">
      <Stack spacing={2}>
        <TwoFactorSection />
        <PasskeysSection />
        {demo ? (
          <Section name="password" title={translate('profile.security.password')}>
            <DemoLocked />
          </Section>
        ) : (
          <ChangePassword />
        )}
        <ChangeEmailSection />
        <AntiPhishing />
        <Sessions />
        {demo ? (
          <Section name="widget-grants" title={translate('profile.security.widgets.title')}>
            <DemoLocked />
          </Section>
        ) : (
          <WidgetGrants />
        )}
      </Stack>
    </Screen>
  );
};
