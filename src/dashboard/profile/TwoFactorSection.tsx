import { Alert, AlertTitle, Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { toDataURL } from 'qrcode';
import { useEffect, useState } from 'react';
import { Confirm, useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { TotpSetup } from '../../api/security';
import { CopyField, useCopy } from '../kit/copy';
import { QueryView } from '../kit/LoadError';
import { Section } from '../kit/Section';
import { DemoLocked } from '../kit/demo';
import { useStepUpAction } from '../kit/StepUp';
import { useServerErrors } from '../kit/forms';
import { profileKeys, useApi, useSecurityStatus } from './api';
import { formatDateTime } from './format';

/** The QR code of the otpauth:// URI, drawn in the browser (the secret never leaves the page). */
const QrCode = ({ uri }: { uri: string }) => {
  const translate = useTranslate();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void toDataURL(uri, { margin: 1, width: 192 }).then((url) => live && setSrc(url));
    return () => {
      live = false;
    };
  }, [uri]);
  return src ? <Box component="img" src={src} alt={translate('profile.security.totp.qr')} data-totp-qr sx={{ width: 192, height: 192, alignSelf: { xs: 'center', sm: 'flex-start' } }} /> : <Box sx={{ width: 192, height: 192 }} />;
};

/** Step 1 and 2 of turning on: scan (or type the key), then confirm with a first code. */
const Enrol = ({ setup, onEnabled }: { setup: TotpSetup; onEnabled: (codes: string[]) => void }) => {
  const translate = useTranslate();
  const api = useApi();
  const serverErrors = useServerErrors();
  const [code, setCode] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setPending(true);
    setError(null);
    try {
      onEnabled((await api.totpEnable({ code })).recoveryCodes);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      serverErrors(caught);
    } finally {
      setPending(false);
    }
  };
  return (
    <Stack spacing={2} data-totp-enrol sx={{ maxWidth: 560 }}>
      <Typography variant="body2">{translate('profile.security.totp.scan')}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, minWidth: 0 }}>
        <QrCode uri={setup.uri} />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <CopyField label={translate('profile.security.totp.key')} value={setup.secret} name="totp-secret" mono />
        </Box>
      </Stack>
      <Typography variant="body2">{translate('profile.security.totp.confirmHint')}</Typography>
      {error && <Alert severity="error">{error}</Alert>}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
          label={translate('profile.security.totp.code')}
          slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 6, 'data-totp-code': true } }}
          size="small"
        />
        <Button variant="contained" disabled={pending || !/^[0-9]{6}$/.test(code)} onClick={() => void confirm()}>
          {translate('profile.security.totp.confirm')}
        </Button>
      </Stack>
    </Stack>
  );
};

/** The ten recovery codes, shown once: copy, download, then gone. */
export const RecoveryCodesOnce = ({ codes, onDone }: { codes: string[]; onDone: () => void }) => {
  const translate = useTranslate();
  const copy = useCopy('profile.security.totp.codesCopied');
  const text = codes.join('\n');
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <Alert severity="warning" data-recovery-codes sx={{ minWidth: 0 }}>
      <AlertTitle>{translate('profile.security.totp.recoveryTitle')}</AlertTitle>
      <Typography variant="body2" sx={{ mb: 1.5 }}>
        {translate('profile.security.totp.recoveryHint')}
      </Typography>
      <Box
        component="ol"
        sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, max-content)', lg: 'repeat(5, max-content)' }, columnGap: 5, rowGap: 0.5, pl: 3, m: 0, mb: 1.5, fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', whiteSpace: 'nowrap' }}
      >
        {codes.map((code) => (
          <li key={code} data-recovery-code={code}>
            {code}
          </li>
        ))}
      </Box>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button size="small" variant="outlined" onClick={() => void copy(text)}>
          {translate('profile.security.totp.copyCodes')}
        </Button>
        <Button size="small" variant="outlined" onClick={download}>
          {translate('profile.security.totp.download')}
        </Button>
        <Button size="small" variant="contained" onClick={onDone}>
          {translate('profile.security.totp.saved')}
        </Button>
      </Stack>
    </Alert>
  );
};

/** Profile > Security: the authenticator app (TOTP) on or off, and the recovery codes shown once (README "Second factors"). */
export const TwoFactorSection = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const api = useApi();
  const queryClient = useQueryClient();
  const serverErrors = useServerErrors();
  const status = useSecurityStatus();
  const stepUp = useStepUpAction();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [confirmOff, setConfirmOff] = useState(false);
  const [pending, setPending] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: profileKeys.securityStatus });

  const start = async () => {
    setPending(true);
    try {
      setSetup(await api.totpSetup());
    } catch (error) {
      serverErrors(error);
    } finally {
      setPending(false);
    }
  };
  const turnOff = async () => {
    setConfirmOff(false);
    await stepUp.perform((secondFactor) => api.totpDisable(secondFactor), { notice: () => translate('profile.security.totp.disabled'), done: () => void refresh() });
  };

  return (
    <Section name="two-factor" title={translate('profile.security.totp.title')}>
      {stepUp.dialog}
      <QueryView query={status}>
        {(data) => {
          const totp = data.factors.find((factor) => factor.kind === 'totp');
          return (
            <Stack spacing={2} sx={{ minWidth: 0 }}>
              <Typography variant="body2" color="text.secondary">
                {translate('profile.security.totp.hint')}
              </Typography>
              {data.withdrawalsHeldUntil && (
                <Alert severity="warning" data-withdrawals-held>
                  {translate('profile.security.totp.held', { time: formatDateTime(data.withdrawalsHeldUntil, locale) })}
                </Alert>
              )}
              {codes ? (
                <RecoveryCodesOnce codes={codes} onDone={() => setCodes(null)} />
              ) : data.locked ? (
                <DemoLocked />
              ) : totp ? (
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }} data-totp-status="on">
                  <Typography sx={{ flex: 1 }}>
                    {translate('profile.security.totp.on', { time: formatDateTime(totp.enabledAt, locale) })}
                    <br />
                    <Typography component="span" variant="body2" color="text.secondary">
                      {translate('profile.security.totp.codesLeft', { count: data.recoveryCodesLeft })}
                    </Typography>
                  </Typography>
                  <Box>
                    <Button variant="outlined" color="error" onClick={() => setConfirmOff(true)}>
                      {translate('profile.security.totp.turnOff')}
                    </Button>
                  </Box>
                </Stack>
              ) : setup ? (
                <Enrol
                  setup={setup}
                  onEnabled={(recoveryCodes) => {
                    setSetup(null);
                    setCodes(recoveryCodes);
                    notify(translate('profile.security.totp.enabled'), { type: 'success' });
                    void refresh();
                  }}
                />
              ) : (
                <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }} data-totp-status="off">
                  <Typography sx={{ flex: 1 }}>{translate('profile.security.totp.off')}</Typography>
                  <Button variant="contained" disabled={pending} onClick={() => void start()}>
                    {translate('profile.security.totp.turnOn')}
                  </Button>
                </Stack>
              )}
            </Stack>
          );
        }}
      </QueryView>
      <Confirm
        isOpen={confirmOff}
        title={translate('profile.security.totp.offTitle')}
        content={translate('profile.security.totp.offText')}
        onConfirm={() => void turnOff()}
        onClose={() => setConfirmOff(false)}
      />
    </Section>
  );
};
