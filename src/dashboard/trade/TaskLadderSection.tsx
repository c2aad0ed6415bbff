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
type TargetColumn = (typeof TARGET_COLUMNS)[number];

/** A level or a target as a line of the ladder: a table row on a desktop, a card on a phone. */
interface Line {
  id: number;
  /** The line's data attributes (which level or target, and whether it filled or sold). */
  attrs: Record<string, string>;
  name: string;
  status: string;
  tone: 'success' | 'primary' | 'default';
  done: boolean;
  next?: boolean;
  /** Its columns in order; `state` is where the status goes. */
  cells: [string, string][];
  /** What filled or sold: in full (a card's field, the cell's label) and short (under the status in a table). */
  detail: { full: string; short: string } | null;
}

interface LadderLinesProps {
  lines: Line[];
  label: string;
  /** The first column's heading (the lines' names). */
  first: string;
  columns: readonly string[];
  labelOf: (key: string) => string;
  isPhone: boolean;
  /** The phone list's `data-layout`. */
  cards: string;
}

/** The lines as cards on a phone or as a table on a desktop, each column labelled by `labelOf`. */
const LadderLines = ({ lines, label, first, columns, labelOf, isPhone, cards }: LadderLinesProps) =>
  isPhone ? (
    <Box component="ol" sx={{ m: 0, p: 0 }} aria-label={label} data-layout={cards}>
      {lines.map((line) => (
        <Box component="li" key={line.id} sx={{ listStyle: 'none', py: 1, borderTop: 1, borderColor: 'divider' }} {...line.attrs}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Typography sx={{ fontWeight: 600 }}>{line.name}</Typography>
            <Chip size="small" color={line.tone} variant={line.done ? 'filled' : 'outlined'} label={line.status} />
          </Box>
          <LabelledFields
            wrap
            fields={line.cells
              .filter(([key]) => key !== 'state' || line.detail)
              .map(([key, value]) => ({ key, label: labelOf(key), value: key === 'state' ? line.detail!.full : value, wide: key === 'state' }))}
          />
        </Box>
      ))}
    </Box>
  ) : (
    <TableContainer sx={{ width: '100%', overflowX: 'auto' }}>
      <Table size="small" aria-label={label} sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}>
        <TableHead>
          <TableRow>
            <TableCell>{first}</TableCell>
            {columns.map((key) => (
              <TableCell key={key} align={key === 'state' ? 'left' : 'right'}>
                {labelOf(key)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {lines.map((line) => (
            <TableRow key={line.id} {...line.attrs} selected={line.next}>
              <TableCell>{line.name}</TableCell>
              {line.cells.map(([key, value]) =>
                key === 'state' ? (
                  // Two short lines: the status, and under it what filled or sold, so the table fits a desktop's width.
                  <TableCell key={key} data-field={key} aria-label={line.detail?.full ?? line.status}>
                    <Typography variant="body2" color={line.done ? 'success.main' : undefined}>
                      {line.status}
                    </Typography>
                    {line.detail && (
                      <Typography variant="caption" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                        {line.detail.short}
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
  );


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
  const quantity = (value: string) => `${formatQuantity(value, locale, task.amountStep)} ${base}`;
  const levelLine = (row: TaskLadderRow): Line => ({
    id: row.level,
    attrs: { 'data-level': String(row.level), 'data-filled': row.bought ? 'true' : 'false' },
    name: row.level === 0 ? translate('tasks.ladder.first') : translate('tasks.ladder.level', { level: row.level, drop: formatPercent(`-${row.dropPercent}`, locale, { signed: true }) }),
    status: translate(row.bought ? 'tasks.ladder.bought' : row.next ? 'tasks.ladder.next' : 'tasks.ladder.pending'),
    tone: row.bought ? 'success' : row.next ? 'primary' : 'default',
    done: row.bought,
    next: row.next,
    cells: [
      ['trigger', price(row.trigger)],
      ['amount', `${formatQuote(row.amount, locale)} USDT`],
      ['state', ''],
      ['averageAfter', price(row.averageAfter)],
      ['takeProfitAfter', price(row.takeProfitAfter)],
      ['fundsNeeded', row.fundsNeeded === null ? '—' : `${formatQuote(row.fundsNeeded, locale)} USDT`],
    ] satisfies [Column, string][],
    detail: row.fill && {
      full: translate('tasks.ladder.filled', { price: price(row.fill.price), cost: formatQuote(row.fill.cost, locale), quantity: quantity(row.fill.quantity) }),
      short: translate('tasks.ladder.fillShort', { price: price(row.fill.price), cost: formatQuote(row.fill.cost, locale) }),
    },
  });
  const targetLine = (row: TaskTargetRow): Line => {
    const sale = row.sold && translate('tasks.ladder.targetSale', { price: price(row.sold.price), quantity: quantity(row.sold.quantity), proceeds: formatQuote(row.sold.proceeds, locale) });
    return {
      id: row.target,
      attrs: { 'data-target': String(row.target), 'data-sold': row.sold ? 'true' : 'false' },
      name: translate('tasks.ladder.target', { target: row.target }),
      status: translate(row.sold ? 'tasks.ladder.targetSold' : 'tasks.ladder.targetPending'),
      tone: row.sold ? 'success' : 'default',
      done: row.sold !== null,
      cells: [
        ['share', translate(row.target === ladder.targets.length ? 'tasks.ladder.shareRest' : 'tasks.ladder.share', { share: formatPercent(row.sharePercent, locale) })],
        ['price', `${price(row.price)} (${formatPercent(row.profitPercent, locale, { signed: true })})`],
        ['state', ''],
      ] satisfies [TargetColumn, string][],
      detail: sale ? { full: sale, short: sale } : null,
    };
  };

  return (
    <Paper sx={section} data-section="ladder">
      <SectionTitle gutterBottom>{translate('tasks.ladder.title')}</SectionTitle>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }} data-ladder-intro>
        {translate(ladder.projected ? 'tasks.ladder.projected' : 'tasks.ladder.intro', { price: price(task.lastPrice ?? '0') })}{' '}
        {translate('tasks.ladder.fundsNeeded', { amount: formatQuote(ladder.fundsNeeded, locale) })}
      </Typography>
      <LadderLines
        lines={ladder.rows.map(levelLine)}
        label={translate('tasks.ladder.title')}
        first={translate('tasks.ladder.column.level')}
        columns={COLUMNS}
        labelOf={(key) => translate(`tasks.ladder.column.${key}`)}
        isPhone={isPhone}
        cards="cards"
      />
      {ladder.targets.length > 0 && (
        <Box sx={{ mt: 2 }} data-ladder-targets>
          <LadderLines
            lines={ladder.targets.map(targetLine)}
            label={translate('tasks.ladder.targets')}
            first={translate('tasks.ladder.targetColumn.target')}
            columns={TARGET_COLUMNS}
            labelOf={(key) => translate(`tasks.ladder.targetColumn.${key}`)}
            isPhone={isPhone}
            cards="target-cards"
          />
        </Box>
      )}
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
        {translate('tasks.ladder.note')}
      </Typography>
    </Paper>
  );
};
