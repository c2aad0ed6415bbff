import { Alert, Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { useLocaleState, useTranslate, type TranslateFunction as Translate } from 'react-admin';
import type { BacktestFigures, VariantResult } from '../../api/backtest';
import type { StrategyConditions } from '../../api/conditions';
import { formatPercent } from '../../api/format';
import type { StrategySettings } from '../../api/strategy';
import { GATES, groupText } from '../kit/conditionText';
import { profitColor } from '../kit/money';
import { toRequest, type BacktestForm } from './backtestForm';
import { backtestErrorText } from './backtestErrors';
import { useBacktest } from './useBacktest';

/** A template's gates in a few words: "RSI(14,1h) < 30 起步 · 价格触及 BB(20,2,1h) 上轨 平仓". */
export const conditionsLabel = (conditions: StrategyConditions, translate: Translate, locale: string) =>
  GATES.filter((gate) => conditions[gate])
    .map((gate) => translate(`backtest.conditions.${gate}`, { conditions: groupText(conditions[gate]!, translate, locale) }))
    .join(translate('backtest.conditions.join'));

const Line = ({ label, figures }: { label: string; figures: BacktestFigures }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const annual = figures.annualizedReturnPercent ?? figures.returnPercent;
  return (
    <Typography sx={{ overflowWrap: 'anywhere' }} data-comparison-line>
      {translate('backtest.conditions.line', {
        label,
        annual: formatPercent(annual, locale, { signed: true }),
        drawdown: formatPercent(figures.maxDrawdownPercent, locale),
        cycles: figures.cycles,
      })}
      <Box component="span" aria-hidden sx={{ display: 'inline-block', width: 8, height: 8, ml: 1, borderRadius: '50%', bgcolor: profitColor(annual) }} />
    </Typography>
  );
};

/**
 * The same template with and without its conditions, on the form's candles
 * (issue 29): one run whose variant drops the conditions, so both figures come
 * from the engine's own code on the same data ("RSI<30 起步：年化 +x %，回撤 y %").
 */
export const ConditionsComparison = ({ settings, form }: { settings: StrategySettings; form: BacktestForm }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { job, error, busy, start } = useBacktest();
  const conditions = settings.conditions;
  if (!conditions || !GATES.some((gate) => conditions[gate])) return null;
  const built = toRequest(form, settings);
  const without = translate('backtest.conditions.without');
  const variants: VariantResult[] = job?.status === 'done' ? (job.result?.variants ?? []) : [];
  const withConditions = variants.find((variant) => variant.index === 0);
  const withoutConditions = variants.find((variant) => variant.index === 1);
  return (
    <Stack spacing={1} data-section="backtest-conditions">
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {translate('backtest.conditions.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {translate('backtest.conditions.help')}
      </Typography>
      <Box>
        <Button
          variant="outlined"
          disabled={busy || !('request' in built)}
          onClick={() => 'request' in built && void start({ ...built.request, variants: [{ label: without, conditions: null }], rankBy: 'returnPercent' })}
        >
          {translate('backtest.conditions.run')}
        </Button>
      </Box>
      {busy && <LinearProgress />}
      {error !== null && <Alert severity="error">{backtestErrorText(error, translate)}</Alert>}
      {job?.status === 'failed' && job.error && <Alert severity="error">{backtestErrorText(job.error, translate)}</Alert>}
      {withConditions && withoutConditions && (
        <Box>
          <Line label={conditionsLabel(conditions, translate, locale)} figures={withConditions.figures} />
          <Line label={without} figures={withoutConditions.figures} />
        </Box>
      )}
    </Stack>
  );
};
