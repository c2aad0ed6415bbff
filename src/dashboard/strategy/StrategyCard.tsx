import { Card, CardActions, CardContent, Chip, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatCount, formatMoney, formatPercent } from '../../api/format';
import { maxCycleFunds, type StrategyTemplate } from '../../api/strategy';
import { templateLabel } from '../kit/templateText';

/** One template at a glance: its ladder's size, its exits and what a cycle can cost. */
export const StrategyCard = ({ template, actions }: { template: StrategyTemplate; actions: ReactNode }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  // The message puts the % sign itself.
  const percent = (value: string) => formatPercent(value, locale).replace(/%$/, '');
  return (
    <Card variant="outlined" data-strategy={template.name}>
      <CardContent sx={{ pb: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          <Typography variant="h6" component="h2" sx={{ fontWeight: 600, flexGrow: 1 }}>
            {templateLabel(template, translate)}
          </Typography>
          <Chip size="small" label={translate('strategy.levelCount', { count: template.levels.length })} />
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {translate('strategy.summary', {
            tp: percent(template.takeProfitPercent),
            cb: percent(template.takeProfitCallbackPercent),
            cooldown: formatCount(template.cooldownSeconds, locale),
          })}
        </Typography>
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          {translate('strategy.maxFunds', { amount: formatMoney(maxCycleFunds(template, '10'), locale) })}
        </Typography>
      </CardContent>
      <CardActions sx={{ justifyContent: 'flex-end' }}>{actions}</CardActions>
    </Card>
  );
};
