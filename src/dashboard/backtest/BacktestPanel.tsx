import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  Box,
  Button,
  Chip,
  Divider,
  FormControlLabel,
  LinearProgress,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { FEE_ASSETS, type BacktestReport, type BacktestVariant, type RankBy, type VariantResult } from '../../api/backtest';
import type { StrategySettings } from '../../api/strategy';
import { BacktestResults } from './BacktestResults';
import { ConditionsComparison } from './ConditionsComparison';
import { EMPTY_SWEEP, initialForm, toRequest, type BacktestForm } from './backtestForm';
import type { BacktestDefaults } from '../kit/embeds';
import { backtestErrorText } from './backtestErrors';
import { SourceFields } from './SourceFields';
import { useBacktest } from './useBacktest';
import { VariantsSection } from './VariantsSection';

const decimalInput = { htmlInput: { inputMode: 'decimal' as const } };

/**
 * The "回测" panel: pick the candles (sample, upload, exchange), the pair,
 * the dates and the first order, run the template through the engine's own
 * code on the server, and read the figures, the chart, each cycle, and
 * variants of the template side by side.
 */
export const BacktestPanel = ({ settings, defaults, onApply }: { settings: StrategySettings; defaults?: BacktestDefaults; onApply?: (variant: VariantResult) => void }) => {
  const translate = useTranslate();
  const [form, setForm] = useState<BacktestForm>(() => initialForm(defaults));
  const update = (patch: Partial<BacktestForm>) => setForm((current) => ({ ...current, ...patch }));
  const [sweep, setSweep] = useState(EMPTY_SWEEP);
  const [rankBy, setRankBy] = useState<RankBy>('returnPercent');
  /** A variant looked at in full instead of the template. */
  const [viewing, setViewing] = useState<VariantResult | null>(null);
  /** The last run with variants, whose ranking stays on screen while a variant is looked at. */
  const [ranked, setRanked] = useState<BacktestReport | null>(null);
  const { job, error, busy, start, cancel } = useBacktest();

  const built = toRequest(form, viewing?.settings ?? settings);
  /** A run of `of` (the template or a variant), with variants of the template to compare. */
  const run = (of: StrategySettings, variants?: BacktestVariant[]) => {
    const next = toRequest(form, of);
    if ('request' in next) void start(variants ? { ...next.request, variants, rankBy } : next.request);
  };
  const report = job?.status === 'done' ? job.result : null;
  useEffect(() => {
    if (report?.variants) setRanked(report);
  }, [report]);

  const progress = job && busy && job.progress.total > 0 ? Math.min(100, Math.floor((job.progress.done * 100) / job.progress.total)) : null;

  return (
    <Stack spacing={2} data-section="backtest-panel">
      <SourceFields form={form} onChange={update} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }, alignItems: 'center' }}>
        <TextField size="small" label={translate('backtest.firstOrder', { quote: form.symbol.split('/')[1] || 'USDT' })} name="firstOrderAmount" value={form.firstOrderAmount} onChange={(e) => update({ firstOrderAmount: e.target.value.trim() })} slotProps={decimalInput} />
        <TextField size="small" label={translate('backtest.cycleCount')} name="cycles" value={form.cycles} onChange={(e) => update({ cycles: e.target.value.trim() })} slotProps={{ htmlInput: { inputMode: 'numeric' } }} />
        <TextField select size="small" label={translate('backtest.fillModel')} name="fill" value={form.fill} onChange={(e) => update({ fill: e.target.value as BacktestForm['fill'] })}>
          <MenuItem value="close">{translate('backtest.fill.close')}</MenuItem>
          <MenuItem value="ohlc">{translate('backtest.fill.ohlc')}</MenuItem>
        </TextField>
        <FormControlLabel control={<Switch checked={form.firstOrderMultiple} onChange={(_, checked) => update({ firstOrderMultiple: checked })} />} label={translate('backtest.firstOrderMultiple')} />
      </Box>
      <Typography variant="caption" color="text.secondary">
        {translate(`backtest.fillHelp.${form.fill}`)}
      </Typography>

      <Accordion disableGutters variant="outlined" sx={{ '&:before': { display: 'none' } }}>
        <AccordionSummary expandIcon={<ExpandMoreIcon />}>
          <Typography variant="body2">{translate('backtest.market.title')}</Typography>
        </AccordionSummary>
        <AccordionDetails>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 2 }}>
            {translate('backtest.market.help')}
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(5, minmax(0, 1fr))' } }}>
            <TextField size="small" label={translate('backtest.market.fee')} name="feePercent" placeholder="0.1" value={form.feePercent} onChange={(e) => update({ feePercent: e.target.value.trim() })} slotProps={decimalInput} />
            <TextField select size="small" label={translate('backtest.market.feeAsset')} name="feeAsset" value={form.feeAsset} onChange={(e) => update({ feeAsset: e.target.value as BacktestForm['feeAsset'] })}>
              <MenuItem value="">{translate('backtest.market.pairDefault')}</MenuItem>
              {FEE_ASSETS.map((asset) => (
                <MenuItem key={asset} value={asset}>
                  {translate(`backtest.feeAsset.${asset}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField size="small" label={translate('backtest.market.amountStep')} name="amountStep" value={form.amountStep} onChange={(e) => update({ amountStep: e.target.value.trim() })} slotProps={decimalInput} />
            <TextField size="small" label={translate('backtest.market.minAmount')} name="minAmount" value={form.minAmount} onChange={(e) => update({ minAmount: e.target.value.trim() })} slotProps={decimalInput} />
            <TextField size="small" label={translate('backtest.market.minCost')} name="minCost" value={form.minCost} onChange={(e) => update({ minCost: e.target.value.trim() })} slotProps={decimalInput} />
          </Box>
        </AccordionDetails>
      </Accordion>

      {viewing && (
        <Box>
          <Chip color="primary" variant="outlined" label={translate('backtest.viewing', { label: viewing.label })} onDelete={() => setViewing(null)} />
        </Box>
      )}
      {'problem' in built && (
        <Typography variant="body2" color="error" role="alert">
          {translate(`backtest.problem.${built.problem}`)}
        </Typography>
      )}
      <Stack direction="row" spacing={1}>
        <Button variant="contained" onClick={() => run(viewing?.settings ?? settings)} disabled={busy || !('request' in built)}>
          {translate('backtest.run')}
        </Button>
        {busy && job && (
          <Button onClick={() => void cancel()} color="inherit">
            {translate('backtest.stop')}
          </Button>
        )}
      </Stack>
      {busy && (
        <Box role="status" aria-live="polite">
          <LinearProgress variant={progress === null ? 'indeterminate' : 'determinate'} value={progress ?? 0} />
          <Typography variant="caption" color="text.secondary">
            {job ? translate(`backtest.status.${job.status}`, { percent: progress ?? 0 }) : translate('backtest.status.queued')}
          </Typography>
        </Box>
      )}
      {error !== null && <Alert severity="error">{backtestErrorText(error, translate)}</Alert>}
      {job?.status === 'failed' && job.error && <Alert severity="error">{backtestErrorText(job.error, translate)}</Alert>}
      {job?.status === 'canceled' && <Alert severity="info">{translate('backtest.status.canceled')}</Alert>}
      {report && <BacktestResults key={job!.id} report={report} />}
      <ConditionsComparison settings={settings} form={form} />

      <Divider />
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {translate('backtest.variants.title')}
      </Typography>
      <VariantsSection
        settings={settings}
        sweep={sweep}
        onSweep={setSweep}
        rankBy={rankBy}
        onRankBy={setRankBy}
        report={ranked}
        busy={busy}
        onRun={(variants) => {
          setViewing(null);
          run(settings, variants);
        }}
        onView={(variant) => {
          setViewing(variant);
          run(variant.settings);
        }}
        {...(onApply ? { onApply } : {})}
      />
    </Stack>
  );
};
