import ScienceIcon from '@mui/icons-material/ScienceOutlined';
import { Box, Chip, Radio, RadioGroup, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { useId, type ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import type { ExchangeCatalogEntry } from '../../api/exchange';
import { exchangeLabel, formatBalances } from './exchangeText';

const Option = ({ value, selected, title, detail, badge, icon }: { value: string; selected: boolean; title: string; detail?: string; badge?: ReactNode; icon?: ReactNode }) => {
  const id = useId();
  return (
    <Box
      component="label"
      data-exchange-option={value}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        minWidth: 0,
        py: 1,
        pr: 1.5,
        pl: 0.5,
        border: 1,
        borderColor: selected ? 'primary.main' : 'divider',
        borderRadius: 2,
        cursor: 'pointer',
        bgcolor: (theme) => (selected ? alpha(theme.palette.primary.main, 0.06) : 'background.paper'),
        '&:hover': { borderColor: 'primary.main' },
      }}
    >
      <Radio value={value} slotProps={{ input: { 'aria-labelledby': `${id}-title`, 'aria-describedby': detail ? `${id}-detail` : undefined } }} />
      {icon}
      <Box sx={{ minWidth: 0, flexGrow: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography id={`${id}-title`} sx={{ fontWeight: 600 }}>
            {title}
          </Typography>
          {badge}
        </Box>
        {detail && (
          <Typography id={`${id}-detail`} variant="body2" color="text.secondary">
            {detail}
          </Typography>
        )}
      </Box>
    </Box>
  );
};

/** The offered exchanges: paper first and set apart as the recommended start, then the real ones, then the testnets (play money). */
export const ExchangePicker = ({ catalog, value, onChange, labelledBy }: { catalog: readonly ExchangeCatalogEntry[]; value: string; onChange: (exchangeId: string) => void; labelledBy: string }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const paper = catalog.filter((entry) => entry.kind === 'paper');
  const real = catalog.filter((entry) => entry.kind === 'real');
  const testnets = catalog.filter((entry) => entry.kind === 'testnet');
  return (
    <RadioGroup value={value} onChange={(_, next) => onChange(next)} aria-labelledby={labelledBy} sx={{ display: 'grid', gap: 1.5 }}>
      {paper.map((entry) => (
        <Option
          key={entry.id}
          value={entry.id}
          selected={value === entry.id}
          title={exchangeLabel(entry.id, catalog, translate)}
          detail={[translate('exchange.paperShort'), entry.startBalances ? formatBalances(entry.startBalances, locale) : null].filter(Boolean).join(' · ')}
          badge={<Chip size="small" color="success" label={translate('exchange.recommended')} />}
          icon={<ScienceIcon color="success" />}
        />
      ))}
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))' } }}>
        {real.map((entry) => (
          <Option key={entry.id} value={entry.id} selected={value === entry.id} title={entry.name} />
        ))}
      </Box>
      {testnets.map((entry) => (
        <Option
          key={entry.id}
          value={entry.id}
          selected={value === entry.id}
          title={entry.name}
          detail={translate('exchange.testnetShort')}
          badge={<Chip size="small" color="warning" label={translate('exchange.testnetBadge')} />}
        />
      ))}
    </RadioGroup>
  );
};
