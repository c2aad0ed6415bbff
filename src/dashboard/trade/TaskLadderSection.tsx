import { Box, Chip, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import type { TradeOrder, TradeTaskDetail } from '../../api/trade';
import { formatPercent } from '../../api/format';
import { LabelledFields } from '../kit/LabelledFields';
import { SectionTitle, sectionSx as section } from '../kit/Section';
import { useIsPhone } from '../kit/responsive';
import { baseOf, formatPrice, formatQuantity, formatQuote } from '../kit/money';
import { taskLadder, type TaskLadderRow, type TaskTargetRow } from './taskLadder';

const COLUMNS = ['trigger', 'amount', 'state', 'averageAfter', 'takeProfitAfter', 'fundsNeeded'] as const;
type Column = (typeof COLUMNS)[number];
const TARGET_COLUMNS = ['share', 'price', 'state'] as const;

/**
 * Every level of the task's ladder, the first order first: its trigger price
 * and amount, bought (with its fill) or pending, the average and take profit
 * after it, and the funds the pending levels need; with several take-profit
 * targets, each target's share and price, and its sale once it sold. A table
 * on a desktop, one card per level and per target on a phone.
 */
export const TaskLadderSection = ({ task, orders }: { task: TradeTaskDetail; orders: TradeOrder[] }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const isPhone = useIsPhone();
  const ladder = taskLadder(task, orders);
  if (!ladder) return null;
  const base = baseOf(task.symbol);
  const price = (value: string) => formatPrice(value, locale, task.tickSize);
  const levelName = (row: TaskLadderRow) =>
    row.level === 0 ? translate('tasks.ladder.first') : translate('tasks.ladder.level', { level: row.level, drop: formatPercent(`-${row.dropPercent}`, locale, { signed: true }) });
  const stateName = (row: TaskLadderRow) => translate(row.bought ? 'tasks.ladder.bought' : row.next ? 'tasks.ladder.next' : 'tasks.ladder.pending');
  const state = (row: TaskLadderRow) =>
    row.fill
      ? translate('tasks.ladder.filled', { price: price(row.fill.price), cost: formatQuote(row.fill.cost, locale), quantity: `${formatQuantity(row.fill.quantity, locale, task.amountStep)} ${base}` })
      : stateName(row);
  const cells = (row: TaskLadderRow): [Column, string][] => [
    ['trigger', price(row.trigger)],
    ['amount', `${formatQuote(row.amount, locale)} USDT`],
    ['state', state(row)],
    ['averageAfter', price(row.averageAfter)],
    ['takeProfitAfter', price(row.takeProfitAfter)],
    ['fundsNeeded', row.fundsNeeded === null ? '—' : `${formatQuote(row.fundsNeeded, locale)} USDT`],
  ];
  const tone = (row: TaskLadderRow) => (row.bought ? 'success' : row.next ? 'primary' : 'default');
  const targetName = (row: TaskTargetRow) => translate('tasks.ladder.target', { target: row.target });
  const targetState = (row: TaskTargetRow) => translate(row.sold ? 'tasks.ladder.targetSold' : 'tasks.ladder.targetPending');
  const targetSale = (row: TaskTargetRow) =>
    row.sold && translate('tasks.ladder.targetSale', { price: price(row.sold.price), quantity: `${formatQuantity(row.sold.quantity, locale, task.amountStep)} ${base}`, proceeds: formatQuote(row.sold.proceeds, locale) });
  const targetCells = (row: TaskTargetRow): [(typeof TARGET_COLUMNS)[number], string][] => [
    ['share', translate(row.target === ladder.targets.length ? 'tasks.ladder.shareRest' : 'tasks.ladder.share', { share: formatPercent(row.sharePercent, locale) })],
    ['price', `${price(row.price)} (${formatPercent(row.profitPercent, locale, { signed: true })})`],
    ['state', targetSale(row) || targetState(row)],
  ];

  return (
    <Paper sx={section} data-section="ladder">
      <SectionTitle gutterBottom>{translate('tasks.ladder.title')}</SectionTitle>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }} data-ladder-intro>
        {translate(ladder.projected ? 'tasks.ladder.projected' : 'tasks.ladder.intro', { price: price(task.lastPrice ?? '0') })}{' '}
        {translate('tasks.ladder.fundsNeeded', { amount: formatQuote(ladder.fundsNeeded, locale) })}
      </Typography>
      {isPhone ? (
        <Box component="ol" sx={{ m: 0, p: 0 }} aria-label={translate('tasks.ladder.title')} data-layout="cards">
          {ladder.rows.map((row) => (
            <Box component="li" key={row.level} sx={{ listStyle: 'none', py: 1, borderTop: 1, borderColor: 'divider' }} data-level={row.level} data-filled={row.bought ? 'true' : 'false'}>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                <Typography sx={{ fontWeight: 600 }}>{levelName(row)}</Typography>
                <Chip size="small" color={tone(row)} variant={row.bought ? 'filled' : 'outlined'} label={stateName(row)} />
              </Box>
              <LabelledFields
                wrap
                fields={cells(row)
                  .filter(([key]) => key !== 'state' || row.fill)
                  .map(([key, value]) => ({ key, label: translate(`tasks.ladder.column.${key}`), value, wide: key === 'state' }))}
              />
            </Box>
          ))}
        </Box>
      ) : (
        <TableContainer sx={{ width: '100%', overflowX: 'auto' }}>
          <Table size="small" aria-label={translate('tasks.ladder.title')} sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('tasks.ladder.column.level')}</TableCell>
                {COLUMNS.map((key) => (
                  <TableCell key={key} align={key === 'state' ? 'left' : 'right'}>
                    {translate(`tasks.ladder.column.${key}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {ladder.rows.map((row) => (
                <TableRow key={row.level} data-level={row.level} data-filled={row.bought ? 'true' : 'false'} selected={row.next}>
                  <TableCell>{levelName(row)}</TableCell>
                  {cells(row).map(([key, value]) =>
                    key === 'state' ? (
                      // Two short lines: the state, and under it what was filled (price and cost), so the table fits a desktop's width.
                      <TableCell key={key} data-field={key} aria-label={value}>
                        <Typography variant="body2" color={row.bought ? 'success.main' : undefined}>
                          {stateName(row)}
                        </Typography>
                        {row.fill && (
                          <Typography variant="caption" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                            {translate('tasks.ladder.fillShort', { price: price(row.fill.price), cost: formatQuote(row.fill.cost, locale) })}
                          </Typography>
                        )}
                      </TableCell>
                    ) : (
                      <TableCell key={key} align="right" sx={{ fontVariantNumeric: 'tabular-nums' }} data-field={key}>
                        {value}
                      </TableCell>
                    ),
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {ladder.targets.length > 0 &&
        (isPhone ? (
          <Box component="ol" sx={{ m: 0, mt: 1, p: 0 }} aria-label={translate('tasks.ladder.targets')} data-layout="target-cards">
            {ladder.targets.map((row) => (
              <Box component="li" key={row.target} sx={{ listStyle: 'none', py: 1, borderTop: 1, borderColor: 'divider' }} data-target={row.target} data-sold={row.sold ? 'true' : 'false'}>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                  <Typography sx={{ fontWeight: 600 }}>{targetName(row)}</Typography>
                  <Chip size="small" color={row.sold ? 'success' : 'default'} variant={row.sold ? 'filled' : 'outlined'} label={targetState(row)} />
                </Box>
                <LabelledFields
                  wrap
                  fields={targetCells(row)
                    .filter(([key]) => key !== 'state' || row.sold)
                    .map(([key, value]) => ({ key, label: translate(`tasks.ladder.targetColumn.${key}`), value, wide: key === 'state' }))}
                />
              </Box>
            ))}
          </Box>
        ) : (
          <TableContainer sx={{ width: '100%', overflowX: 'auto', mt: 2 }}>
            <Table size="small" aria-label={translate('tasks.ladder.targets')} sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}>
              <TableHead>
                <TableRow>
                  <TableCell>{translate('tasks.ladder.targetColumn.target')}</TableCell>
                  {TARGET_COLUMNS.map((key) => (
                    <TableCell key={key} align={key === 'state' ? 'left' : 'right'}>
                      {translate(`tasks.ladder.targetColumn.${key}`)}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {ladder.targets.map((row) => (
                  <TableRow key={row.target} data-target={row.target} data-sold={row.sold ? 'true' : 'false'}>
                    <TableCell>{targetName(row)}</TableCell>
                    {targetCells(row).map(([key, value]) =>
                      key === 'state' ? (
                        <TableCell key={key} data-field={key} aria-label={value}>
                          <Typography variant="body2" color={row.sold ? 'success.main' : undefined}>
                            {targetState(row)}
                          </Typography>
                          {row.sold && (
                            <Typography variant="caption" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                              {targetSale(row)}
                            </Typography>
                          )}
                        </TableCell>
                      ) : (
                        <TableCell key={key} align="right" sx={{ fontVariantNumeric: 'tabular-nums' }} data-field={key}>
                          {value}
                        </TableCell>
                      ),
                    )}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        ))}
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
        {translate('tasks.ladder.note')}
      </Typography>
    </Paper>
  );
};
