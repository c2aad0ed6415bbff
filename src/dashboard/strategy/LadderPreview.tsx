import { Alert, Box, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import Big from 'big.js';
import { formatMoney, formatPercent, formatPrice } from '../../api/format';
import { ladder, maxCycleFunds, type StrategySettings } from '../../api/strategy';
import { LabelledFields } from '../kit/LabelledFields';
import { useIsPhone } from '../kit/responsive';

export type LadderRow = ReturnType<typeof ladder>[number];
const COLUMNS = ['price', 'amount', 'cumulative', 'average', 'takeProfitPrice'] as const;

const DECIMAL = /^\d+(\.\d+)?$/;

/** The tick of a market whose prices are written like `price`: its decimals, at least cents ('100' → '0.01', '0.00000850' → '0.00000001'). */
export const tickOfPrice = (price: string): string => {
  // As written: '0.00000850' has eight decimals (its zeros count).
  const places = Math.max(2, price.split('.')[1]?.length ?? 0);
  return new Big(10).pow(-places).toFixed(places);
};

/**
 * The ladder a template makes for a first order and a first fill price, and
 * the most one cycle can use: a table, one card per level on phones. Every
 * price shows to the market's tick: the given one, else the tick the typed
 * price is written to.
 */
export const LadderPreview = ({
  settings,
  tick = null,
  footer,
}: {
  settings: Pick<StrategySettings, 'levels' | 'takeProfitPercent'> | null;
  tick?: string | null;
  /** Below the ladder: what else its rows explain (the exits' worked examples), with prices written to the preview's tick. */
  footer?: (rows: LadderRow[], formatAt: (price: Big.BigSource) => string) => ReactNode;
}) => {
  const translate = useTranslate();
  const [amount, setAmount] = useState('10');
  const [price, setPrice] = useState('100');
  const valid = settings && DECIMAL.test(amount) && DECIMAL.test(price) && Number(amount) > 0 && Number(price) > 0;
  const rows = valid ? ladder(settings, amount, price) : [];
  const [locale] = useLocaleState();
  const isPhone = useIsPhone();
  const priceTick = tick ?? (valid ? tickOfPrice(price) : null);
  const drop = (percent: string) => formatPercent(`-${percent}`, locale, { signed: true });
  /** The figures of a level, in the table's order: prices to the tick, money to the cent (src/api/format.ts). */
  const columns = (row: LadderRow): [(typeof COLUMNS)[number], string][] => [
    ['price', formatPrice(row.price, locale, { tick: priceTick })],
    ['amount', formatMoney(row.amount, locale)],
    ['cumulative', formatMoney(row.cumulativeCost, locale)],
    ['average', formatPrice(row.averagePrice, locale, { tick: priceTick })],
    ['takeProfitPrice', formatPrice(row.takeProfitPrice, locale, { tick: priceTick })],
  ];

  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2}>
        <TextField size="small" sx={{ flex: 1, minWidth: 0 }} label={translate('strategy.previewAmount')} value={amount} onChange={(e) => setAmount(e.target.value.trim())} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
        <TextField size="small" sx={{ flex: 1, minWidth: 0 }} label={translate('strategy.previewPrice')} value={price} onChange={(e) => setPrice(e.target.value.trim())} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
      </Stack>
      {valid && (
        <>
          <Alert severity="info" icon={false}>
            <Typography sx={{ fontWeight: 600 }}>{translate('strategy.maxCycleFunds', { amount: formatMoney(maxCycleFunds(settings, amount), locale) })}</Typography>
          </Alert>
          {isPhone ? (
            <Box component="ol" sx={{ m: 0, p: 0 }} aria-label={translate('strategy.preview')} data-layout="cards">
              {rows.map((row) => (
                <Box component="li" key={row.level} sx={{ listStyle: 'none', py: 1, borderTop: 1, borderColor: 'divider' }} data-level={row.level}>
                  <Typography sx={{ fontWeight: 600 }}>
                    {row.level === 0 ? translate('strategy.firstOrder') : `${translate('strategy.level')} ${row.level} · ${drop(row.dropPercent)}`}
                  </Typography>
                  <LabelledFields fields={columns(row).map(([key, value]) => ({ key, label: translate(`strategy.${key}`), value }))} />
                </Box>
              ))}
            </Box>
          ) : (
            <TableContainer sx={{ width: '100%', overflowX: 'auto' }}>
              <Table size="small" aria-label={translate('strategy.preview')} sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}>
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('strategy.level')}</TableCell>
                    <TableCell align="right">{translate('strategy.dropPercent')}</TableCell>
                    {COLUMNS.map((key) => (
                      <TableCell key={key} align="right">
                        {translate(`strategy.${key}`)}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((row) => (
                    <TableRow key={row.level}>
                      <TableCell>{row.level === 0 ? translate('strategy.firstOrder') : row.level}</TableCell>
                      <TableCell align="right">{row.level === 0 ? '—' : drop(row.dropPercent)}</TableCell>
                      {columns(row).map(([key, value]) => (
                        <TableCell key={key} align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                          {value}
                        </TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
          {footer?.(rows, (value) => formatPrice(new Big(value).round(8).toFixed(), locale, { tick: priceTick }))}
        </>
      )}
    </Stack>
  );
};
