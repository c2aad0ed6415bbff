import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { Box, Button, IconButton, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import Big from 'big.js';
import { useEffect, type ComponentProps } from 'react';
import { BooleanInput, TextInput, useTranslate } from 'react-admin';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { DEFAULT_FEE_RATE, MAX_TARGETS, stopLossPrice, targetsOf, type StrategySettings } from '../../api/strategy';
import { sectionSx as section } from '../kit/Section';
import type { LadderRow } from './LadderPreview';
import { defaultTargets, type StrategyDraft } from './strategyDraft';

const decimalInput = { htmlInput: { inputMode: 'decimal' as const } };
const fill = { flex: 1, minWidth: 0 } as const;
const DraftInput = (props: ComponentProps<typeof TextInput>) => <TextInput variant="outlined" parse={(value: string) => value} helperText={false} {...props} />;

/** The take-profit targets, one row each (share of the position, gain over the average, trailing); at least two while on. */
const Targets = () => {
  const translate = useTranslate();
  const { setValue, getValues } = useFormContext<StrategyDraft>();
  const enabled = useWatch<StrategyDraft, 'targetsEnabled'>({ name: 'targetsEnabled' });
  const { fields, append, remove } = useFieldArray<StrategyDraft, 'targets'>({ name: 'targets' });
  useEffect(() => {
    // Switched on with no targets yet: half at the take profit, the rest at twice it.
    if (enabled && getValues('targets').length === 0) setValue('targets', defaultTargets(getValues('takeProfitPercent')), { shouldDirty: true });
  }, [enabled, getValues, setValue]);
  return (
    <Stack spacing={1}>
      <BooleanInput source="targetsEnabled" label={translate('strategy.targetsEnabled')} helperText={translate('strategy.targetsHelp')} />
      {enabled && (
        <>
          {fields.map((field, index) => (
            <Box key={field.id} data-target={index + 1} sx={{ display: 'grid', gap: 1, alignItems: 'center', gridTemplateColumns: { xs: 'minmax(0, 1fr) minmax(0, 1fr) auto', sm: 'auto minmax(0, 1fr) minmax(0, 1fr) auto auto' } }}>
              <Typography sx={{ color: 'text.secondary', gridColumn: { xs: '1 / -1', sm: 'auto' } }}>{translate('strategy.target', { target: index + 1 })}</Typography>
              <DraftInput source={`targets.${index}.sharePercent`} size="small" sx={fill} label={translate('strategy.targetShare')} slotProps={decimalInput} />
              <DraftInput source={`targets.${index}.profitPercent`} size="small" sx={fill} label={translate('strategy.targetProfit')} slotProps={decimalInput} />
              <BooleanInput source={`targets.${index}.trailing`} label={translate('strategy.targetTrailing')} helperText={false} sx={{ gridColumn: { xs: '1 / 3', sm: 'auto' } }} />
              <IconButton aria-label={translate('strategy.removeTarget', { target: index + 1 })} disabled={fields.length <= 2} onClick={() => remove(index)}>
                <DeleteIcon />
              </IconButton>
            </Box>
          ))}
          <Button
            startIcon={<AddIcon />}
            sx={{ alignSelf: 'flex-start' }}
            disabled={fields.length >= MAX_TARGETS}
            onClick={() => {
              const last = getValues('targets').at(-1);
              const profit = last && /^\d+(\.\d+)?$/.test(last.profitPercent) ? new Big(last.profitPercent).plus(1).toString() : '3';
              append({ sharePercent: '10', profitPercent: profit, trailing: false });
            }}
          >
            {translate('strategy.addTarget')}
          </Button>
          <BooleanInput source="breakEven" label={translate('strategy.breakEven')} helperText={false} />
        </>
      )}
    </Stack>
  );
};

/** The stop loss: on or off, its percent, where it is measured from and when it arms. */
export const StopLossFields = () => {
  const translate = useTranslate();
  const { setValue } = useFormContext<StrategyDraft>();
  const enabled = useWatch<StrategyDraft, 'stopLossEnabled'>({ name: 'stopLossEnabled' });
  const base = useWatch<StrategyDraft, 'stopLossBase'>({ name: 'stopLossBase' });
  return (
    <Stack spacing={1}>
      <BooleanInput source="stopLossEnabled" label={translate('strategy.stopLoss')} helperText={false} />
      {enabled && (
        <>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}>
            <TextField
              select
              size="small"
              label={translate('strategy.stopLossBase')}
              value={base ?? 'average'}
              onChange={(event) => setValue('stopLossBase', event.target.value as StrategyDraft['stopLossBase'], { shouldDirty: true })}
            >
              <MenuItem value="average">{translate('strategy.stopLossBaseAverage')}</MenuItem>
              <MenuItem value="last_level">{translate('strategy.stopLossBaseLastLevel')}</MenuItem>
            </TextField>
            <DraftInput
              source="stopLossPercent"
              size="small"
              label={translate(base === 'last_level' ? 'strategy.stopLossPercentLastLevel' : 'strategy.stopLossPercent')}
              slotProps={decimalInput}
            />
          </Box>
          <BooleanInput source="stopLossAfterLastLevel" label={translate('strategy.stopLossAfterLastLevel')} helperText={false} />
        </>
      )}
    </Stack>
  );
};

