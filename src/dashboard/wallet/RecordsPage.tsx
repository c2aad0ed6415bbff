import FilterAltOffIcon from '@mui/icons-material/FilterAltOff';
import {
  Box,
  Button,
  MenuItem,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import type { Asset, LedgerKind, LedgerRecord } from '../../api/wallet';
import { Screen } from '../layout/Screen';
import { LoadError } from '../kit/LoadError';
import { useRecords } from './api';
import { DateInput } from '../kit/DateInput';
import { RecordDetail } from './RecordDetail';
import { KINDS_BY_ASSET, amountColor, formatAmount, formatDateTime } from './walletText';
import { useIsPhone } from '../kit/responsive';
import { ROWS_PER_PAGE, TablePager } from '../kit/TablePager';

const DEFAULT_PAGE_SIZE = 20;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const SignedAmount = ({ record }: { record: LedgerRecord }) => {
  const [locale] = useLocaleState();
  return (
    <Box component="span" sx={{ color: amountColor(record.amount), fontWeight: 600, fontVariantNumeric: 'tabular-nums' }} data-field="amount">
      {formatAmount(record.amount, record.asset, locale, { signed: true })}
    </Box>
  );
};

/** A phone-width record: kind and signed amount, then time and balance after, then the details. */
const RecordCard = ({ record }: { record: LedgerRecord }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const detail = Object.values(record.detail).some((value) => value !== '' && value !== null && value !== undefined);
  return (
    <Box component="li" data-record={record.id} sx={{ listStyle: 'none', px: 2, py: 1.5, '& + &': { borderTop: 1, borderColor: 'divider' } }}>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
        <Typography sx={{ fontWeight: 600 }}>{translate(`wallet.kind.${record.kind}`, { _: record.kind })}</Typography>
        <SignedAmount record={record} />
      </Stack>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between' }}>
        <Typography variant="body2" color="text.secondary">
          {formatDateTime(record.createdAt, locale)}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
          {translate('wallet.recordsPage.balanceAfterShort', { amount: formatAmount(record.balanceAfter, record.asset, locale) })}
        </Typography>
      </Stack>
      {detail && (
        <Typography variant="caption" color="text.secondary" component="div" sx={{ overflowWrap: 'anywhere' }}>
          <RecordDetail detail={record.detail} kind={record.kind} />
        </Typography>
      )}
    </Box>
  );
};

const RecordTable = ({ records }: { records: LedgerRecord[] }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <TableContainer sx={{ width: '100%', overflowX: 'auto' }}>
      <Table size="small" aria-label={translate('wallet.recordsPage.table')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('wallet.recordsPage.time')}</TableCell>
            <TableCell>{translate('wallet.recordsPage.kind')}</TableCell>
            <TableCell align="right">{translate('wallet.recordsPage.amount')}</TableCell>
            <TableCell align="right">{translate('wallet.recordsPage.balanceAfter')}</TableCell>
            <TableCell>{translate('wallet.recordsPage.detail')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {records.map((record) => (
            <TableRow key={record.id} hover data-record={record.id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(record.createdAt, locale)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{translate(`wallet.kind.${record.kind}`, { _: record.kind })}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <SignedAmount record={record} />
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                {formatAmount(record.balanceAfter, record.asset, locale)}
              </TableCell>
              <TableCell sx={{ color: 'text.secondary', minWidth: 160 }}>{Object.keys(record.detail).length > 0 ? <RecordDetail detail={record.detail} kind={record.kind} /> : '—'}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
};

/**
 * The ledger lines of one asset, newest first: kind and date filters and the
 * page in the address (so back and reload keep them); days are the browser's.
 */
const RecordsScreen = ({ asset, titleKey }: { asset: Asset; titleKey: string }) => {
  const translate = useTranslate();
  const isPhone = useIsPhone();
  const [params, setParams] = useSearchParams();
  const kinds = KINDS_BY_ASSET[asset];
  const kindParam = params.get('kind') ?? '';
  const kind = (kinds as readonly string[]).includes(kindParam) ? (kindParam as LedgerKind) : '';
  const from = DATE.test(params.get('from') ?? '') ? params.get('from')! : '';
  const to = DATE.test(params.get('to') ?? '') ? params.get('to')! : '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const pageSizeParam = Number(params.get('pageSize'));
  const pageSize = ROWS_PER_PAGE.includes(pageSizeParam) ? pageSizeParam : DEFAULT_PAGE_SIZE;
  const badRange = from !== '' && to !== '' && from > to;

  const change = (next: { kind?: string; from?: string; to?: string; page?: number; pageSize?: number }) =>
    setParams(
      (current) => {
        const merged = new URLSearchParams(current);
        for (const [key, value] of Object.entries(next)) {
          if (value === '' || value === undefined || (key === 'page' && value === 1)) merged.delete(key);
          else merged.set(key, String(value));
        }
        // Any filter change starts from the first page.
        if (next.page === undefined) merged.delete('page');
        return merged;
      },
      { replace: true },
    );

  const records = useRecords({ asset, kind: kind || undefined, from: from || undefined, to: to || undefined, page, pageSize }, !badRange);
  const rows = records.data?.list ?? [];
  const filtered = kind !== '' || from !== '' || to !== '';

  return (
    <Screen titleKey={titleKey}>
      <Paper sx={{ minWidth: 0, overflow: 'hidden' }} data-asset={asset}>
        <Box
          component="form"
          role="search"
          aria-label={translate('wallet.recordsPage.filters')}
          onSubmit={(event) => event.preventDefault()}
          sx={{ p: { xs: 1.5, md: 2 }, display: 'grid', gap: 1.5, alignItems: 'start', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(3, minmax(0, 200px)) auto' } }}
        >
          <TextField
            select
            size="small"
            label={translate('wallet.recordsPage.kind')}
            name="kind"
            value={kind}
            onChange={(event) => change({ kind: event.target.value })}
           
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">{translate('wallet.recordsPage.allKinds')}</MenuItem>
            {kinds.map((k) => (
              <MenuItem key={k} value={k}>
                {translate(`wallet.kind.${k}`)}
              </MenuItem>
            ))}
          </TextField>
          <DateInput label={translate('wallet.recordsPage.from')} name="from" value={from} max={to || undefined} onChange={(next) => change({ from: next })} />
          <DateInput
            label={translate('wallet.recordsPage.to')}
            name="to"
            value={to}
           
            min={from || undefined}
            error={badRange}
            helperText={badRange ? translate('wallet.recordsPage.badRange') : undefined}
            onChange={(next) => change({ to: next })}
          />
          {filtered && (
            <Button
              startIcon={<FilterAltOffIcon />}
              onClick={() => change({ kind: '', from: '', to: '' })}
              sx={{ justifySelf: 'start', height: 40 }}
            >
              {translate('wallet.recordsPage.clear')}
            </Button>
          )}
        </Box>
        {records.error && (
          <Box sx={{ px: 2 }}>
            <LoadError error={records.error} onRetry={() => void records.refetch()} />
          </Box>
        )}
        {records.isPending && !badRange && (
          <Box sx={{ px: 2 }} role="progressbar" aria-label={translate('wallet.loading')}>
            <Skeleton height={40} />
            <Skeleton height={40} />
            <Skeleton height={40} />
          </Box>
        )}
        {records.data && rows.length === 0 && (
          <Typography color="text.secondary" sx={{ px: 2, py: 4, textAlign: 'center' }} data-section="empty">
            {translate(filtered ? 'wallet.recordsPage.emptyFiltered' : 'wallet.recordsPage.empty')}
          </Typography>
        )}
        {rows.length > 0 &&
          (isPhone ? (
            <Box component="ul" sx={{ m: 0, p: 0 }}>
              {rows.map((record) => (
                <RecordCard key={record.id} record={record} />
              ))}
            </Box>
          ) : (
            <RecordTable records={rows} />
          ))}
        <TablePager
          count={records.data?.total ?? 0}
          page={records.data ? Math.min(page - 1, Math.max(0, Math.ceil(records.data.total / pageSize) - 1)) : 0}
          pageSize={pageSize}
          label={translate('wallet.recordsPage.perPage')}
          onPage={(next) => change({ page: next + 1 })}
          onPageSize={(next) => change({ pageSize: next })}
          edgeToEdge
        />
      </Paper>
    </Screen>
  );
};

export const UsdtRecordsPage = () => <RecordsScreen asset="USDT" titleKey="page.usdtRecords" />;
export const CardRecordsPage = () => <RecordsScreen asset="CARD" titleKey="page.cardRecords" />;
export const PointsRecordsPage = () => <RecordsScreen asset="POINTS" titleKey="page.pointsRecords" />;
