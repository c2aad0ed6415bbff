import DevicesIcon from '@mui/icons-material/Devices';
import { Box, Button, Chip, List, ListItem, ListItemIcon, ListItemText, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Confirm, Form, PasswordInput, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { ErrorCode } from '../../api/errors';
import type { ChangePasswordPayload, UserSession } from '../../api/member';
import { isApiError } from '../../dataProvider/ApiError';
import { rules, useServerErrors } from '../auth/authForm';
import { Screen } from '../layout/Screen';
import { EmptyLine, QueryView, Section, formatDateTime, profileKeys, useApi, useProfileQuery } from './shared';
import { deviceLabel } from './userAgent';

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

  const submit = async (values: Partial<ChangePasswordPayload>) => {
    setPending(true);
    try {
      await api.changePassword({ oldPassword: values.oldPassword ?? '', newPassword: values.newPassword ?? '', secondPassword: values.secondPassword ?? '' });
      notify(translate('profile.security.changed'), { type: 'success' });
      setDone((n) => n + 1);
      void queryClient.invalidateQueries({ queryKey: profileKeys.sessions });
      return undefined;
    } catch (error) {
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
      <Form onSubmit={submit as never} defaultValues={{ oldPassword: '', newPassword: '', secondPassword: '' }} noValidate>
        <ResetOnDone done={done} />
        <PasswordFields pending={pending} />
      </Form>
    </Section>
  );
};

const Sessions = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const api = useApi();
  const queryClient = useQueryClient();
  const sessions = useProfileQuery(profileKeys.sessions, (signal) => api.userSessions(signal));
  const [toRevoke, setToRevoke] = useState<UserSession | null>(null);
  const revoke = useMutation({
    mutationFn: (id: string) => api.revokeSession(id),
    onSuccess: (_, id) => {
      queryClient.setQueryData<UserSession[]>(profileKeys.sessions, (list) => list?.filter((s) => s.id !== id));
      notify(translate('profile.security.revoked'), { type: 'success' });
      void queryClient.invalidateQueries({ queryKey: profileKeys.sessions });
    },
    onError: (error) => notify(error instanceof Error ? error.message : translate('error.fallback'), { type: 'error' }),
  });
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
                <ListItem
                  key={session.id}
                  divider
                  disableGutters
                  data-session={session.id}
                  data-current={session.current ? 'true' : undefined}
                  sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}
                >
                  <ListItemIcon sx={{ minWidth: 36, mt: 0.5 }}>
                    <DevicesIcon color={session.current ? 'primary' : 'action'} />
                  </ListItemIcon>
                  <ListItemText
                    sx={{ minWidth: 0, flex: '1 1 200px' }}
                    primary={
                      <Stack direction="row" spacing={1} component="span" sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
                        <span>{label(session)}</span>
                        {session.current && <Chip size="small" color="primary" label={translate('profile.security.current')} />}
                      </Stack>
                    }
                    secondary={
                      <>
                        <span>{translate('profile.security.ip', { ip: session.ip ?? '—' })}</span>
                        <br />
                        <span>{translate('profile.security.lastSeen', { time: formatDateTime(session.lastSeenAt, locale) })}</span>
                        <br />
                        <span>{translate('profile.security.since', { time: formatDateTime(session.createdAt, locale) })}</span>
                      </>
                    }
                    slotProps={{ secondary: { component: 'span', sx: { overflowWrap: 'anywhere' } } }}
                  />
                  {!session.current && (
                    <Button size="small" color="error" variant="outlined" sx={{ flexShrink: 0 }} disabled={revoke.isPending} onClick={() => setToRevoke(session)}>
                      {translate('profile.security.revoke')}
                    </Button>
                  )}
                </ListItem>
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

/** `/profile/security`: change the password, see where the account is signed in and end those sessions. */
export const SecurityPage = () => (
  <Screen titleKey="page.security">
    <Stack spacing={2}>
      <ChangePassword />
      <Sessions />
    </Stack>
  </Screen>
);
