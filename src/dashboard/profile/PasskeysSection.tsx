import KeyIcon from '@mui/icons-material/Key';
import { Alert, Box, Button, List, ListItem, ListItemText, Stack, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Confirm, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { PASSKEY_NAME_MAX, type PasskeyInfo } from '../../api/security';
import { isApiError } from '../../dataProvider/ApiError';
import { QueryView } from '../kit/LoadError';
import { Section } from '../kit/Section';
import { DemoLocked } from '../kit/demo';
import { createPasskey, passkeysSupported } from '../kit/passkey';
import { isStepUpCancelled, useStepUpAction } from '../kit/StepUp';
import { useServerErrors } from '../kit/forms';
import { profileKeys, useApi, useSecurityStatus } from './api';
import { formatDateTime } from './format';
import { RecoveryCodesOnce } from './TwoFactorSection';

/**
 * Profile > Security: the user's passkeys (README "Passkeys"): add one with a
 * name (step-up once a factor is on), list them, remove one (step-up). The
 * account's first factor shows its ten recovery codes once.
 */
export const PasskeysSection = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const api = useApi();
  const queryClient = useQueryClient();
  const serverErrors = useServerErrors();
  const status = useSecurityStatus();
  const stepUp = useStepUpAction();
  const [name, setName] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [removing, setRemoving] = useState<PasskeyInfo | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: profileKeys.securityStatus });

  const add = async () => {
    setPending(true);
    setError(null);
    try {
      let response: Record<string, unknown>;
      try {
        response = await createPasskey(await api.passkeyRegistrationOptions());
      } catch (caught) {
        if (isApiError(caught)) throw caught;
        setError(translate('profile.security.passkeys.failed'));
        return;
      }
      const answer = await stepUp.run((secondFactor) => api.passkeyRegister({ name: name.trim(), response }, secondFactor));
      setName('');
      if (answer.recoveryCodes) setCodes(answer.recoveryCodes);
      notify(translate('profile.security.passkeys.added'), { type: 'success' });
      void refresh();
    } catch (caught) {
      if (!isStepUpCancelled(caught)) {
        setError(isApiError(caught) ? caught.localizedMessage() : String(caught));
        serverErrors(caught);
      }
    } finally {
      setPending(false);
    }
  };

  const remove = async (passkey: PasskeyInfo) => {
    setRemoving(null);
    await stepUp.perform((secondFactor) => api.passkeyRemove(passkey.id, secondFactor), { notice: () => translate('profile.security.passkeys.removed'), done: () => void refresh() });
  };

  return (
    <Section name="passkeys" title={translate('profile.security.passkeys.title')}>
      {stepUp.dialog}
      <QueryView query={status}>
        {(data) => (
          <Stack spacing={2} sx={{ minWidth: 0 }}>
            <Typography variant="body2" color="text.secondary">
              {translate('profile.security.passkeys.hint')}
            </Typography>
            {codes && <RecoveryCodesOnce codes={codes} onDone={() => setCodes(null)} />}
            {data.passkeys.length === 0 ? (
              <Typography data-passkeys="none">{translate('profile.security.passkeys.none')}</Typography>
            ) : (
              <List dense disablePadding data-passkeys="list">
                {data.passkeys.map((passkey) => (
                  <ListItem
                    key={passkey.id}
                    disableGutters
                    data-passkey={passkey.name}
                    secondaryAction={
                      data.locked ? undefined : (
                        <Button size="small" color="error" onClick={() => setRemoving(passkey)}>
                          {translate('profile.security.passkeys.remove')}
                        </Button>
                      )
                    }
                    sx={{ pr: 10 }}
                  >
                    <KeyIcon fontSize="small" sx={{ mr: 1.5, color: 'text.secondary' }} />
                    <ListItemText
                      primary={passkey.name}
                      secondary={[
                        translate('profile.security.passkeys.created', { time: formatDateTime(passkey.createdAt, locale) }),
                        passkey.lastUsedAt ? translate('profile.security.passkeys.lastUsed', { time: formatDateTime(passkey.lastUsedAt, locale) }) : null,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                      slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
                    />
                  </ListItem>
                ))}
              </List>
            )}
            {error && <Alert severity="error">{error}</Alert>}
            {data.locked ? (
              <DemoLocked />
            ) : !passkeysSupported() ? (
              <Alert severity="info">{translate('profile.security.passkeys.unsupported')}</Alert>
            ) : (
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
                <TextField
                  value={name}
                  onChange={(event) => setName(event.target.value.slice(0, PASSKEY_NAME_MAX))}
                  label={translate('profile.security.passkeys.name')}
                  helperText={translate('profile.security.passkeys.nameHelp')}
                  size="small"
                  sx={{ width: { xs: '100%', sm: 320 } }}
                  slotProps={{ htmlInput: { maxLength: PASSKEY_NAME_MAX, 'data-passkey-name': true } }}
                />
                <Box>
                  <Button variant="contained" startIcon={<KeyIcon />} disabled={pending || name.trim() === ''} onClick={() => void add()} sx={{ whiteSpace: 'nowrap' }}>
                    {translate('profile.security.passkeys.add')}
                  </Button>
                </Box>
              </Stack>
            )}
          </Stack>
        )}
      </QueryView>
      <Confirm
        isOpen={removing !== null}
        title={translate('profile.security.passkeys.removeTitle', { name: removing?.name ?? '' })}
        content={translate('profile.security.passkeys.removeText')}
        onConfirm={() => removing && void remove(removing)}
        onClose={() => setRemoving(null)}
      />
    </Section>
  );
};
