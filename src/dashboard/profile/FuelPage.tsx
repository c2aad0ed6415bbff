import { formatAsset, formatPercent } from '../../api/format';
import LocalGasStationIcon from '@mui/icons-material/LocalGasStation';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { Alert, Box, Button, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { Screen } from '../layout/Screen';
import { formatSigned, profitColor } from '../kit/money';
import { EmptyLine, QueryView } from '../kit/LoadError';
import { Section } from '../kit/Section';
import { Stat, statGrid } from '../kit/Stat';
import { useFuel, useFuelRecords, useMe } from './api';
import { formatDateTime } from './format';

/** The wallet's exchange page, asked for USDT -> FUEL. */
export const FUEL_SWAP_PATH = '/profile/wallet/exchange?from=USDT&to=FUEL';

const percent = (value: string, locale: string) => formatPercent(value, locale);

const FuelRecords = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const records = useFuelRecords();
  return (
    <Section name="fuel-records" title={translate('profile.fuel.records')}>
      <QueryView query={records} skeletons={2} height={48}>
        {(page) =>
          page.list.length === 0 ? (
            <EmptyLine text={translate('profile.fuel.noRecords')} />
          ) : (
            <List disablePadding>
              {page.list.map((record) => (
                <ListItem key={record.id} divider disableGutters data-record={record.kind}>
                  <ListItemText
                    primary={translate(`profile.fuel.kind.${record.kind}`, { _: translate('profile.fuel.kind.other') })}
                    secondary={formatDateTime(record.createdAt, locale)}
                  />
                  <Box sx={{ textAlign: 'right', flexShrink: 0 }}>
                    <Typography sx={{ fontWeight: 600, color: profitColor(record.amount), fontVariantNumeric: 'tabular-nums' }}>
                      {formatSigned(record.amount, locale)}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {translate('profile.fuel.after', { amount: formatAsset(record.balanceAfter, 'FUEL', locale) })}
                    </Typography>
                  </Box>
                </ListItem>
              ))}
            </List>
          )
        }
      </QueryView>
    </Section>
  );
};

/** `/profile/fuel`: what running tasks pay in fuel, what is left, and how to top it up. */
export const FuelPage = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const fuel = useFuel();
  // Fuel comes with activation: before it, tasks (on paper accounts only) open cycles without fuel and pay none.
  const needsFuel = useMe().data?.activated !== false;
  return (
    <Screen titleKey="page.fuel">
      <Stack spacing={2}>
        <QueryView query={fuel} skeletons={2} height={110}>
          {(data) => (
            <Stack spacing={2}>
              <Section
                name="fuel"
                action={
                  <Button component={Link} to={FUEL_SWAP_PATH} variant="contained" startIcon={<SwapHorizIcon />} sx={{ flexShrink: 0 }}>
                    {translate('profile.fuel.topUp')}
                  </Button>
                }
                title={
                  <Stack direction="row" spacing={1} component="span" sx={{ alignItems: 'center' }}>
                    <LocalGasStationIcon color="warning" />
                    <span>{translate('profile.fuel.title')}</span>
                  </Stack>
                }
              >
                <Box sx={statGrid(4)}>
                  <Stat name="balance" label={translate('profile.fuel.balance')} value={formatAsset(data.balance, 'FUEL', locale)} unit="FUEL" color={needsFuel && Number(data.balance) <= 0 ? 'error.main' : undefined} />
                  <Stat name="rate" label={translate('profile.fuel.rate')} value={percent(data.ratePercent, locale)} hint={translate('profile.fuel.baseRate', { rate: percent(data.baseRatePercent, locale) })} />
                  <Stat name="charged" label={translate('profile.fuel.charged')} value={formatAsset(data.chargedTotal, 'FUEL', locale)} unit="FUEL" />
                  <Stat name="paused" label={translate('profile.fuel.paused')} value={data.pausedTasks} color={data.pausedTasks > 0 ? 'warning.main' : undefined} />
                </Box>
              </Section>
              {data.pausedTasks > 0 && (
                <Alert severity="warning" data-state="paused" action={<Button component={Link} to={FUEL_SWAP_PATH} color="inherit" size="small">{translate('profile.fuel.topUp')}</Button>}>
                  {translate('profile.fuel.pausedText', { count: data.pausedTasks })}
                </Alert>
              )}
              {needsFuel ? (
                <Alert severity="info">
                  <Typography variant="body2" sx={{ mb: 0.5 }}>
                    {translate('profile.fuel.how', { rate: percent(data.ratePercent, locale) })}
                  </Typography>
                  <Typography variant="body2">{translate('profile.fuel.empty')}</Typography>
                </Alert>
              ) : (
                <Alert severity="success" data-state="no-fuel-needed">
                  {translate('profile.fuel.notNeeded', { rate: percent(data.ratePercent, locale) })}
                </Alert>
              )}
              <Box>
                <Button component={Link} to="/profile/member-level" size="small">
                  {translate('profile.fuel.discountLink')}
                </Button>
              </Box>
            </Stack>
          )}
        </QueryView>
        <FuelRecords />
      </Stack>
    </Screen>
  );
};
