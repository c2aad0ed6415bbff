import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import {
  Box,
  Button,
  FormControlLabel,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { strategyProblem, type StrategyTemplate } from '../../api/strategy';
import { isApiError } from '../../dataProvider/ApiError';
import type { AppDataProvider } from '../../dataProvider/dataProvider';
import { Screen } from '../layout/Screen';
import { LadderPreview } from './LadderPreview';
import { templateLabel } from './strategyText';
import { DEFAULT_GENERATOR, draftFrom, generateLevels, toSettings, useStrategyDraft, type GeneratorInput } from './useStrategyDraft';

const decimalInput = { htmlInput: { inputMode: 'decimal' as const } };
const section = { p: { xs: 2, md: 3 }, minWidth: 0 } as const;
/** Fields that share a row shrink with it instead of pushing the page wider than a phone. */
const fill = { flex: 1, minWidth: 0 } as const;

/** `/strategy/add` (optionally `?copy=<id>`) and `/strategy/edit/:id`: the template editor with its ladder preview. */
export const StrategyEditPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { id } = useParams();
  const [params] = useSearchParams();
  const copyOf = params.get('copy');
  const { draft, setDraft, update, setLevel } = useStrategyDraft();
  const [generator, setGenerator] = useState<GeneratorInput>(DEFAULT_GENERATOR);
  const [saving, setSaving] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);

  useEffect(() => {
    const source = id ?? copyOf;
    if (!source) return;
    dataProvider
      .getOne<StrategyTemplate>('strategy', { id: source })
      .then(({ data }) => setDraft(draftFrom(data, id ? data.name : `${templateLabel(data, translate)} 2`)))
      .catch((error: unknown) => notify(error instanceof Error ? error.message : translate('error.fallback'), { type: 'error' }));
    // Load once per page; translate changes with the language only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, copyOf, dataProvider, notify, setDraft]);

  const settings = toSettings(draft);
  const problem = settings ? strategyProblem(settings) : null;

  const save = async () => {
    if (!settings || problem) return;
    if (!settings.name) {
      setNameError(translate('ra.validation.required'));
      return;
    }
    setSaving(true);
    try {
      if (id) await dataProvider.update('strategy', { id, data: settings, previousData: { id } });
      else await dataProvider.create('strategy', { data: settings });
      notify(translate('strategy.saved'), { type: 'success' });
      navigate('/strategy');
    } catch (error) {
      const message = error instanceof Error ? error.message : translate('error.fallback');
      if (isApiError(error) && (error.data as { field?: string } | null)?.field === 'name') setNameError(message);
      notify(message, { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const gen = (key: keyof GeneratorInput) => ({
    value: generator[key],
    onChange: (event: { target: { value: string } }) => setGenerator((g) => ({ ...g, [key]: event.target.value })),
  });

  return (
    <Screen titleKey={id ? 'page.strategyEdit' : 'page.strategyAdd'}>
      <Stack spacing={2}>
        <Paper sx={section}>
          <Stack spacing={2}>
            <TextField
              label={translate('strategy.name')}
              name="name"
              value={draft.name}
              required
              error={Boolean(nameError)}
              helperText={nameError ?? ' '}
              onChange={(event) => {
                setNameError(null);
                update({ name: event.target.value });
              }}
              slotProps={{ htmlInput: { maxLength: 40 } }}
            />
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}>
              <TextField label={translate('strategy.takeProfit')} name="takeProfitPercent" value={draft.takeProfitPercent} onChange={(e) => update({ takeProfitPercent: e.target.value })} slotProps={decimalInput} />
              <TextField label={translate('strategy.cooldown')} name="cooldownSeconds" value={draft.cooldownSeconds} onChange={(e) => update({ cooldownSeconds: e.target.value })} slotProps={{ htmlInput: { inputMode: 'numeric' } }} />
              <TextField
                label={translate('strategy.takeProfitCallback')}
                name="takeProfitCallbackPercent"
                value={draft.takeProfitCallbackPercent}
                helperText={translate('strategy.takeProfitCallbackHelp')}
                onChange={(e) => update({ takeProfitCallbackPercent: e.target.value })}
                slotProps={decimalInput}
              />
              <TextField
                label={translate('strategy.replenishCallback')}
                name="replenishCallbackPercent"
                value={draft.replenishCallbackPercent}
                helperText={translate('strategy.replenishCallbackHelp')}
                onChange={(e) => update({ replenishCallbackPercent: e.target.value })}
                slotProps={decimalInput}
              />
            </Box>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <FormControlLabel
                control={<Switch checked={draft.stopLossEnabled} onChange={(_, checked) => update({ stopLossEnabled: checked })} />}
                label={translate('strategy.stopLoss')}
              />
              {draft.stopLossEnabled && (
                <TextField size="small" label={translate('strategy.stopLossPercent')} name="stopLossPercent" value={draft.stopLossPercent} onChange={(e) => update({ stopLossPercent: e.target.value })} slotProps={decimalInput} />
              )}
            </Stack>
          </Stack>
        </Paper>

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
              if (levels) update({ levels });
            }}
          >
            {translate('strategy.generate')}
          </Button>
        </Paper>

        <Paper sx={section}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
            {translate('strategy.levels')}
          </Typography>
          <Stack spacing={1}>
            {draft.levels.map((level, index) => (
              <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'center' }} data-level={index + 1}>
                <Typography sx={{ width: 28, color: 'text.secondary' }}>{index + 1}</Typography>
                <TextField size="small" sx={fill} label={translate('strategy.dropPercent')} value={level.dropPercent} onChange={(e) => setLevel(index, { dropPercent: e.target.value })} slotProps={decimalInput} />
                <TextField size="small" sx={fill} label={translate('strategy.multiple')} value={level.multiple} onChange={(e) => setLevel(index, { multiple: e.target.value })} slotProps={decimalInput} />
                <IconButton aria-label={translate('strategy.removeLevel', { level: index + 1 })} onClick={() => update({ levels: draft.levels.filter((_, i) => i !== index) })}>
                  <DeleteIcon />
                </IconButton>
              </Stack>
            ))}
          </Stack>
          <Button
            startIcon={<AddIcon />}
            sx={{ mt: 1 }}
            disabled={draft.levels.length >= 30}
            onClick={() => {
              const last = draft.levels.at(-1);
              update({ levels: [...draft.levels, { dropPercent: last ? String(Number(last.dropPercent) + 2) : '2', multiple: last?.multiple ?? '1' }] });
            }}
          >
            {translate('strategy.addLevel')}
          </Button>
        </Paper>

        <Paper sx={section}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 2 }}>
            {translate('strategy.preview')}
          </Typography>
          {problem ? (
            <Typography color="error" role="alert">
              {translate(`strategy.problem.${problem.code}`, { level: problem.level })}
            </Typography>
          ) : (
            <LadderPreview settings={settings} />
          )}
        </Paper>

        <Button variant="contained" size="large" onClick={save} disabled={saving || !settings || problem !== null}>
          {translate('strategy.save')}
        </Button>
      </Stack>
    </Screen>
  );
};
