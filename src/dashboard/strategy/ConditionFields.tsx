import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { Box, Button, IconButton, MenuItem, Paper, Stack, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import type { ComponentProps } from 'react';
import { BooleanInput, TextInput, useLocaleState, useTranslate, type TranslateFunction as Translate } from 'react-admin';
import type { StrategyProblem } from '../../api/strategy';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { MAX_CONDITIONS, TIMEFRAMES, type Condition, type ConditionGroup, type ConditionKind, type Gate } from '../../api/conditions';
import { conditionText, GATES, groupText } from '../kit/conditionText';
import { sectionSx as section } from '../kit/Section';
import { CONDITION_KINDS, newRow, toCondition, type ConditionRow } from './conditionDraft';
import type { StrategyDraft } from './strategyDraft';

const decimalInput = { htmlInput: { inputMode: 'decimal' as const } };
const numericInput = { htmlInput: { inputMode: 'numeric' as const } };
const DraftInput = (props: ComponentProps<typeof TextInput>) => <TextInput variant="outlined" size="small" parse={(value: string) => value} helperText={false} {...props} />;

/** A choice of the row, written straight into the form (the row's own fields are plain strings). */
const Choice = ({ gate, index, field, options, label }: { gate: Gate; index: number; field: keyof ConditionRow; options: readonly { value: string; label: string }[]; label: string }) => {
  const { setValue } = useFormContext<StrategyDraft>();
  const value = useWatch<StrategyDraft>({ name: `conditions.${gate}.rows.${index}.${field}` }) as string;
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => setValue(`conditions.${gate}.rows.${index}.${field}`, event.target.value as never, { shouldDirty: true })}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
};

