import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { Box, Button, IconButton, MenuItem, Paper, Skeleton, Stack, TextField, Typography } from '@mui/material';
import { useState, type ComponentProps } from 'react';
import {
  CreateBase,
  EditBase,
  Form,
  TextInput,
  useEditContext,
  useGetOne,
  useNotify,
  useSaveContext,
  useTranslate,
} from 'react-admin';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { VariantResult } from '../../api/backtest';
import { strategyProblem, type StrategyTemplate } from '../../api/strategy';
import { BacktestLauncher } from '../kit/embeds';
import { LoadError } from '../kit/LoadError';
import { sectionSx as section } from '../kit/Section';
import { Screen } from '../layout/Screen';
import { STRATEGIES } from './api';
import { ScrollToFirstError } from '../kit/ScrollToFirstError';
import { ConditionFields, conditionWhere } from './ConditionFields';
import { ExitExamples, ExitFields } from './ExitFields';
import { LadderPreview } from './LadderPreview';
import { templateLabel } from '../kit/templateText';
import { DEFAULT_DRAFT, draftFrom, generateLevels, generatorFrom, toSettings, type GeneratorInput, type StrategyDraft } from './strategyDraft';

const decimalInput = { htmlInput: { inputMode: 'decimal' as const } };
/** Fields that share a row shrink with it instead of pushing the page wider than a phone. */
const fill = { flex: 1, minWidth: 0 } as const;
const MAX_LEVELS = 30;

/** A text field of the draft: outlined, and an emptied field stays '' (the draft's numbers are strings until saved). */
const DraftInput = (props: ComponentProps<typeof TextInput>) => <TextInput variant="outlined" parse={(value: string) => value} helperText={false} {...props} />;

/** The 3Commas-style generator: its own inputs (not part of the template), writing the ladder into the form. */
const Generator = () => {
  const translate = useTranslate();
  const { setValue, getValues } = useFormContext<StrategyDraft>();
  // The fields start from the ladder being edited (a copy's, a loaded template's), not from unrelated defaults.
  const [generator, setGenerator] = useState<GeneratorInput>(() => generatorFrom(getValues('levels') ?? []));
  const gen = (key: keyof GeneratorInput) => ({
    value: generator[key],
    onChange: (event: { target: { value: string } }) => setGenerator((g) => ({ ...g, [key]: event.target.value })),
  });
  return (
    <Paper sx={section}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 2 }}>
        {translate('strategy.generator')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(6, minmax(0, 1fr))' } }}>
        <TextField size="small" label={translate('strategy.count')} {...gen('count')} slotProps={{ htmlInput: { inputMode: 'numeric' } }} />
        <TextField size="small" label={translate('strategy.firstStep')} {...gen('firstStep')} slotProps={decimalInput} />
        <TextField size="small" label={translate('strategy.stepScale')} {...gen('stepScale')} slotProps={decimalInput} />
        <TextField size="small" select label={translate('strategy.amountMode')} {...gen('mode')}>
          <MenuItem value="equal">{translate('strategy.modeEqual')}</MenuItem>
          <MenuItem value="doubling">{translate('strategy.modeDoubling')}</MenuItem>
          <MenuItem value="arithmetic">{translate('strategy.modeArithmetic')}</MenuItem>
        </TextField>
        <TextField size="small" label={translate('strategy.firstMultiple')} {...gen('firstMultiple')} slotProps={decimalInput} />
        {generator.mode === 'arithmetic' && <TextField size="small" label={translate('strategy.multipleStep')} {...gen('multipleStep')} slotProps={decimalInput} />}
      </Box>
      <Button
        variant="outlined"
        sx={{ mt: 2 }}
        disabled={generateLevels(generator) === null}
        onClick={() => {
          const levels = generateLevels(generator);
          if (levels) setValue('levels', levels, { shouldDirty: true });
        }}
      >
        {translate('strategy.generate')}
      </Button>
    </Paper>
  );
};