/** Several targets, the stops, the time stop and the break-even: their own section of the editor. */
export const ExitFields = () => {
  const translate = useTranslate();
  const timeStop = useWatch<StrategyDraft, 'timeStopEnabled'>({ name: 'timeStopEnabled' });
  return (
    <Paper sx={section}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {translate('strategy.exits')}
      </Typography>
      <Stack spacing={2}>
        <Targets />
        <StopLossFields />
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <BooleanInput source="timeStopEnabled" label={translate('strategy.timeStop')} helperText={false} />
          {timeStop && <DraftInput source="timeStopHours" size="small" label={translate('strategy.timeStopHours')} slotProps={{ htmlInput: { inputMode: 'numeric' } }} />}
        </Stack>
      </Stack>
    </Paper>
  );
};

/**
 * The exits worked out on the ladder preview's rows: each target's price with
 * the first order alone, the stop loss's price with every level filled (or
 * below the last level), the time stop, and the break-even price after the
 * first target. Fees aside, as the preview's own figures, except the
 * break-even, which adds the sell fee at the standard rate.
 */
export const ExitExamples = ({ settings, rows, formatAt }: { settings: StrategySettings; rows: LadderRow[]; formatAt: (price: Big.BigSource) => string }) => {
  const translate = useTranslate();
  const first = rows[0];
  const last = rows.at(-1);
  if (!first || !last) return null;
  const lines: { key: string; text: string }[] = [];
  const several = (settings.takeProfitTargets?.length ?? 0) > 0;
  if (several) {
    targetsOf(settings).forEach((target, i) => {
      const trailing = target.trailing && !new Big(settings.takeProfitCallbackPercent).eq(0) ? translate('strategy.exampleTrailing', { callback: settings.takeProfitCallbackPercent }) : '';
      const price = new Big(first.averagePrice).times(new Big(target.profitPercent).div(100).plus(1));
      lines.push({
        key: `target-${i + 1}`,
        text: translate('strategy.exampleTarget', { target: i + 1, average: formatAt(first.averagePrice), share: target.sharePercent, price: formatAt(price), trailing }),
      });
    });
  }
  const stop = stopLossPrice(settings, last.averagePrice, first.price);
  if (settings.stopLossPercent !== null && stop) {
    const armed = settings.stopLossAfterLastLevel && settings.levels.length > 0 ? translate('strategy.exampleStopArmed', { count: settings.levels.length }) : '';
    const text =
      settings.stopLossBase === 'last_level'
        ? translate('strategy.exampleStopLastLevel', { percent: settings.stopLossPercent, level: formatAt(last.price), price: formatAt(stop) })
        : translate('strategy.exampleStopAverage', { average: formatAt(last.averagePrice), price: formatAt(stop) });
    lines.push({ key: 'stop', text: text + armed });
  }
  if (settings.timeStopHours) lines.push({ key: 'time', text: translate('strategy.exampleTimeStop', { hours: settings.timeStopHours }) });
  if (several && settings.breakEven) {
    const price = new Big(first.averagePrice).div(new Big(1).minus(DEFAULT_FEE_RATE));
    lines.push({ key: 'break-even', text: translate('strategy.exampleBreakEven', { average: formatAt(first.averagePrice), price: formatAt(price) }) });
  }
  if (lines.length === 0) return null;
  return (
    <Box data-testid="exit-examples">
      <Typography sx={{ fontWeight: 600, mb: 0.5 }}>{translate('strategy.examples')}</Typography>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {lines.map((line) => (
          <Typography component="li" key={line.key} variant="body2" data-example={line.key} sx={{ overflowWrap: 'anywhere' }}>
            {line.text}
          </Typography>
        ))}
      </Box>
    </Box>
  );
};
