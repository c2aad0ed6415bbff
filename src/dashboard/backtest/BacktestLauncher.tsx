import QueryStatsIcon from '@mui/icons-material/QueryStats';
import { Box, Button, Collapse, LinearProgress, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslate } from 'react-admin';
import type { BacktestLauncherProps } from '../kit/embeds';

/** The panel (and with its first result, the chart library) loads when it is opened, never with the page. */
const BacktestPanel = lazy(() => import('./BacktestPanel').then((module) => ({ default: module.BacktestPanel })));

/**
 * The "回测" entry where a template is chosen or edited: a line saying what a
 * backtest does and a button that opens the panel in place. `settings` null
 * (a template still being typed) keeps it closed, with the reason.
 */
export const BacktestLauncher = ({ settings, defaults, blockedReason, onApply }: BacktestLauncherProps) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const shown = open && settings !== null;
  return (
    <Stack
      spacing={1.5}
      data-section="backtest"
      // Inside the wizard's form, Enter in a backtest field must not submit (create) the task.
      onKeyDown={(event) => {
        if (event.key === 'Enter' && (event.target as HTMLElement).tagName === 'INPUT') event.preventDefault();
      }}
    >
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}>
        <Box sx={{ minWidth: 0, flex: '1 1 240px' }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {translate('backtest.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {settings === null ? (blockedReason ?? translate('backtest.blocked')) : translate('backtest.intro')}
          </Typography>
        </Box>
        <Button variant={shown ? 'text' : 'outlined'} startIcon={<QueryStatsIcon />} disabled={settings === null} onClick={() => setOpen((value) => !value)} aria-expanded={shown}>
          {translate(shown ? 'backtest.close' : 'backtest.open')}
        </Button>
      </Stack>
      <Collapse in={shown} unmountOnExit>
        {settings && (
          <Suspense fallback={<LinearProgress />}>
            <BacktestPanel settings={settings} {...(defaults ? { defaults } : {})} {...(onApply ? { onApply } : {})} />
          </Suspense>
        )}
      </Collapse>
    </Stack>
  );
};
