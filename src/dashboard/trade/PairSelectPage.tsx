import { Alert, Button, Checkbox, Chip, InputAdornment, List, ListItemButton, ListItemIcon, ListItemText, Paper, Stack, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { Link, useNavigate } from 'react-router-dom';
import { formatPercent, formatPrice } from '../../api/format';
import type { TradePair } from '../../api/trade';
import { trendColor } from '../kit/trend';
import { Screen } from '../layout/Screen';
import { useHotPairs, usePairs } from './api';
import { pairId, useWizardDraft, wizardDraft } from './wizard/draftStore';


/** `/trade/pair-select`: search, hot pairs and multi-select for the wizard draft. */
export const PairSelectPage = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const navigate = useNavigate();
  const draft = useWizardDraft();
  const [q, setQ] = useState('');
  const [sort, setSort] = useState<'volume' | 'change'>('volume');
  const exchangeId = draft.selectedApi ?? undefined;
  const selected = new Set(draft.selectedPairs.map(pairId));

  const pairs = usePairs(exchangeId, q);
  const hot = useHotPairs(exchangeId, sort);

  const toggle = (id: string) =>
    wizardDraft.update({ selectedPairs: selected.has(id) ? draft.selectedPairs.filter((p) => pairId(p) !== id) : [...draft.selectedPairs, id] });

  if (!exchangeId) {
    return (
      <Screen titleKey="page.pairSelect">
        <Alert severity="info" action={<Button component={Link} to="/trade/add">{translate('app.back')}</Button>}>
          {translate('wizard.chooseExchangeFirst')}
        </Alert>
      </Screen>
    );
  }

  return (
    <Screen titleKey="page.pairSelect">
      <Stack spacing={2}>
        <Paper sx={{ p: 2, minWidth: 0 }}>
          <Stack direction="row" sx={{ alignItems: 'center', mb: 1, gap: 1, flexWrap: 'wrap' }}>
            <Typography variant="subtitle1" sx={{ fontWeight: 600, flexGrow: 1 }}>
              {translate('wizard.hotPairs')}
            </Typography>
            <ToggleButtonGroup size="small" exclusive value={sort} onChange={(_, value: 'volume' | 'change' | null) => value && setSort(value)}>
              <ToggleButton value="volume">{translate('wizard.byVolume')}</ToggleButton>
              <ToggleButton value="change">{translate('wizard.byChange')}</ToggleButton>
            </ToggleButtonGroup>
          </Stack>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
            {hot.data?.map((pair) => (
              <Chip
                key={pair.id}
                label={`${pair.base} ${formatPercent(pair.change24h, locale, { signed: true })}`}
                color={selected.has(pair.id) ? 'primary' : 'default'}
                variant={selected.has(pair.id) ? 'filled' : 'outlined'}
                onClick={() => toggle(pair.id)}
              />
            ))}
          </Stack>
        </Paper>

        <Paper sx={{ p: 2, minWidth: 0 }}>
          <TextField
            fullWidth
            size="small"
            placeholder={translate('wizard.searchPairs')}
            value={q}
            onChange={(event) => setQ(event.target.value)}
            slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon /></InputAdornment> }, htmlInput: { 'aria-label': translate('wizard.searchPairs') } }}
          />
          {pairs.error && <Alert severity="error" sx={{ mt: 1 }}>{pairs.error.message}</Alert>}
          {pairs.data?.list.length === 0 && <Typography sx={{ mt: 2 }} color="text.secondary">{translate('wizard.noPairs')}</Typography>}
          <List dense>
            {pairs.data?.list.map((pair: TradePair) => (
              <ListItemButton key={pair.id} onClick={() => toggle(pair.id)} selected={selected.has(pair.id)}>
                <ListItemIcon sx={{ minWidth: 36 }}>
                  <Checkbox edge="start" checked={selected.has(pair.id)} tabIndex={-1} disableRipple slotProps={{ input: { 'aria-label': pair.symbol } }} />
                </ListItemIcon>
                <ListItemText primary={pair.symbol} secondary={`${translate('wizard.price')} ${formatPrice(pair.price, locale, { tick: pair.tickSize })}`} />
                <Typography variant="body2" sx={{ color: trendColor(pair.change24h), whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                  {formatPercent(pair.change24h, locale, { signed: true })}
                </Typography>
              </ListItemButton>
            ))}
          </List>
        </Paper>

        {/* One solid bar pinned under the list (not a label floating over its rows): the count and the way back. */}
        <Paper
          elevation={6}
          data-section="pair-selection"
          sx={{ position: 'sticky', bottom: { xs: 72, md: 8 }, zIndex: 1, display: 'flex', gap: 1, alignItems: 'center', px: 2, py: 1, bgcolor: 'background.paper' }}
        >
          <Typography sx={{ flexGrow: 1, minWidth: 0 }} role="status">
            {translate('wizard.selectedCount', { count: selected.size })}
          </Typography>
          <Button variant="contained" size="large" onClick={() => navigate('/trade/add')}>
            {translate('wizard.done')}
          </Button>
        </Paper>
      </Stack>
    </Screen>
  );
};
