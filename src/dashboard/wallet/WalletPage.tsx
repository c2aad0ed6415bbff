import AddCardIcon from '@mui/icons-material/AddCard';
import CallMadeIcon from '@mui/icons-material/CallMade';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import LocalGasStationIcon from '@mui/icons-material/LocalGasStationOutlined';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLongOutlined';
import SendIcon from '@mui/icons-material/SendOutlined';
import StarsIcon from '@mui/icons-material/StarsOutlined';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { Box, Button, Link as MuiLink, Paper, Skeleton, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { ASSETS, type Asset, type AssetBalance } from '../../api/wallet';
import { Screen } from '../layout/Screen';
import { LoadError } from '../kit/LoadError';
import { sectionSx as section } from '../kit/Section';
import { useBalances, useRecentMovements } from './api';
import { MovementRow, balanceOf } from './parts';
import { RECORDS_PATH, formatAmount, isPositive } from './walletText';
import { useIsDemo } from '../kit/demo';

const BalanceCard = ({ asset, balance }: { asset: Asset; balance: AssetBalance | undefined }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const records = RECORDS_PATH[asset];
  return (
    <Paper sx={{ p: { xs: 1.5, md: 2.5 }, minWidth: 0, display: 'flex', flexDirection: 'column' }} data-balance={asset}>
      <Typography variant="body2" color="text.secondary" noWrap>
        {translate(`wallet.assets.${asset}`)}
      </Typography>
      {balance ? (
        <>
          <Typography variant="h5" component="p" sx={{ fontWeight: 700, my: 0.5, overflowWrap: 'anywhere', fontVariantNumeric: 'tabular-nums', fontSize: { xs: '1.25rem', md: '1.5rem' } }} data-field="available">
            {formatAmount(balance.available, asset, locale)}
          </Typography>
          <Typography variant="caption" color={isPositive(balance.held) ? 'warning.main' : 'text.secondary'} component="p" data-field="held">
            {translate('wallet.held', { amount: formatAmount(balance.held, asset, locale) })}
          </Typography>
        </>
      ) : (
        <>
          <Skeleton variant="text" height={40} />
          <Skeleton variant="text" width="60%" />
        </>
      )}
      <Box sx={{ flexGrow: 1 }} />
      <MuiLink component={Link} to={records ?? '/profile/fuel'} variant="body2" underline="hover" sx={{ mt: 1 }}>
        {translate(records ? 'wallet.records' : 'wallet.fuelLink')}
      </MuiLink>
    </Paper>
  );
};

/** `out`: moves money out of the wallet, which the shared demo account never does (11005 demo_account). */
const ACTIONS: { to: string; key: string; icon: ReactNode; out?: true }[] = [
  { to: '/profile/wallet/recharge', key: 'page.recharge', icon: <AddCardIcon /> },
  { to: '/profile/wallet/withdraw', key: 'page.withdraw', icon: <CallMadeIcon />, out: true },
  { to: '/profile/wallet/transfer', key: 'page.transfer', icon: <SendIcon />, out: true },
  { to: '/profile/wallet/exchange', key: 'page.swap', icon: <SwapHorizIcon /> },
  { to: '/profile/wallet/points-transfer', key: 'page.pointsTransfer', icon: <StarsIcon />, out: true },
];

const RECORD_LINKS: { to: string; key: string }[] = [
  { to: '/profile/wallet/usdt-records', key: 'page.usdtRecords' },
  { to: '/profile/wallet/card-records', key: 'page.cardRecords' },
  { to: '/profile/wallet/points-records', key: 'page.pointsRecords' },
  { to: '/profile/wallet/addresses', key: 'page.withdrawAddresses' },
];

const RECENT = 5;

/** The latest deposits and withdrawals, newest first, with their status (pending ones first of all). */
const RecentMovements = () => {
  const translate = useTranslate();
  const recent = useRecentMovements(RECENT);
  return (
    <Paper sx={section} data-section="recent">
      <Typography variant="h6" component="h2" sx={{ fontWeight: 600 }}>
        {translate('wallet.recent')}
      </Typography>
      {recent.error && <LoadError error={recent.error} onRetry={() => void recent.refetch()} />}
      {recent.isPending && <Skeleton height={48} />}
      {recent.data?.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          {translate('wallet.recentEmpty')}
        </Typography>
      )}
      {recent.data && recent.data.length > 0 && (
        <Box component="ul" sx={{ m: 0, p: 0 }}>
          {recent.data.map(({ kind, item }) => (
            <MovementRow key={`${kind}-${item.id}`} kind={kind} item={item} />
          ))}
        </Box>
      )}
    </Paper>
  );
};

/** `/profile/wallet`: the four balances, what can be done with them, and the latest deposits and withdrawals. */
export const WalletPage = () => {
  const translate = useTranslate();
  const balances = useBalances();
  const demo = useIsDemo();
  return (
    <Screen titleKey="page.wallet">
      <Stack spacing={2}>
        {balances.error && <LoadError error={balances.error} onRetry={() => void balances.refetch()} />}
        <Box
          data-section="balances"
          aria-busy={balances.isPending}
          sx={{ display: 'grid', gap: { xs: 1.5, md: 2 }, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' } }}
        >
          {ASSETS.map((asset) => (
            <BalanceCard key={asset} asset={asset} balance={balanceOf(balances.data?.balances, asset)} />
          ))}
        </Box>

        <Paper sx={section} data-section="actions">
          <Box component="nav" aria-label={translate('wallet.actions')} sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: 'repeat(3, minmax(0, 1fr))', sm: 'repeat(5, minmax(0, 1fr))' } }}>
            {ACTIONS.filter((action) => !(demo && action.out)).map((action) => (
              <Button
                key={action.to}
                component={Link}
                to={action.to}
                color="primary"
                sx={{ flexDirection: 'column', justifyContent: 'flex-start', gap: 0.5, py: 1.5, textAlign: 'center', lineHeight: 1.2, '& svg': { fontSize: 28 } }}
              >
                {action.icon}
                {translate(action.key)}
              </Button>
            ))}
          </Box>
        </Paper>

        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: '2fr 1fr' }, alignItems: 'start' }}>
          <RecentMovements />
          <Paper sx={{ ...section, py: 1 }} data-section="records">
            {RECORD_LINKS.map((link) => (
              <Button
                key={link.to}
                component={Link}
                to={link.to}
                fullWidth
                color="inherit"
                startIcon={<ReceiptLongIcon color="action" />}
                endIcon={<ChevronRightIcon color="action" />}
                sx={{ justifyContent: 'flex-start', py: 1.25, textTransform: 'none', '& .MuiButton-endIcon': { ml: 'auto' } }}
              >
                {translate(link.key)}
              </Button>
            ))}
            <Button
              component={Link}
              to="/profile/fuel"
              fullWidth
              color="inherit"
              startIcon={<LocalGasStationIcon color="action" />}
              endIcon={<ChevronRightIcon color="action" />}
              sx={{ justifyContent: 'flex-start', py: 1.25, textTransform: 'none', '& .MuiButton-endIcon': { ml: 'auto' } }}
            >
              {translate('page.fuel')}
            </Button>
          </Paper>
        </Box>
      </Stack>
    </Screen>
  );
};
