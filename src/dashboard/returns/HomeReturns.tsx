import { Box, Paper, Skeleton, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { sectionSx as section } from '../kit/Section';
import { useReturnsOverview } from './api';
import { formatReturn, formatSignedUsdt, formatUsdt, profitColor } from './format';
import { ProfitCurve } from './ProfitCurve';
import { useIsPhone } from '../kit/responsive';

const Headline = ({ label, value, color, name, children }: { label: string; value: string; color?: string; name: string; children?: ReactNode }) => (
  <Paper sx={section} data-stat={name}>
    <Typography variant="body2" color="text.secondary" noWrap>
      {label}
    </Typography>
    <Typography variant="h4" component="p" sx={{ fontWeight: 700, color, my: 0.5, overflowWrap: 'anywhere', fontVariantNumeric: 'tabular-nums', fontSize: { xs: '1.6rem', sm: '2.125rem' } }}>
      {value}
      <Typography component="span" variant="body2" sx={{ ml: 0.5, fontWeight: 400, color: 'text.secondary' }}>
        USDT
      </Typography>
    </Typography>
    {children}
  </Paper>
);

/** The home page's top: total assets, total return with its ROI, and the cumulative-profit curve of all tasks. */
export const HomeReturns = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const overview = useReturnsOverview();
  const isPhone = useIsPhone();
  const data = overview.data;
  if (!data) return overview.isPending ? <Skeleton variant="rounded" height={120} /> : null;
  const missing = data.assets.accounts.filter((account) => account.value === null).map((account) => account.name);

  return (
    <Stack spacing={2} data-section="home-returns">
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: data.tasks > 0 ? 'repeat(2, minmax(0, 1fr))' : 'minmax(0, 1fr)' } }}>
        <Headline name="assets" label={translate('returns.home.assets')} value={formatUsdt(data.assets.total, locale)}>
          <Typography variant="caption" color="text.secondary" component="div">
            {translate('returns.home.assetsHint')}
          </Typography>
          <Stack direction="row" sx={{ flexWrap: 'wrap', columnGap: 2, rowGap: 0.5, mt: 1 }}>
            <Typography variant="caption" component="span" data-asset="wallet" sx={{ fontVariantNumeric: 'tabular-nums' }}>
              {translate('returns.home.wallet')} {formatUsdt(data.assets.wallet, locale)}
            </Typography>
            {data.assets.accounts
              .filter((account) => account.value !== null)
              .map((account) => (
                <Typography key={account.id} variant="caption" component="span" data-asset={account.id} sx={{ fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }}>
                  {account.name} {formatUsdt(account.value, locale)}
                </Typography>
              ))}
          </Stack>
          {missing.length > 0 && (
            <Typography variant="caption" color="warning.main" component="div" sx={{ mt: 0.5 }} data-assets="incomplete">
              {translate('returns.home.assetsIncomplete', { names: missing.join(', ') })}
            </Typography>
          )}
        </Headline>
        {data.tasks > 0 && (
          <Headline name="totalReturn" label={translate('returns.home.totalReturn')} value={formatSignedUsdt(data.totalProfit, locale)} color={profitColor(data.totalProfit)}>
            <Typography variant="caption" color="text.secondary" component="div" title={translate('returns.roiHint')}>
              {translate('returns.home.totalReturnHint', { roi: formatReturn(data.roi, locale), funds: formatUsdt(data.maxInvested, locale) })}
            </Typography>
          </Headline>
        )}
      </Box>
      {data.tasks > 0 && (
        <Paper sx={section}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
            {translate('returns.home.curve')}
          </Typography>
          <ProfitCurve points={data.curve} height={isPhone ? 180 : 240} label={translate('returns.curveLabel')} empty={translate('returns.noCurve')} />
        </Paper>
      )}
    </Stack>
  );
};
