import CheckIcon from '@mui/icons-material/Check';
import DarkModeIcon from '@mui/icons-material/DarkModeOutlined';
import LightModeIcon from '@mui/icons-material/LightModeOutlined';
import { IconButton, ListItemIcon, ListItemText, ListSubheader, Menu, MenuItem, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useTheme, useTranslate } from 'react-admin';
import { PRICE_COLOR_SCHEMES } from '../../api/colors';
import { storePriceColors } from '../../i18n/priceColors';
import { usePriceColors } from './usePriceColors';

const COLOR_KEY = { 'red-up': 'display.redUp', 'green-up': 'display.greenUp' } as const;

/**
 * The app bar's display settings: light or dark (react-admin's theme store,
 * kept across logout by App.tsx) and 红涨绿跌 / 绿涨红跌 (src/i18n/priceColors).
 */
export const DisplayMenu = () => {
  const translate = useTranslate();
  const [mode, setMode] = useTheme();
  const scheme = usePriceColors();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const check = (on: boolean) => <ListItemIcon>{on ? <CheckIcon fontSize="small" /> : null}</ListItemIcon>;
  return (
    <>
      <Tooltip title={translate('display.menu')}>
        <IconButton color="inherit" aria-label={translate('display.menu')} aria-haspopup="menu" data-display-menu onClick={(event) => setAnchor(event.currentTarget)}>
          {mode === 'dark' ? <DarkModeIcon /> : <LightModeIcon />}
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)} slotProps={{ list: { dense: true } }}>
        <ListSubheader>{translate('display.mode')}</ListSubheader>
        {(['light', 'dark'] as const).map((value) => (
          <MenuItem key={value} selected={mode === value} data-theme-mode={value} onClick={() => setMode(value)}>
            {check(mode === value)}
            <ListItemText primary={translate(`display.${value}`)} />
          </MenuItem>
        ))}
        <ListSubheader>{translate('display.colors')}</ListSubheader>
        {PRICE_COLOR_SCHEMES.map((value) => (
          <MenuItem key={value} selected={scheme === value} data-price-colors={value} onClick={() => storePriceColors(value)}>
            {check(scheme === value)}
            <ListItemText primary={translate(COLOR_KEY[value])} />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};
