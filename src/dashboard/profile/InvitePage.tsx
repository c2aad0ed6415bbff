import GroupsIcon from '@mui/icons-material/Groups';
import { Alert, Box, Button, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { Screen } from '../layout/Screen';
import { CopyField } from '../kit/copy';
import { QueryView } from '../kit/LoadError';
import { Section } from '../kit/Section';
import { Stat, statGrid } from '../kit/Stat';
import { inviteLink } from '../kit/queries';
import { useInviteInfo } from './api';
import { formatAsset } from '../../api/format';

/** The invite link as a QR code (an SVG made by the `qrcode` library, loaded only on this page). */
const QrCode = ({ text, label }: { text: string; label: string }) => {
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((qr) => qr.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } }))
      .then((markup) => live && setSvg(markup))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [text]);
  if (failed) return null;
  if (!svg) return <Skeleton variant="rounded" width={184} height={184} />;
  return (
    <Box
      component="img"
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt={label}
      data-qr={text}
      sx={{ width: 184, height: 184, display: 'block', bgcolor: '#fff', borderRadius: 1, border: 1, borderColor: 'divider' }}
    />
  );
};

/** `/profile/invite`: my invite code and link (with its QR code), how many I brought, and the reward. */
export const InvitePage = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const info = useInviteInfo();
  return (
    <Screen titleKey="page.invite">
      <QueryView query={info} skeletons={2} height={140}>
        {(data) => {
          const link = inviteLink(data.registerPath);
          return (
            <Stack spacing={2}>
              <Paper sx={{ p: { xs: 2, md: 3 } }} data-section="invite">
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: { xs: 'center', sm: 'flex-start' } }}>
                  <Stack spacing={2} sx={{ flexGrow: 1, minWidth: 0, width: '100%' }}>
                    <CopyField name="code" mono label={translate('profile.invite.code')} value={data.inviteCode} copyLabel={translate('profile.invite.copyCode')} />
                    <CopyField name="link" label={translate('profile.invite.link')} value={link} copyLabel={translate('profile.invite.copyLink')} />
                  </Stack>
                  <Stack spacing={0.5} sx={{ alignItems: 'center', flexShrink: 0 }}>
                    <QrCode text={link} label={translate('profile.invite.qr')} />
                    <Typography variant="caption" color="text.secondary">
                      {translate('profile.invite.scan')}
                    </Typography>
                  </Stack>
                </Stack>
              </Paper>
              <Section
                name="counts"
                title={translate('profile.invite.counts')}
                action={
                  <Button component={Link} to="/profile/community" size="small" startIcon={<GroupsIcon />}>
                    {translate('page.community')}
                  </Button>
                }
              >
                <Box sx={statGrid(2)}>
                  <Stat name="direct" label={translate('profile.invite.direct')} value={data.direct} />
                  <Stat name="team" label={translate('profile.invite.team')} value={data.team} />
                </Box>
              </Section>
              <Alert severity="info" data-section="reward">
                {Number(data.rewardPoints) > 0
                  ? translate('profile.invite.reward', { points: formatAsset(data.rewardPoints, 'POINTS', locale) })
                  : translate('profile.invite.noReward')}
              </Alert>
            </Stack>
          );
        }}
      </QueryView>
    </Screen>
  );
};
