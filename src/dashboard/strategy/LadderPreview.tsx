import { Alert, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { ladder, maxCycleFunds, type StrategySettings } from '../../api/strategy';

const DECIMAL = /^\d+(\.\d+)?$/;

/** The ladder a template makes for a first order and a first fill price, and the most one cycle can use. */
export const LadderPreview = ({ settings }: { settings: Pick<StrategySettings, 'levels' | 'takeProfitPercent'> | null }) => {
  const translate = useTranslate();
  const [amount, setAmount] = useState('10');
  const [price, setPrice] = useState('100');
  const valid = settings && DECIMAL.test(amount) && DECIMAL.test(price) && Number(amount) > 0 && Number(price) > 0;
  const rows = valid ? ladder(settings, amount, price) : [];

  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2}>
        <TextField size="small" sx={{ flex: 1, minWidth: 0 }} label={translate('strategy.previewAmount')} value={amount} onChange={(e) => setAmount(e.target.value.trim())} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
        <TextField size="small" sx={{ flex: 1, minWidth: 0 }} label={translate('strategy.previewPrice')} value={price} onChange={(e) => setPrice(e.target.value.trim())} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
      </Stack>
      {valid && (
        <>
          <Alert severity="info" icon={false}>
            <Typography sx={{ fontWeight: 600 }}>{translate('strategy.maxCycleFunds', { amount: maxCycleFunds(settings, amount) })}</Typography>
          </Alert>
          <TableContainer sx={{ width: '100%', overflowX: 'auto' }}>
            <Table size="small" aria-label={translate('strategy.preview')} sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}>
              <TableHead>
                <TableRow>
                  <TableCell>{translate('strategy.level')}</TableCell>
                  <TableCell align="right">{translate('strategy.dropPercent')}</TableCell>
                  <TableCell align="right">{translate('strategy.price')}</TableCell>
                  <TableCell align="right">{translate('strategy.amount')}</TableCell>
                  <TableCell align="right">{translate('strategy.cumulative')}</TableCell>
                  <TableCell align="right">{translate('strategy.average')}</TableCell>
                  <TableCell align="right">{translate('strategy.takeProfitPrice')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row) => (
                  <TableRow key={row.level}>
                    <TableCell>{row.level === 0 ? translate('strategy.firstOrder') : row.level}</TableCell>
                    <TableCell align="right">{row.level === 0 ? '—' : `-${row.dropPercent}%`}</TableCell>
                    <TableCell align="right">{trim(row.price)}</TableCell>
                    <TableCell align="right">{trim(row.amount)}</TableCell>
                    <TableCell align="right">{trim(row.cumulativeCost)}</TableCell>
                    <TableCell align="right">{trim(row.averagePrice)}</TableCell>
                    <TableCell align="right">{trim(row.takeProfitPrice)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      )}
    </Stack>
  );
};

/** Shows at most 6 decimals; the values themselves stay exact decimals. */
const trim = (value: string) => {
  const [whole, fraction = ''] = value.split('.');
  const shown = fraction.slice(0, 6).replace(/0+$/, '');
  return shown ? `${whole}.${shown}` : whole!;
};
