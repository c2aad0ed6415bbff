import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWallet';
import ArticleIcon from '@mui/icons-material/Article';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import CreditCardIcon from '@mui/icons-material/CreditCard';
import EditIcon from '@mui/icons-material/Edit';
import GroupsIcon from '@mui/icons-material/Groups';
import InsightsIcon from '@mui/icons-material/Insights';
import KeyIcon from '@mui/icons-material/Key';
import LeaderboardIcon from '@mui/icons-material/Leaderboard';
import LocalGasStationIcon from '@mui/icons-material/LocalGasStation';
import LogoutIcon from '@mui/icons-material/Logout';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import SecurityIcon from '@mui/icons-material/Security';
import StarsIcon from '@mui/icons-material/Stars';
import TranslateIcon from '@mui/icons-material/Translate';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import { Box, Button, Chip, List, ListItemButton, ListItemIcon, ListItemText, Paper, Stack, Typography, ListItem } from '@mui/material';
import type { ReactElement } from 'react';
import { useLocaleState, useLogout, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { ASSETS } from '../../api/wallet';
import { LocaleSwitcher } from '../layout/LocaleSwitcher';
import { Screen } from '../layout/Screen';
import { formatSigned, profitColor } from '../kit/money';
import { QueryView } from '../kit/LoadError';
import { Section } from '../kit/Section';
import { Stat, statGrid } from '../kit/Stat';
import { useBalances, useMe, useProfitSummary } from './api';
import { formatAsset } from '../../api/format';
import { UserAvatar } from './UserAvatar';
import { isDemoEmail } from '../../api/demo';
import { useIsDemo } from '../kit/demo';

export const LevelBadge = ({ level }: { level: number }) => {
  const translate = useTranslate();
  return <Chip size="small" color={level > 0 ? 'warning' : 'default'} icon={<WorkspacePremiumIcon />} label={translate('profile.levelName', { level })} data-level={level} />;
};

const Identity = () => {
  const translate = useTranslate();
  const me = useMe();
  return (
    <Paper sx={{ p: { xs: 2, md: 2.5 } }} data-section="identity">
      <QueryView query={me} skeletons={1} height={72}>
        {(user) => (
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', minWidth: 0 }}>
            <UserAvatar avatar={user.avatar} nickname={user.nickname} email={user.email} size={64} />
            <Box sx={{ minWidth: 0, flexGrow: 1 }}>
              <Typography variant="h6" component="p" sx={{ fontWeight: 600 }} noWrap>
                {user.nickname}
              </Typography>
              <Typography variant="body2" color="text.secondary" noWrap>
                {user.email}
              </Typography>
              <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 0.75, flexWrap: 'wrap', alignItems: 'center' }}>
                <LevelBadge level={user.level} />
                {user.activated ? (
                  <Chip size="small" color="success" variant="outlined" icon={<VerifiedUserIcon />} label={translate('profile.activated')} data-activated="true" />
                ) : (
                  <>
                    <Chip size="small" color="default" variant="outlined" label={translate('profile.notActivated')} data-activated="false" />
                    <Button component={Link} to="/profile/activate" size="small" variant="contained" color="warning">
                      {translate('profile.activateNow')}
                    </Button>
                  </>
                )}
              </Stack>
            </Box>
            {!isDemoEmail(user.email) && (
              <Button component={Link} to="/profile/edit" size="small" startIcon={<EditIcon />} sx={{ flexShrink: 0, display: { xs: 'none', sm: 'inline-flex' } }}>
                {translate('profile.editProfile')}
              </Button>
            )}
          </Stack>
        )}
      </QueryView>
    </Paper>
  );
};

const Balances = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const balances = useBalances();
  return (
    <Section
      name="balances"
      title={translate('profile.balances')}
      action={
        <Button component={Link} to="/profile/wallet" size="small" endIcon={<ChevronRightIcon />}>
          {translate('profile.toWallet')}
        </Button>
      }
    >
      <QueryView query={balances} skeletons={1} height={56}>
        {(data) => (
          // Four columns where the card has the page's width, two where it shares it (fuel has eight decimals).
          <Box sx={{ ...statGrid(4), gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(0, 1fr))', lg: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(4, minmax(0, 1fr))' } }}>
            {ASSETS.map((asset) => {
              const row = data.balances.find((b) => b.asset === asset);
              const value = row?.available ?? '0';
              return (
                <Stat
                  key={asset}
                  name={`balance-${asset}`}
                  label={translate(`profile.asset.${asset}`)}
                  value={formatAsset(value, asset, locale)}
                />
              );
            })}
          </Box>
        )}
      </QueryView>
    </Section>
  );
};