/** The replenish levels, one row each: drop and multiple, removable; a new one continues the ladder. */
const Levels = () => {
  const translate = useTranslate();
  const { fields, append, remove } = useFieldArray<StrategyDraft, 'levels'>({ name: 'levels' });
  const levels = useWatch<StrategyDraft, 'levels'>({ name: 'levels' });
  return (
    <Paper sx={section}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {translate('strategy.levels')}
      </Typography>
      <Stack spacing={1}>
        {fields.map((field, index) => (
          <Stack key={field.id} direction="row" spacing={1} sx={{ alignItems: 'center' }} data-level={index + 1}>
            <Typography sx={{ width: 28, color: 'text.secondary' }}>{index + 1}</Typography>
            <DraftInput source={`levels.${index}.dropPercent`} size="small" sx={fill} label={translate('strategy.dropPercent')} slotProps={decimalInput} />
            <DraftInput source={`levels.${index}.multiple`} size="small" sx={fill} label={translate('strategy.multiple')} slotProps={decimalInput} />
            <IconButton aria-label={translate('strategy.removeLevel', { level: index + 1 })} onClick={() => remove(index)}>
              <DeleteIcon />
            </IconButton>
          </Stack>
        ))}
      </Stack>
      <Button
        startIcon={<AddIcon />}
        sx={{ mt: 1 }}
        disabled={fields.length >= MAX_LEVELS}
        onClick={() => {
          const last = levels?.at(-1);
          append({ dropPercent: last ? String(Number(last.dropPercent) + 2) : '2', multiple: last?.multiple ?? '1' });
        }}
      >
        {translate('strategy.addLevel')}
      </Button>
    </Paper>
  );
};

/** The ladder the form's values make (live), or why it makes no sense; and the save button, off while it does not. */
const PreviewAndSave = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const { setValue } = useFormContext<StrategyDraft>();
  const draft = useWatch<StrategyDraft>() as StrategyDraft;
  /** A compared variant's settings into this form (saved with the template, like any edit). */
  const apply = ({ settings: chosen, label }: VariantResult) => {
    const options = { shouldDirty: true, shouldValidate: true };
    setValue('levels', chosen.levels.map((level) => ({ ...level })), options);
    setValue('takeProfitPercent', chosen.takeProfitPercent, options);
    setValue('takeProfitCallbackPercent', chosen.takeProfitCallbackPercent, options);
    setValue('replenishCallbackPercent', chosen.replenishCallbackPercent, options);
    notify(translate('backtest.variants.applied', { label }), { type: 'success' });
  };
  const { saving } = useSaveContext();
  const settings = toSettings(draft);
  const problem = settings ? strategyProblem(settings) : null;
  return (
    <>
      <Paper sx={section}>
        <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 2 }}>
          {translate('strategy.preview')}
        </Typography>
        {problem ? (
          <Typography color="error" role="alert">
            {translate(`strategy.problem.${problem.code}`, { level: problem.level, floor: problem.floor, target: problem.target, where: conditionWhere(problem, translate) })}
          </Typography>
        ) : (
          <LadderPreview settings={settings} footer={settings ? (rows, formatAt) => <ExitExamples settings={settings} rows={rows} formatAt={formatAt} /> : undefined} />
        )}
      </Paper>
      <Paper sx={section}>
        <BacktestLauncher settings={settings && !problem ? settings : null} onApply={apply} />
      </Paper>
      <Button type="submit" variant="contained" size="large" disabled={saving || !settings || problem !== null}>
        {translate('strategy.save')}
      </Button>
    </>
  );
};

/** Take profit (the single one, hidden while several targets sell), callbacks and cooldown. */
const MainFields = () => {
  const translate = useTranslate();
  const several = useWatch<StrategyDraft, 'targetsEnabled'>({ name: 'targetsEnabled' });
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}>
      {!several && <DraftInput source="takeProfitPercent" label={translate('strategy.takeProfit')} slotProps={decimalInput} />}
      <DraftInput source="cooldownSeconds" label={translate('strategy.cooldown')} slotProps={{ htmlInput: { inputMode: 'numeric' } }} />
      <DraftInput source="takeProfitCallbackPercent" label={translate('strategy.takeProfitCallback')} helperText={translate('strategy.takeProfitCallbackHelp')} slotProps={decimalInput} />
      <DraftInput source="replenishCallbackPercent" label={translate('strategy.replenishCallback')} helperText={translate('strategy.replenishCallbackHelp')} slotProps={decimalInput} />
    </Box>
  );
};

