import TranslateIcon from '@mui/icons-material/Translate';
import { Box, Button, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import { useState, useSyncExternalStore } from 'react';
import { useLocaleState, useSetLocale, useTranslate } from 'react-admin';
import { LOCALES, localeInfo } from '../../i18n/locales';
import { isSwitchingLocale, subscribeLocaleSwitching } from '../../i18n/i18nProvider';
import { isLocaleCode } from '../../api/defaults';

/**
 * Language menu; disabled while a switch is in progress (spec section 4). `compact`: only the icon
 * at phone widths (the app bar keeps its room for the page title).
 */
export const LocaleSwitcher = ({ color = 'inherit', compact = false }: { color?: 'inherit' | 'primary'; compact?: boolean }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const setLocale = useSetLocale();
  const switching = useSyncExternalStore(subscribeLocaleSwitching, isSwitchingLocale, isSwitchingLocale);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = localeInfo(isLocaleCode(locale) ? locale : 'zh-CN');

  return (
    <>
      <Button
        color={color}
        startIcon={<TranslateIcon />}
        disabled={switching}
        aria-label={translate('locale.switch')}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{
          textTransform: 'none',
          whiteSpace: 'nowrap',
          flexShrink: 0,
          ...(compact && { minWidth: { xs: 40, sm: 64 }, '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 }, ml: { xs: 0, sm: -0.5 } } }),
        }}
      >
        <Box component="span" sx={compact ? { display: { xs: 'none', sm: 'inline' } } : undefined}>
          {switching ? translate('locale.switching') : current.nativeLabel}
        </Box>
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {LOCALES.map((item) => (
          <MenuItem
            key={item.code}
            lang={item.code}
            selected={item.code === current.code}
            disabled={switching}
            onClick={() => {
              setAnchor(null);
              if (item.code !== current.code) void setLocale(item.code);
            }}
          >
            <ListItemIcon sx={{ fontSize: 20 }}>{item.flag}</ListItemIcon>
            <ListItemText primary={item.nativeLabel} secondary={item.label} />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};
