import { Alert, Box, Button, Chip, Paper, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { PRESET_FIRST_ORDER, SAMPLE_SYMBOL, type PresetFigures, type PresetSource } from '../../api/backtest';
import { formatCount, formatMoney, formatPercent } from '../../api/format';
import { sameSettings, type StrategySettings } from '../../api/strategy';
import { RECOMMENDED_TEMPLATE, templateLabel } from '../kit/templateText';
import { useApi } from './api';
import { presetShortfall, type PresetSizing } from './presetMinimum';

/** The periods offered: the bundled history holds 21 days. */
const DAYS: Record<PresetSource, number[]> = { sample: [7, 14, 21], exchange: [7, 30, 90] };
const DEFAULT_DAYS: Record<PresetSource, number> = { sample: 21, exchange: 30 };

/** A day of the period, as the UTC calendar names it; `to` ends the period (exclusive). */
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

export interface PresetCardsProps {
  /** The chosen account's exchange when it keeps history (a real exchange); otherwise the bundled history. */
  exchange: string | null;
  /** The pair the task trades first. */
  symbol: string | null;
  /** The settings the wizard has chosen, to mark the preset they equal. */
  chosen: StrategySettings | undefined;
  /** False while the account is not known yet: nothing is asked before it is. */
  ready: boolean;
  /** The wizard's sizing: a preset whose ladder it makes too small for the exchange warns and cannot be applied. */
  sizing: PresetSizing;
  onApply: (preset: PresetFigures) => void;
}

/**
 * The system templates as cards with their backtested figures (issue 28), on the chosen pair and period:
 * computed by the server once per pair and day. Stacked on a phone, side by side on a wide screen.
 */
export const PresetCards = ({ exchange, symbol, chosen, ready, sizing, onApply }: PresetCardsProps) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const api = useApi();
  const source: PresetSource = exchange ? 'exchange' : 'sample';
  const pair = source === 'sample' ? SAMPLE_SYMBOL : symbol;
  const [picked, setPicked] = useState<number | null>(null);
  const days = picked !== null && DAYS[source].includes(picked) ? picked : DEFAULT_DAYS[source];
  const figures = useQuery({
    queryKey: ['backtest', 'presets', source, exchange, pair, days],
    queryFn: ({ signal }) => api.backtestPresets({ symbol: pair!, source, ...(exchange ? { exchange } : {}), days }, signal),
    enabled: ready && pair !== null,
    staleTime: 60 * 60_000,
    retry: false,
  });
  const data = figures.data;
  const percent = (value: string | undefined, signed = true) => (value === undefined ? '—' : formatPercent(value, locale, { signed }));

  return (
    <Stack spacing={1.5} data-presets={source}>
      <Typography variant="subtitle2">{translate('wizard.presets.title')}</Typography>
      {pair === null ? (
        <Typography variant="body2" color="text.secondary">
          {translate('wizard.presets.pickPair')}
        </Typography>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary">
            {translate('wizard.presets.intro', { symbol: pair })}
          </Typography>
          <ToggleButtonGroup
            exclusive
            size="small"
            color="primary"
            value={days}
            aria-label={translate('wizard.presets.period')}
            onChange={(_, value: number | null) => value !== null && setPicked(value)}
            sx={{ flexWrap: 'wrap' }}
          >
            {DAYS[source].map((count) => (
              <ToggleButton key={count} value={count}>
                {translate('wizard.presets.days', { count })}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          {figures.isError && <Alert severity="warning">{(figures.error as Error).message}</Alert>}
          {figures.isPending && ready && (
            <Typography variant="body2" color="text.secondary" role="status">
              {translate('wizard.presets.loading')}
            </Typography>
          )}
          {data && (
            <>
              <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(3, minmax(0, 1fr))' } }}>
                {data.presets.map((preset) => {
                  const name = templateLabel({ name: preset.name, system: true }, translate);
                  const isChosen = chosen !== undefined && sameSettings(chosen, preset.settings);
                  // The server's check before a task runs, on the figures' market: the exchange would refuse this ladder at this sizing.
                  const short = presetShortfall(data, preset.settings, sizing);
                  const f = preset.figures;
                  const rows: [string, string][] = [
                    [translate('wizard.presets.returnPercent'), percent(f.returnPercent)],
                    [translate('wizard.presets.annualized'), percent(f.annualizedReturnPercent)],
                    [translate('wizard.presets.maxDrawdown'), percent(f.maxDrawdownPercent, false)],
                    [translate('wizard.presets.cycles'), formatCount(f.cycles, locale)],
                    [translate('wizard.presets.hold'), percent(f.holdReturnPercent)],
                  ];
                  return (
                    <Paper
                      key={preset.strategyId}
                      variant="outlined"
                      data-preset={preset.name}
                      data-chosen={isChosen ? true : undefined}
                      data-below-min={short ? true : undefined}
                      sx={{ p: 1.5, minWidth: 0, borderColor: isChosen ? 'primary.main' : undefined, borderWidth: isChosen ? 2 : 1 }}
                    >
                      <Stack spacing={1}>
                        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
                          <Typography variant="subtitle1" component="h3">
                            {preset.name === RECOMMENDED_TEMPLATE ? translate('wizard.recommended', { name }) : name}
                          </Typography>
                          {isChosen && <Chip size="small" color="primary" label={translate('wizard.presets.chosen')} />}
                        </Stack>
                        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto auto', columnGap: 2, rowGap: 0.5 }}>
                          {rows.map(([label, value]) => (
                            <Box key={label} sx={{ display: 'contents' }}>
                              <Typography component="dt" variant="body2" color="text.secondary">
                                {label}
                              </Typography>
                              <Typography component="dd" variant="body2" sx={{ m: 0, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
                                {value}
                              </Typography>
                            </Box>
                          ))}
                        </Box>
                        {short && (
                          <Alert severity="warning" data-warning="below-min">
                            {translate('wizard.presets.belowMin', { first: formatMoney(short.firstOrder, locale), minCost: formatMoney(short.minCost, locale) })}
                            {short.minFirstOrder !== null &&
                              ` ${translate(short.minInvest !== null ? 'wizard.presets.belowMinInvest' : 'wizard.presets.belowMinFirst', { invest: formatMoney(short.minInvest ?? '0', locale), min: formatMoney(short.minFirstOrder, locale) })}`}
                          </Alert>
                        )}
                        <Button
                          variant={isChosen ? 'contained' : 'outlined'}
                          size="small"
                          disabled={short !== null}
                          onClick={() => onApply(preset)}
                          aria-label={translate('wizard.presets.applyNamed', { name })}
                        >
                          {translate('wizard.presets.apply')}
                        </Button>
                      </Stack>
                    </Paper>
                  );
                })}
              </Box>
              <Typography variant="caption" color="text.secondary" data-basis={data.source}>
                {translate(data.source === 'sample' ? 'wizard.presets.basisSample' : 'wizard.presets.basisExchange', {
                  symbol: data.symbol,
                  exchange: data.exchange ?? '',
                  from: dayOf(data.from),
                  to: dayOf(data.to - 1),
                  first: data.firstOrderAmount ?? PRESET_FIRST_ORDER,
                })}
              </Typography>
            </>
          )}
        </>
      )}
    </Stack>
  );
};