/** A name is needed; the numbers are checked by the preview (the save button waits for a ladder that makes sense). */
const validate = (values: Partial<StrategyDraft>) => (values.name?.trim() ? {} : { name: 'ra.validation.required' });

/** The template editor, on react-admin's Form inside EditBase or CreateBase (the save context). */
const StrategyForm = ({ draft }: { draft: StrategyDraft }) => {
  const translate = useTranslate();
  return (
    <Form record={draft} validate={validate} noValidate>
      <ScrollToFirstError />
      <Stack spacing={2}>
        <Paper sx={section}>
          <Stack spacing={2}>
            <DraftInput source="name" label={translate('strategy.name')} isRequired helperText=" " slotProps={{ htmlInput: { maxLength: 40 } }} />
            <MainFields />
          </Stack>
        </Paper>
        <ExitFields />
        <ConditionFields />
        <Generator />
        <Levels />
        <PreviewAndSave />
      </Stack>
    </Form>
  );
};

/** Saved: say so and go back to the list (a refusal naming a field shows at that field, ApiError's `body.errors`). */
const useSaved = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  return () => {
    notify(translate('strategy.saved'), { type: 'success' });
    navigate('/strategy');
  };
};

/** The draft as the API takes it (the save button is off while it is not one). */
const toPayload = (draft: StrategyDraft) => toSettings(draft) ?? {};

const FormSkeleton = () => (
  <Stack spacing={2} aria-busy="true" data-state="loading">
    <Skeleton variant="rounded" height={220} />
    <Skeleton variant="rounded" height={160} />
  </Stack>
);

/** The loaded template's form: nothing editable while it loads or when it could not be loaded. */
const EditForm = () => {
  const { record, isPending, error, refetch } = useEditContext<StrategyTemplate>();
  if (error) return <LoadError error={error} onRetry={() => void refetch()} />;
  if (isPending || !record) return <FormSkeleton />;
  return <StrategyForm draft={draftFrom(record)} />;
};

const StrategyEdit = ({ id }: { id: string }) => {
  const saved = useSaved();
  return (
    <Screen titleKey="page.strategyEdit">
      {/* A template that cannot be loaded stays on this page with its reason and a retry (react-admin would go back to the list). */}
      <EditBase
        resource={STRATEGIES}
        id={id}
        mutationMode="pessimistic"
        transform={toPayload}
        mutationOptions={{ onSuccess: saved }}
        queryOptions={{ onError: () => undefined }}
        redirect={false}
        redirectOnError={false}
      >
        <EditForm />
      </EditBase>
    </Screen>
  );
};

/** A new template: from the defaults, or from a copy of another (`?copy=<id>`, named "<its name> 2"). */
const StrategyCreate = ({ copyOf }: { copyOf: string | null }) => {
  const translate = useTranslate();
  const saved = useSaved();
  const source = useGetOne<StrategyTemplate>(STRATEGIES, { id: copyOf ?? '' }, { enabled: copyOf !== null });
  let body;
  if (copyOf && source.error) body = <LoadError error={source.error} onRetry={() => void source.refetch()} />;
  else if (copyOf && !source.data) body = <FormSkeleton />;
  else {
    body = (
      <CreateBase resource={STRATEGIES} transform={toPayload} mutationOptions={{ onSuccess: saved }} redirect={false}>
        <StrategyForm draft={source.data ? draftFrom(source.data, `${templateLabel(source.data, translate)} 2`) : DEFAULT_DRAFT} />
      </CreateBase>
    );
  }
  return <Screen titleKey="page.strategyAdd">{body}</Screen>;
};

/** `/strategy/add` (optionally `?copy=<id>`) and `/strategy/edit/:id`: the template editor with its ladder preview. */
export const StrategyEditPage = () => {
  const { id } = useParams();
  const [params] = useSearchParams();
  return id ? <StrategyEdit id={id} /> : <StrategyCreate copyOf={params.get('copy')} />;
};