const ProfitGlance = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const summary = useProfitSummary();
  return (
    <Section
      name="profit"
      title={translate('profile.profitGlance')}
      action={
        <Button component={Link} to="/profile/profit-detail" size="small" endIcon={<ChevronRightIcon />}>
          {translate('profile.details')}
        </Button>
      }
    >
      <QueryView query={summary} skeletons={1} height={56}>
        {(data) => (
          <Box sx={statGrid(3)}>
            <Stat name="total" unit="USDT" label={translate('profile.profit.total')} value={formatSigned(data.total, locale)} color={profitColor(data.total)} />
            <Stat name="today" unit="USDT" label={translate('profile.profit.today')} value={formatSigned(data.todayProfit, locale)} color={profitColor(data.todayProfit)} />
            <Stat name="7d" unit="USDT" label={translate('profile.profit.last7Days')} value={formatSigned(data.last7Days, locale)} color={profitColor(data.last7Days)} />
          </Box>
        )}
      </QueryView>
    </Section>
  );
};

interface LinkItem {
  to: string;
  labelKey: string;
  icon: ReactElement;
}

/** Every page of the profile area, and the related pages elsewhere. */
export const PROFILE_LINKS: readonly (readonly LinkItem[])[] = [
  [
    { to: '/profile/edit', labelKey: 'page.profileEdit', icon: <EditIcon /> },
    { to: '/profile/security', labelKey: 'page.security', icon: <SecurityIcon /> },
    { to: '/profile/activate', labelKey: 'page.activate', icon: <VerifiedUserIcon /> },
    { to: '/profile/member-level', labelKey: 'page.memberLevel', icon: <WorkspacePremiumIcon /> },
    { to: '/profile/fuel', labelKey: 'page.fuel', icon: <LocalGasStationIcon /> },
  ],
  [
    { to: '/profile/profit-detail', labelKey: 'page.profitDetail', icon: <InsightsIcon /> },
    { to: '/profile/profit-rank', labelKey: 'page.profitRank', icon: <LeaderboardIcon /> },
    { to: '/profile/invite', labelKey: 'page.invite', icon: <PersonAddIcon /> },
    { to: '/profile/community', labelKey: 'page.community', icon: <GroupsIcon /> },
  ],
  [
    { to: '/profile/wallet', labelKey: 'page.wallet', icon: <AccountBalanceWalletIcon /> },
    { to: '/profile/wallet/usdt-records', labelKey: 'page.usdtRecords', icon: <ReceiptLongIcon /> },
    { to: '/profile/wallet/card-records', labelKey: 'page.cardRecords', icon: <CreditCardIcon /> },
    { to: '/profile/wallet/points-records', labelKey: 'page.pointsRecords', icon: <StarsIcon /> },
  ],
  [
    { to: '/exchange', labelKey: 'page.exchange', icon: <KeyIcon /> },
    { to: '/article', labelKey: 'page.article', icon: <ArticleIcon /> },
  ],
];

const Links = () => {
  const translate = useTranslate();
  const logout = useLogout();
  // The shared demo account's profile is nobody's to edit.
  const demo = useIsDemo();
  const groups = demo ? PROFILE_LINKS.map((group) => group.filter((item) => item.to !== '/profile/edit')) : PROFILE_LINKS;
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }} data-section="links">
      {groups.map((group, index) => (
        <Paper key={index} sx={{ minWidth: 0 }}>
          <List disablePadding>
            {group.map((item) => (
              <ListItemButton key={item.to} component={Link} to={item.to} divider>
                <ListItemIcon sx={{ minWidth: 40 }}>{item.icon}</ListItemIcon>
                <ListItemText primary={translate(item.labelKey)} />
                <ChevronRightIcon color="action" />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      ))}
      <Paper sx={{ minWidth: 0 }}>
        <List disablePadding>
          <ListItem divider secondaryAction={<LocaleSwitcher color="primary" />}>
            <ListItemIcon sx={{ minWidth: 40 }}>
              <TranslateIcon />
            </ListItemIcon>
            <ListItemText primary={translate('profile.language')} />
          </ListItem>
          <ListItemButton onClick={() => void logout()}>
            <ListItemIcon sx={{ minWidth: 40 }}>
              <LogoutIcon color="error" />
            </ListItemIcon>
            <ListItemText primary={translate('profile.logout')} slotProps={{ primary: { color: 'error' } }} />
          </ListItemButton>
        </List>
      </Paper>
    </Box>
  );
};

/** `/profile` (a tab): who I am, my balances and profit at a glance, and every page of the area. */
export const ProfilePage = () => (
  <Screen titleKey="page.profile" back={false}>
    <Stack spacing={2}>
      <Identity />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' } }}>
        <Balances />
        <ProfitGlance />
      </Box>
      <Links />
    </Stack>
  </Screen>
);
