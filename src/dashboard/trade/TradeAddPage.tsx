import {
  Alert,
  Box,
  Button,
  Chip,
  FormControlLabel,
  ListSubheader,
  MenuItem,
  Paper,
  Stack,
  Switch,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import Big from 'big.js';
import { useEffect, useRef, useState } from 'react';
import { useCreate, useGetList, useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { PresetFigures, VariantResult } from '../../api/backtest';
import { Link, useSearchParams } from 'react-router-dom';
import { isTestnetExchange, type ExchangeAccount } from '../../api/exchange';
import { formatMoney } from '../../api/format';
import { firstOrderForInvestment, maxCycleFunds, sameSettings, withBuyFees, type StrategySettings, type StrategyTemplate } from '../../api/strategy';
import type { ReplenishStatus, TradeWizardDraft } from '../../api/types';
import { BacktestLauncher } from '../kit/embeds';
import { useAccountBalance, useSystemTemplates } from '../kit/queries';
import { sectionSx as section } from '../kit/Section';
import { Screen } from '../layout/Screen';
import { RECOMMENDED_TEMPLATE, templateLabel } from '../kit/templateText';
import { scrollToFirstErrorSoon } from '../kit/firstError';
import { useHotPairs } from './api';
import { PresetCards } from './PresetCards';
import { RefusalWithRemedy } from './RefusalWithRemedy';
import { refusalField, type WizardField } from './taskText';
import { pairId, useWizardDraft, wizardDraft } from './wizard/draftStore';
import { isWizardValid } from './wizard/submit';
import { useWizardSubmit } from './wizard/useWizardSubmit';

const DECIMAL = /^\d+(\.\d+)?$/;

/** The trade wizard (`/trade/add`): every field edits the draft, which session storage keeps. */
export const TradeAddPage = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const draft = useWizardDraft();
  const { create, refusal, clearRefusal } = useWizardSubmit();
  const accounts = useGetList<ExchangeAccount & { id: string }>('exchange', { pagination: { page: 1, perPage: 100 }, sort: { field: 'createdAt', order: 'ASC' } });
  const mine = useGetList<StrategyTemplate>('strategy', { pagination: { page: 1, perPage: 100 }, sort: { field: 'updatedAt', order: 'DESC' } });
  const system = useSystemTemplates();
  const templates = [...(mine.data ?? []), ...(system.data ?? [])];
  const template = templates.find((t) => t.id === draft.selectedTemplate);
  const notify = useNotify();
  const [createStrategy] = useCreate();
  /** Saves settings as the user's own template and chooses it for this task (a system template is never changed). */
  const saveCopy = (name: string, settings: StrategySettings, copied: string) => {
    const { levels, takeProfitPercent, takeProfitCallbackPercent, replenishCallbackPercent, stopLossPercent, cooldownSeconds } = settings;
    void createStrategy(
      'strategy',
      { data: { name, levels, takeProfitPercent, takeProfitCallbackPercent, replenishCallbackPercent, stopLossPercent, cooldownSeconds } },
      {
        onSuccess: (created: { id: string | number }) => {
          wizardDraft.update({ selectedTemplate: String(created.id), templateName: name });
          void mine.refetch();
          notify(translate(copied, { name }), { type: 'success' });
        },
        onError: (error) => notify((error as Error).message, { type: 'error' }),
      },
    );
  };
  /**
   * "应用到策略" in the wizard: the compared variant becomes the user's own
   * copy of the chosen template (a system template is never changed, nor a
   * template other tasks may run on), chosen for this task.
   */
  const applyVariant = (of: StrategyTemplate, variant: VariantResult) =>
    saveCopy(`${templateLabel(of, translate)} · ${variant.label}`.slice(0, 40), variant.settings, 'backtest.variants.copied');
  /**
   * "应用" on a preset card: the system template becomes the user's own copy, chosen for this task. A copy
   * the user already has with the same settings is chosen again rather than made twice.
   */
  const applyPreset = (preset: PresetFigures) => {
    const base = translate('wizard.presets.copyName', { name: templateLabel({ name: preset.name, system: true }, translate) }).slice(0, 36);
    const own = mine.data ?? [];
    const existing = own.find((t) => (t.name === base || t.name.startsWith(`${base} `)) && sameSettings(t, preset.settings));
    if (existing) {
      wizardDraft.update({ selectedTemplate: existing.id, templateName: existing.name });
      notify(translate('wizard.presets.copied', { name: existing.name }), { type: 'success' });
      return;
    }
    let name = base;
    for (let n = 2; own.some((t) => t.name === name); n += 1) name = `${base} ${n}`;
    saveCopy(name, preset.settings, 'wizard.presets.copied');
  };
  // "Invest X": the first order follows the total, the template's ladder, the pairs and the doubled first order.
  const investing = draft.sizing === 'invest';
  const investOk = DECIMAL.test(draft.investAmount.trim()) && Number(draft.investAmount) > 0;
  const pairCount = Math.max(1, draft.selectedPairs.length);
  const derived = investing && investOk && template ? firstOrderForInvestment(template, draft.investAmount.trim(), pairCount, draft.firstOrderLeverage) : null;
  useEffect(() => {
    if (derived !== null && derived !== draft.firstOrderAmount) wizardDraft.update({ firstOrderAmount: derived });
  }, [derived, draft.firstOrderAmount]);
  const amountOk = DECIMAL.test(String(draft.firstOrderAmount).trim()) && Number(draft.firstOrderAmount) > 0 && (!investing || (derived !== null && Number(derived) > 0));
  const perPair = template && amountOk ? maxCycleFunds(template, String(draft.firstOrderAmount).trim(), draft.firstOrderLeverage) : null;
  const account = accounts.data?.find((a) => a.id === draft.selectedApi);
  const free = useAccountBalance(account?.id);
  const hot = useHotPairs(draft.selectedApi ?? undefined, 'volume');
  const [params, setParams] = useSearchParams();
  const [checked, setChecked] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  // `?exchange=` (the account just saved) or the only account: chosen already.
  useEffect(() => {
    if (!accounts.data) return;
    const wanted = params.get('exchange');
    const chosen = accounts.data.find((a) => a.id === wanted) ?? (wizardDraft.get().selectedApi === null && accounts.data.length === 1 ? accounts.data[0] : undefined);
    if (chosen && chosen.id !== wizardDraft.get().selectedApi) wizardDraft.update({ selectedApi: chosen.id, selectedApiName: chosen.name, selectedPairs: [] });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [accounts.data]);

  // `?template=` (a strategy card's "use this strategy"), else the recommended system template.
  useEffect(() => {
    if (!system.data || !mine.data) return;
    const wanted = params.get('template');
    const current = wizardDraft.get().selectedTemplate;
    const chosen =
      templates.find((t) => t.id === wanted) ??
      (current === null || !templates.some((t) => t.id === current) ? (system.data.find((t) => t.name === RECOMMENDED_TEMPLATE) ?? system.data[0]) : undefined);
    if (chosen && chosen.id !== current) wizardDraft.update({ selectedTemplate: chosen.id, templateName: templateLabel(chosen, translate) });
    if (wanted !== null || params.has('exchange')) setParams({}, { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [system.data, mine.data]);

  // A refusal about a field is shown there: bring it into view.
  useEffect(() => {
    if (refusal !== null) scrollToFirstErrorSoon(form.current ?? undefined);
  }, [refusal]);

  const at = refusalField(refusal);
  const missing: Partial<Record<WizardField, string>> = checked
    ? {
        ...(draft.selectedApi ? {} : { selectedApi: translate('wizard.required.exchange') }),
        ...(draft.selectedPairs.length > 0 ? {} : { selectedPairs: translate('wizard.required.pairs') }),
        ...(amountOk || (investing && investOk) ? {} : { firstOrderAmount: translate(investing ? 'wizard.required.investAmount' : 'wizard.required.firstOrderAmount') }),
        ...(draft.selectedTemplate ? {} : { selectedTemplate: translate('wizard.required.template') }),
      }
    : {};
  // What a cycle of every pair can need, with the buys' fees at the usual taker rate, as the server checks it on start.
  const needed = perPair && draft.selectedPairs.length > 0 ? withBuyFees(new Big(perPair).times(draft.selectedPairs.length)) : null;
  // The account's free USDT now (unknown for a real account whose exchange cannot be asked: no warning then).
  const available = free.data && free.data.id === account?.id ? free.data.free : null;
  const overBalance = needed !== null && available !== null && needed.gt(available);
  const refusalHere = (field: WizardField | null) =>
    refusal !== null && at === field ? (
      <RefusalWithRemedy
        error={refusal}
        exchangeId={draft.selectedApi}
        onFirstOrder={(amount) => {
          // The remedy names a first order: the task is sized by it from now on.
          wizardDraft.update({ firstOrderAmount: amount, sizing: 'firstOrder' });
          clearRefusal();
        }}
      />
    ) : null;
  const picks = (hot.data ?? []).filter((pair) => !draft.selectedPairs.some((p) => pairId(p) === pair.id)).slice(0, 4);

  return (
    <Screen titleKey="page.tradeAdd">
      <Stack
        component="form"
        ref={form}
        noValidate
        spacing={2}
        onSubmit={(event: React.FormEvent) => {
          event.preventDefault();
          setChecked(true);
          // Incomplete: the fields say what is missing, the first comes into view, and the
          // submit raises '表单未填写完整' (spec) without any call.
          if (!isWizardValid(wizardDraft.get())) scrollToFirstErrorSoon(form.current ?? undefined);
          void create();
        }}
      >
        <Paper sx={section}>
          <Stack spacing={2.5}>
            {accounts.data?.length === 0 ? (
              <Alert severity="info" action={<Button component={Link} to="/exchange/add">{translate('wizard.bindExchange')}</Button>}>
                {translate('wizard.noExchange')}
              </Alert>
            ) : (
              <TextField
                select
                label={translate('wizard.exchange')}
                name="selectedApi"
                value={account ? account.id : ''}
                error={Boolean(missing.selectedApi) || at === 'selectedApi'}
                helperText={missing.selectedApi ?? translate('wizard.chooseExchange')}
                onChange={(event) => {
                  const chosen = accounts.data?.find((a) => a.id === event.target.value);
                  // Pairs belong to an exchange: a new account starts a new selection.
                  wizardDraft.update({ selectedApi: chosen?.id ?? null, selectedApiName: chosen?.name ?? '', selectedPairs: [] });
                }}
              >
                {accounts.data?.map((account) => (
                  <MenuItem key={account.id} value={account.id}>
                    {isTestnetExchange(account.exchange) ? `${account.name} · ${translate('tasks.testnet')}` : account.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <Stack spacing={1}>
              <Typography variant="subtitle2" color={missing.selectedPairs || at === 'selectedPairs' ? 'error' : undefined}>
                {translate('wizard.pairs')}
              </Typography>
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }} data-field-error={missing.selectedPairs ? true : undefined}>
                {draft.selectedPairs.length === 0 && (
                  <Typography color={missing.selectedPairs ? 'error' : 'text.secondary'}>{missing.selectedPairs ?? translate('wizard.noneSelected')}</Typography>
                )}
                {draft.selectedPairs.map((pair) => (
                  <Chip
                    key={pairId(pair)}
                    label={pairId(pair)}
                    onDelete={() => wizardDraft.update({ selectedPairs: draft.selectedPairs.filter((p) => pairId(p) !== pairId(pair)) })}
                  />
                ))}
              </Stack>
              {picks.length > 0 && (
                <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }} role="group" aria-label={translate('wizard.quickPairs')}>
                  <Typography variant="body2" color="text.secondary">
                    {translate('wizard.quickPairs')}
                  </Typography>
                  {picks.map((pair) => (
                    <Chip
                      key={pair.id}
                      variant="outlined"
                      color="primary"
                      icon={<AddIcon />}
                      label={pair.symbol}
                      onClick={() => wizardDraft.update({ selectedPairs: [...wizardDraft.get().selectedPairs, pair.id] })}
                    />
                  ))}
                </Stack>
              )}
              <Button component={Link} to="/trade/pair-select" variant="outlined" sx={{ alignSelf: 'flex-start' }}>
                {translate('wizard.selectPairs')}
              </Button>
            </Stack>
            {refusalHere('selectedApi')}
            {refusalHere('selectedPairs')}
          </Stack>
        </Paper>

        <Paper sx={section}>
          <ToggleButtonGroup
            exclusive
            size="small"
            color="primary"
            value={draft.sizing}
            aria-label={translate('wizard.sizing')}
            onChange={(_, sizing: TradeWizardDraft['sizing'] | null) => {
              if (!sizing) return;
              // Switching to a total starts from what the current first order makes a full cycle of every pair cost.
              const investAmount = sizing === 'invest' && draft.investAmount === '' && needed ? needed.round(0, Big.roundUp).toFixed() : draft.investAmount;
              wizardDraft.update({ sizing, investAmount });
              if (at === 'firstOrderAmount') clearRefusal();
            }}
            sx={{ mb: 2, flexWrap: 'wrap' }}
          >
            <ToggleButton value="firstOrder">{translate('wizard.sizingFirstOrder')}</ToggleButton>
            <ToggleButton value="invest">{translate('wizard.sizingInvest')}</ToggleButton>
          </ToggleButtonGroup>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}>
            {investing ? (
              <TextField
                label={translate('wizard.investAmount')}
                name="investAmount"
                value={draft.investAmount}
                error={Boolean(missing.firstOrderAmount) || at === 'firstOrderAmount' || overBalance || (derived !== null && Number(derived) <= 0)}
                helperText={
                  missing.firstOrderAmount ??
                  (overBalance
                    ? translate('wizard.overBalance', { required: formatMoney(needed!.round(2, Big.roundUp).toFixed(), locale), available: formatMoney(available, locale) })
                    : derived !== null && Number(derived) <= 0 && template
                      ? translate('wizard.investTooSmall', { units: withBuyFees(maxCycleFunds(template, '1', draft.firstOrderLeverage)).toFixed(3) })
                      : derived !== null && perPair
                        ? translate('wizard.investDerived', {
                            first: formatMoney(derived, locale),
                            perPair: formatMoney(withBuyFees(perPair).toFixed(), locale),
                            count: pairCount,
                            total: formatMoney(withBuyFees(perPair).times(pairCount).toFixed(), locale),
                          })
                        : undefined)
                }
                onChange={(event) => {
                  wizardDraft.update({ investAmount: event.target.value });
                  if (at === 'firstOrderAmount') clearRefusal();
                }}
                slotProps={{
                  htmlInput: { inputMode: 'decimal' },
                  formHelperText: { ...(derived !== null && !missing.firstOrderAmount ? { 'data-derived': derived } : {}), ...(overBalance && !missing.firstOrderAmount ? { 'data-warning': 'balance' } : {}) },
                }}
              />
            ) : (
              <TextField
                label={translate('wizard.firstOrderAmount')}
                name="firstOrderAmount"
                value={draft.firstOrderAmount}
                error={Boolean(missing.firstOrderAmount) || at === 'firstOrderAmount' || overBalance}
                helperText={
                  missing.firstOrderAmount ??
                  (overBalance
                    ? translate('wizard.overBalance', {
                        // Rounded up, as the server's refusal says it: never less than is needed.
                        required: formatMoney(needed!.round(2, Big.roundUp).toFixed(), locale),
                        available: formatMoney(available, locale),
                      })
                    : undefined)
                }
                onChange={(event) => {
                  wizardDraft.update({ firstOrderAmount: event.target.value });
                  if (at === 'firstOrderAmount') clearRefusal();
                }}
                slotProps={{
                  htmlInput: { inputMode: 'decimal' },
                  formHelperText: { ...(overBalance && !missing.firstOrderAmount ? { 'data-warning': 'balance' } : {}) },
                }}
              />
            )}
            <TextField
              label={translate('wizard.cycleTimes')}
              name="cycleTimes"
              type="number"
              value={draft.cycleTimes}
              helperText={translate('wizard.cycleTimesHelp')}
              onChange={(event) => wizardDraft.update({ cycleTimes: Math.min(9999, Math.max(1, Math.trunc(Number(event.target.value) || 1))) })}
            />
            <TextField select label={translate('wizard.status')} value={draft.status} onChange={(event) => wizardDraft.update({ status: event.target.value as ReplenishStatus })}>
              <MenuItem value="replenish_open">{translate('wizard.statusOpen')}</MenuItem>
              <MenuItem value="replenish_closed">{translate('wizard.statusClosed')}</MenuItem>
            </TextField>
            <Stack>
              <FormControlLabel
                control={<Switch checked={draft.firstOrderLeverage} onChange={(_, checked) => wizardDraft.update({ firstOrderLeverage: checked })} />}
                label={translate('wizard.firstOrderLeverage')}
              />
              <Typography variant="caption" color="text.secondary" sx={{ mt: -0.5, mb: 1 }} data-explained="firstOrderLeverage">
                {translate('wizard.firstOrderLeverageHelp', { amount: formatMoney(amountOk ? new Big(String(draft.firstOrderAmount).trim()).times(2).toFixed() : '0', locale) })}
              </Typography>
              <FormControlLabel control={<Switch checked={draft.running} onChange={(_, checked) => wizardDraft.update({ running: checked })} />} label={translate('wizard.running')} />
            </Stack>
          </Box>
          {refusal !== null && at === 'firstOrderAmount' && <Box sx={{ mt: 2 }}>{refusalHere('firstOrderAmount')}</Box>}
        </Paper>

        <Paper sx={section}>
          <Stack spacing={2}>
            <PresetCards
              exchange={account && account.exchange !== 'paper' && !isTestnetExchange(account.exchange) ? account.exchange : null}
              symbol={draft.selectedPairs[0] ? pairId(draft.selectedPairs[0]) : null}
              chosen={template}
              // The account the wizard chooses by itself (the only one, or `?exchange=`) first: no ask for the wrong history.
              ready={accounts.data !== undefined && !params.has('exchange') && !(draft.selectedApi === null && accounts.data.length === 1)}
              sizing={{
                firstOrderAmount: investing ? null : String(draft.firstOrderAmount).trim(),
                invest: investing && investOk ? { amount: draft.investAmount.trim(), pairs: pairCount } : null,
                firstOrderMultiple: draft.firstOrderLeverage,
              }}
              onApply={applyPreset}
            />
            <TextField
              select
              label={translate('wizard.template')}
              name="selectedTemplate"
              value={template ? template.id : ''}
              error={Boolean(missing.selectedTemplate) || at === 'selectedTemplate'}
              helperText={missing.selectedTemplate ?? translate('wizard.chooseTemplate')}
              onChange={(event) => {
                const chosen = templates.find((t) => t.id === event.target.value);
                if (at === 'selectedTemplate') clearRefusal();
                wizardDraft.update({ selectedTemplate: chosen?.id ?? null, templateName: chosen ? templateLabel(chosen, translate) : '' });
              }}
            >
              {(mine.data?.length ?? 0) > 0 && <ListSubheader>{translate('wizard.myTemplates')}</ListSubheader>}
              {mine.data?.map((t) => (
                <MenuItem key={t.id} value={t.id}>
                  {t.name}
                </MenuItem>
              ))}
              <ListSubheader>{translate('wizard.systemTemplates')}</ListSubheader>
              {system.data?.map((t) => (
                <MenuItem key={t.id} value={t.id}>
                  {t.name === RECOMMENDED_TEMPLATE ? translate('wizard.recommended', { name: templateLabel(t, translate) }) : templateLabel(t, translate)}
                </MenuItem>
              ))}
            </TextField>
            {template && (
              <Typography variant="body2" color="text.secondary">
                {translate('strategy.summary', { tp: template.takeProfitPercent, cb: template.takeProfitCallbackPercent, cooldown: template.cooldownSeconds })}
                {' · '}
                <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                  {translate('strategy.levelCount', { count: template.levels.length })}
                </Box>
              </Typography>
            )}
            {template && (
              <BacktestLauncher
                settings={template}
                onApply={(variant) => applyVariant(template, variant)}
                defaults={{
                  symbol: draft.selectedPairs[0] ? pairId(draft.selectedPairs[0]) : undefined,
                  firstOrderAmount: String(draft.firstOrderAmount).trim(),
                  firstOrderMultiple: draft.firstOrderLeverage,
                  cycleCount: draft.cycleTimes,
                  exchange: accounts.data?.find((a) => a.id === draft.selectedApi)?.exchange,
                }}
              />
            )}
            {perPair && draft.selectedPairs.length > 0 && (
              <Alert severity="info" icon={false}>
                {translate('wizard.cycleFunds', {
                  amount: formatMoney(perPair, locale),
                  count: draft.selectedPairs.length,
                  total: formatMoney(new Big(perPair).times(draft.selectedPairs.length).toFixed(), locale),
                })}
              </Alert>
            )}
            {refusalHere('selectedTemplate')}
          </Stack>
        </Paper>

        {refusalHere(null)}
        <Button type="submit" variant="contained" size="large">
          {translate('wizard.submit')}
        </Button>
      </Stack>
    </Screen>
  );
};
