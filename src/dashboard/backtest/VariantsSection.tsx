import { formatPercent } from '../../api/format';
import { Box, Button, MenuItem, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { MAX_VARIANTS, RANK_BY, type BacktestReport, type BacktestVariant, type RankBy, type SweepNames, type VariantResult } from '../../api/backtest';
import type { StrategySettings } from '../../api/strategy';
import { formatQuote, formatSigned, profitColor } from '../kit/money';
import { sweepOf, type SweepForm } from './backtestForm';

const FIELDS: { key: keyof SweepForm; label: string; placeholder: string }[] = [
  { key: 'takeProfitPercent', label: 'backtest.variants.takeProfit', placeholder: '1, 1.5, 2, 3' },
  { key: 'takeProfitCallbackPercent', label: 'backtest.variants.takeProfitCallback', placeholder: '0, 0.3' },
  { key: 'replenishCallbackPercent', label: 'backtest.variants.replenishCallback', placeholder: '0, 0.2' },
  { key: 'stepScale', label: 'backtest.variants.stepScale', placeholder: '1, 1.5' },
  { key: 'amountScale', label: 'backtest.variants.amountScale', placeholder: '1.5, 2' },
];

/**
 * Variants of the template side by side: values to try per setting (every
 * combination, at most 50), run together, ranked by the chosen figure. A
 * row can be looked at in full (its trades, cycles and chart).
 */
export const VariantsSection = ({
  settings,
  sweep,
  onSweep,
  rankBy,
  onRankBy,
  report,
  busy,
  onRun,
  onView,
  onApply,
}: {
  settings: StrategySettings;
  sweep: SweepForm;
  onSweep: (sweep: SweepForm) => void;
  rankBy: RankBy;
  onRankBy: (rankBy: RankBy) => void;
  report: BacktestReport | null;
  busy: boolean;
  onRun: (variants: BacktestVariant[]) => void;
  onView: (variant: VariantResult) => void;
  /** Writes a variant's settings into the strategy (the editor's form, or the user's own copy); absent where there is none. */
  onApply?: (variant: VariantResult) => void;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const names = Object.fromEntries(FIELDS.map((field) => [field.key, translate(`backtest.variants.short.${field.key}`)])) as SweepNames;
  const expanded = sweepOf(sweep, settings, names);
  const count = expanded?.count ?? 0;
  const ranked = report?.variants ?? null;
  const label = (variant: VariantResult) => (variant.index === 0 ? translate('backtest.variants.template') : variant.label);

  return (
    <Stack spacing={2} data-section="backtest-variants">
      <Typography variant="body2" color="text.secondary">
        {translate('backtest.variants.help', { max: MAX_VARIANTS })}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(5, minmax(0, 1fr))' } }}>
        {FIELDS.map((field) => (
          <TextField
            key={field.key}
            size="small"
            label={translate(field.label)}
            name={`sweep.${field.key}`}
            placeholder={field.placeholder}
            value={sweep[field.key]}
            onChange={(event) => onSweep({ ...sweep, [field.key]: event.target.value })}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          />
        ))}
      </Box>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <TextField size="small" select label={translate('backtest.variants.rankBy')} value={rankBy} onChange={(event) => onRankBy(event.target.value as RankBy)} sx={{ width: { xs: '100%', sm: 220 } }}>
          {RANK_BY.map((key) => (
            <MenuItem key={key} value={key}>
              {translate(`backtest.rank.${key}`)}
            </MenuItem>
          ))}
        </TextField>
        <Typography variant="body2" color={expanded === null || count > MAX_VARIANTS ? 'error' : 'text.secondary'} role="status">
          {expanded === null ? translate('backtest.variants.notNumbers') : count > MAX_VARIANTS ? translate('backtest.variants.tooMany', { count, max: MAX_VARIANTS }) : translate('backtest.variants.count', { count })}
        </Typography>
        <Button variant="outlined" disabled={busy || !expanded || expanded.variants.length === 0} onClick={() => expanded && onRun(expanded.variants)}>
          {translate('backtest.variants.run')}
        </Button>
      </Stack>
      {ranked && (
        <TableContainer sx={{ width: '100%', overflowX: 'auto' }}>
          <Table size="small" aria-label={translate('backtest.variants.title')} sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}>
            <TableHead>
              <TableRow>
                <TableCell>#</TableCell>
                <TableCell>{translate('backtest.variants.variant')}</TableCell>
                <TableCell align="right">{translate('backtest.rank.returnPercent')}</TableCell>
                <TableCell align="right">{translate('backtest.rank.realizedProfit')}</TableCell>
                <TableCell align="right">{translate('backtest.rank.maxDrawdown')}</TableCell>
                <TableCell align="right">{translate('backtest.rank.maxFundsInUse')}</TableCell>
                <TableCell align="right">{translate('backtest.rank.cycles')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {ranked.map((variant, rank) => (
                <TableRow key={variant.index} selected={rank === 0} data-variant={variant.index}>
                  <TableCell>{rank + 1}</TableCell>
                  <TableCell>{label(variant)}</TableCell>
                  <TableCell align="right" sx={{ color: profitColor(variant.figures.returnPercent) }}>
                    {formatPercent(variant.figures.returnPercent, locale, { signed: true })}
                  </TableCell>
                  <TableCell align="right" sx={{ color: profitColor(variant.figures.realizedProfit) }}>
                    {formatSigned(variant.figures.realizedProfit, locale)}
                  </TableCell>
                  <TableCell align="right">{formatQuote(variant.figures.maxDrawdown, locale)}</TableCell>
                  <TableCell align="right">{formatQuote(variant.figures.maxFundsInUse, locale)}</TableCell>
                  <TableCell align="right">{variant.figures.cycles}</TableCell>
                  <TableCell>
                    {variant.index !== 0 && (
                      <Stack direction="row" spacing={1}>
                        <Button size="small" disabled={busy} onClick={() => onView(variant)}>
                          {translate('backtest.variants.view')}
                        </Button>
                        {onApply && (
                          <Button size="small" variant="outlined" onClick={() => onApply(variant)} aria-label={translate('backtest.variants.applyNamed', { label: variant.label })}>
                            {translate('backtest.variants.apply')}
                          </Button>
                        )}
                      </Stack>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Stack>
  );
};
