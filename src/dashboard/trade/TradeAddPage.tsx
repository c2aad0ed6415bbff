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
  Typography,
} from '@mui/material';
import Big from 'big.js';
import { useGetList, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { ExchangeAccount } from '../../api/exchange';
import { maxCycleFunds, type StrategyTemplate } from '../../api/strategy';
import type { ReplenishStatus } from '../../api/types';
import { BacktestLauncher } from '../backtest/BacktestLauncher';
import { sectionSx as section } from '../kit/Section';
import { Screen } from '../layout/Screen';
import { useSystemTemplates } from '../strategy/api';
import { templateLabel } from '../strategy/strategyText';
import { RefusalWithRemedy } from './RefusalWithRemedy';
import { pairId, useWizardDraft, wizardDraft } from './wizard/draftStore';
import { useWizardSubmit } from './wizard/useWizardSubmit';

const DECIMAL = /^\d+(\.\d+)?$/;

/** The trade wizard (`/trade/add`): every field edits the draft, which session storage keeps. */
export const TradeAddPage = () => {
  const translate = useTranslate();
  const draft = useWizardDraft();
  const { create, refusal, clearRefusal } = useWizardSubmit();
  const accounts = useGetList<ExchangeAccount & { id: string }>('exchange', { pagination: { page: 1, perPage: 100 }, sort: { field: 'createdAt', order: 'ASC' } });
  const mine = useGetList<StrategyTemplate>('strategy', { pagination: { page: 1, perPage: 100 }, sort: { field: 'updatedAt', order: 'DESC' } });
  const system = useSystemTemplates();
  const templates = [...(mine.data ?? []), ...(system.data ?? [])];
  const template = templates.find((t) => t.id === draft.selectedTemplate);
  const amountOk = DECIMAL.test(String(draft.firstOrderAmount).trim()) && Number(draft.firstOrderAmount) > 0;
  const perPair = template && amountOk ? maxCycleFunds(template, String(draft.firstOrderAmount).trim(), draft.firstOrderLeverage) : null;

  return (
    <Screen titleKey="page.tradeAdd">
      <Stack
        component="form"
        noValidate
        spacing={2}
        onSubmit={(event: React.FormEvent) => {
          event.preventDefault();
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
                value={draft.selectedApi ?? ''}
                helperText={translate('wizard.chooseExchange')}
                onChange={(event) => {
                  const chosen = accounts.data?.find((a) => a.id === event.target.value);
                  // Pairs belong to an exchange: a new account starts a new selection.
                  wizardDraft.update({ selectedApi: chosen?.id ?? null, selectedApiName: chosen?.name ?? '', selectedPairs: [] });
                }}
              >
                {accounts.data?.map((account) => (
                  <MenuItem key={account.id} value={account.id}>
                    {account.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <Stack spacing={1}>
              <Typography variant="subtitle2">{translate('wizard.pairs')}</Typography>
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                {draft.selectedPairs.length === 0 && <Typography color="text.secondary">{translate('wizard.noneSelected')}</Typography>}
                {draft.selectedPairs.map((pair) => (
                  <Chip
                    key={pairId(pair)}
                    label={pairId(pair)}
                    onDelete={() => wizardDraft.update({ selectedPairs: draft.selectedPairs.filter((p) => pairId(p) !== pairId(pair)) })}
                  />
                ))}
              </Stack>
              <Button component={Link} to="/trade/pair-select" variant="outlined" sx={{ alignSelf: 'flex-start' }}>
                {translate('wizard.selectPairs')}
              </Button>
            </Stack>
          </Stack>
        </Paper>

        <Paper sx={section}>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}>
            <TextField
              label={translate('wizard.firstOrderAmount')}
              name="firstOrderAmount"
              value={draft.firstOrderAmount}
              onChange={(event) => wizardDraft.update({ firstOrderAmount: event.target.value })}
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            />
            <TextField
              label={translate('wizard.cycleTimes')}
              name="cycleTimes"
              type="number"
              value={draft.cycleTimes}
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
              <FormControlLabel control={<Switch checked={draft.running} onChange={(_, checked) => wizardDraft.update({ running: checked })} />} label={translate('wizard.running')} />
            </Stack>
          </Box>
        </Paper>

        <Paper sx={section}>
          <Stack spacing={2}>
            <TextField
              select
              label={translate('wizard.template')}
              name="selectedTemplate"
              value={template ? template.id : ''}
              helperText={translate('wizard.chooseTemplate')}
              onChange={(event) => {
                const chosen = templates.find((t) => t.id === event.target.value);
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
                  {templateLabel(t, translate)}
                </MenuItem>
              ))}
            </TextField>
            {template && (
              <Typography variant="body2" color="text.secondary">
                {translate('strategy.summary', { tp: template.takeProfitPercent, cb: template.takeProfitCallbackPercent, cooldown: template.cooldownSeconds })}
                {' · '}
                {translate('strategy.levelCount', { count: template.levels.length })}
              </Typography>
            )}
            {template && (
              <BacktestLauncher
                settings={template}
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
                  amount: perPair,
                  count: draft.selectedPairs.length,
                  total: new Big(perPair).times(draft.selectedPairs.length).toFixed(),
                })}
              </Alert>
            )}
          </Stack>
        </Paper>

        {refusal !== null && (
          <RefusalWithRemedy
            error={refusal}
            exchangeId={draft.selectedApi}
            onFirstOrder={(amount) => {
              wizardDraft.update({ firstOrderAmount: amount });
              clearRefusal();
            }}
          />
        )}
        <Button type="submit" variant="contained" size="large">
          {translate('wizard.submit')}
        </Button>
      </Stack>
    </Screen>
  );
};