/** One condition: its kind, then that kind's settings; a nested group (loaded, not made here) in words. */
const Row = ({ gate, index, onRemove }: { gate: Gate; index: number; onRemove: () => void }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { setValue, getValues } = useFormContext<StrategyDraft>();
  const row = useWatch<StrategyDraft>({ name: `conditions.${gate}.rows.${index}` }) as ConditionRow | undefined;
  const t = (key: string) => translate(`strategy.condition.${key}`);
  /** Choices of a field whose texts are `<prefix>_<value>`. */
  const options = (prefix: string, ...values: string[]) => values.map((value) => ({ value, label: t(`${prefix}_${value}`) }));
  const name = (field: keyof ConditionRow) => `conditions.${gate}.rows.${index}.${field}`;
  const timeframe = <Choice gate={gate} index={index} field="timeframe" label={t('timeframe')} options={TIMEFRAMES.map((value) => ({ value, label: value }))} />;
  const period = <DraftInput source={name('period')} label={t('period')} slotProps={numericInput} />;
  // A row just removed renders once more before it goes.
  if (!row) return null;
  let fields = null;
  if (row.kind === 'rsi')
    fields = (
      <>
        {period}
        {timeframe}
        <Choice gate={gate} index={index} field="op" label={t('op')} options={options('op', 'below', 'above')} />
        <DraftInput source={name('value')} label={t('value')} slotProps={decimalInput} />
      </>
    );
  else if (row.kind === 'ma_cross')
    fields = (
      <>
        <Choice gate={gate} index={index} field="average" label={t('average')} options={[{ value: 'sma', label: 'SMA' }, { value: 'ema', label: 'EMA' }]} />
        {period}
        {timeframe}
        <Choice gate={gate} index={index} field="side" label={t('side')} options={options('side', 'above', 'below')} />
      </>
    );
  else if (row.kind === 'bollinger')
    fields = (
      <>
        {period}
        <DraftInput source={name('deviations')} label={t('deviations')} slotProps={decimalInput} />
        {timeframe}
        <Choice gate={gate} index={index} field="band" label={t('band')} options={options('band', 'lower', 'upper')} />
      </>
    );
  else if (row.kind === 'price_range')
    fields = (
      <>
        <DraftInput source={name('min')} label={t('min')} slotProps={decimalInput} />
        <DraftInput source={name('max')} label={t('max')} slotProps={decimalInput} />
      </>
    );
  else if (row.kind === 'alert')
    fields = (
      <Typography variant="body2" color="text.secondary" sx={{ gridColumn: '1 / -1' }}>
        {t('alertHint')}
      </Typography>
    );
  else if (row.group)
    fields = <Typography sx={{ gridColumn: '1 / -1', overflowWrap: 'anywhere' }}>{conditionText(row.group, translate, locale)}</Typography>;

  return (
    <Box data-condition={`${gate}-${index + 1}`} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', py: 1, borderTop: index > 0 ? 1 : 0, borderColor: 'divider' }}>
      <Box sx={{ flex: 1, minWidth: 0, display: 'grid', gap: 1, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(5, minmax(0, 1fr))' } }}>
        {row.kind === 'group' ? (
          <Typography sx={{ color: 'text.secondary', gridColumn: '1 / -1' }}>{t('kinds.group')}</Typography>
        ) : (
          <TextField
            select
            size="small"
            label={t('kind')}
            value={row.kind}
            sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}
            // A new kind starts from its usual settings; the timeframe carries over.
            onChange={(event) => setValue(`conditions.${gate}.rows.${index}`, newRow(event.target.value as ConditionKind, getValues(`conditions.${gate}.rows.${index}`)), { shouldDirty: true })}
          >
            {CONDITION_KINDS.map((kind) => (
              <MenuItem key={kind} value={kind}>
                {t(`kinds.${kind}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
        {fields}
      </Box>
      <IconButton aria-label={translate('strategy.condition.remove', { index: index + 1, gate: t(`gate.${gate}`) })} onClick={onRemove}>
        <DeleteIcon />
      </IconButton>
    </Box>
  );
};

/** One gate: on or off, all or any, its conditions and what they do, worked out in words. */
const GateFields = ({ gate }: { gate: Gate }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { setValue } = useFormContext<StrategyDraft>();
  const enabled = useWatch<StrategyDraft>({ name: `conditions.${gate}.enabled` }) as boolean;
  const mode = useWatch<StrategyDraft>({ name: `conditions.${gate}.mode` }) as ConditionGroup['mode'];
  const draft = useWatch<StrategyDraft>({ name: 'conditions' }) as StrategyDraft['conditions'];
  const conditions = draft[gate].rows.map(toCondition);
  const { fields, append, remove } = useFieldArray<StrategyDraft, `conditions.${typeof gate}.rows`>({ name: `conditions.${gate}.rows` });
  const gateName = translate(`strategy.condition.gate.${gate}`);
  // Worked out once every number of the gate is one.
  const group = conditions.length > 0 && conditions.every((c) => c !== null) ? { mode, conditions: conditions as Array<Condition | ConditionGroup> } : null;
  const total = GATES.reduce((n, each) => n + (draft[each].enabled ? draft[each].rows.length : 0), 0);
  return (
    <Box data-gate={gate}>
      <BooleanInput source={`conditions.${gate}.enabled`} label={translate(`strategy.condition.gateEnabled.${gate}`)} helperText={false} />
      {enabled && (
        <Stack spacing={1} sx={{ pl: { xs: 0, sm: 2 } }}>
          <ToggleButtonGroup
            exclusive
            size="small"
            color="primary"
            value={mode}
            aria-label={translate('strategy.condition.mode', { gate: gateName })}
            onChange={(_, value: ConditionGroup['mode'] | null) => value && setValue(`conditions.${gate}.mode`, value, { shouldDirty: true })}
          >
            <ToggleButton value="all">{translate('strategy.condition.mode_all')}</ToggleButton>
            <ToggleButton value="any">{translate('strategy.condition.mode_any')}</ToggleButton>
          </ToggleButtonGroup>
          <Box>
            {fields.map((field, index) => (
              <Row key={field.id} gate={gate} index={index} onRemove={() => remove(index)} />
            ))}
          </Box>
          <Button startIcon={<AddIcon />} sx={{ alignSelf: 'flex-start' }} disabled={total >= MAX_CONDITIONS} onClick={() => append(newRow('rsi'))}>
            {translate('strategy.condition.add')}
          </Button>
          {group && (
            <Typography variant="body2" data-example={`condition-${gate}`} sx={{ overflowWrap: 'anywhere' }}>
              {translate(`strategy.condition.example.${gate}`, { conditions: groupText(group, translate, locale) })}
            </Typography>
          )}
        </Stack>
      )}
    </Box>
  );
};

/** Which gate (and condition of it) a problem is about: "开始周期第 2 个条件". */
export const conditionWhere = ({ gate, condition }: Pick<StrategyProblem, 'gate' | 'condition'>, translate: Translate) => {
  if (!gate) return '';
  const name = translate(`strategy.condition.gate.${gate}`);
  return condition ? translate('strategy.condition.where', { gate: name, condition }) : name;
};

/** The conditions (issue 29): when a cycle starts, a level buys and the position closes; their own section of the editor. */
export const ConditionFields = () => {
  const translate = useTranslate();
  return (
    <Paper sx={section} data-section="conditions">
      <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 0.5 }}>
        {translate('strategy.condition.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('strategy.condition.help')}
      </Typography>
      <Stack spacing={1}>
        {GATES.map((gate) => (
          <GateFields key={gate} gate={gate} />
        ))}
      </Stack>
    </Paper>
  );
};
