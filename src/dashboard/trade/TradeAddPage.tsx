import {
  Button,
  Chip,
  FormControlLabel,
  MenuItem,
  Paper,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { ReplenishStatus } from '../../api/types';
import { Screen } from '../layout/Screen';
import { pairId, useWizardDraft, wizardDraft } from './wizard/draftStore';
import { useWizardSubmit } from './wizard/useWizardSubmit';

/** The trade wizard (`/trade/add`): every field edits the draft, which session storage keeps. */
export const TradeAddPage = () => {
  const translate = useTranslate();
  const draft = useWizardDraft();
  const { create } = useWizardSubmit();

  return (
    <Screen titleKey="page.tradeAdd">
      <Paper component="form" noValidate sx={{ p: { xs: 2, md: 3 } }} onSubmit={(event) => { event.preventDefault(); void create(); }}>
        <Stack spacing={2.5}>
          <TextField
            label={translate('wizard.exchange')}
            value={draft.selectedApiName || draft.selectedApi || ''}
            placeholder={translate('wizard.noneSelected')}
            slotProps={{ input: { readOnly: true } }}
          />
          <Stack spacing={1}>
            <Typography variant="subtitle2">{translate('wizard.pairs')}</Typography>
            <Stack sx={{ flexWrap: 'wrap', gap: 1 }} direction="row">
              {draft.selectedPairs.length === 0 && (
                <Typography color="text.secondary">{translate('wizard.noneSelected')}</Typography>
              )}
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
            onChange={(event) => wizardDraft.update({ cycleTimes: Math.max(1, Math.trunc(Number(event.target.value) || 1)) })}
          />
          <TextField
            select
            label={translate('wizard.status')}
            value={draft.status}
            onChange={(event) => wizardDraft.update({ status: event.target.value as ReplenishStatus })}
          >
            <MenuItem value="replenish_open">{translate('wizard.statusOpen')}</MenuItem>
            <MenuItem value="replenish_closed">{translate('wizard.statusClosed')}</MenuItem>
          </TextField>
          <TextField
            label={translate('wizard.template')}
            value={draft.templateName || draft.selectedTemplate || ''}
            placeholder={translate('wizard.noneSelected')}
            slotProps={{ input: { readOnly: true } }}
          />
          <FormControlLabel
            control={<Switch checked={draft.firstOrderLeverage} onChange={(_, checked) => wizardDraft.update({ firstOrderLeverage: checked })} />}
            label={translate('wizard.firstOrderLeverage')}
          />
          <FormControlLabel
            control={<Switch checked={draft.running} onChange={(_, checked) => wizardDraft.update({ running: checked })} />}
            label={translate('wizard.running')}
          />
          <Button type="submit" variant="contained" size="large">
            {translate('wizard.submit')}
          </Button>
        </Stack>
      </Paper>
    </Screen>
  );
};
