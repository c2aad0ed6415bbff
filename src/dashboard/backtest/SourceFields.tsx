import { formatCount } from '../../api/format';
import UploadFileIcon from '@mui/icons-material/UploadFileOutlined';
import { Alert, Box, Button, MenuItem, Stack, TextField, Typography, selectClasses } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { HISTORY_INTERVALS, SAMPLE_SYMBOL, type CandleUpload } from '../../api/backtest';
import type { AppDataProvider } from '../../dataProvider/dataProvider';
import { useExchangeCatalog } from '../kit/queries';
import { DateInput } from '../kit/DateInput';
import { dayOf, defaultRange, type BacktestForm } from './backtestForm';
import { backtestErrorText } from './backtestErrors';

/** The server refuses bodies above 40 MB; a year of minutes in six columns is about 35 MB. */
const MAX_UPLOAD_CHARS = 40 * 1024 * 1024;

const fill = { flex: 1, minWidth: 0 } as const;

/** Binance's klines files have twelve columns; only the first six are sent. */
const firstSixColumns = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => {
      let cut = -1;
      for (let i = 0; i < 6 && (cut = line.indexOf(',', cut + 1)) >= 0; i++);
      return cut >= 0 ? line.slice(0, cut) : line;
    })
    .join('\n');

/** A chosen file's text (FileReader: every browser, and the test DOM, has it). */
const readText = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable file'));
    reader.readAsText(file);
  });

/** Where the candles come from: the bundled sample, an uploaded CSV, or an exchange's history; the pair and the dates. */
export const SourceFields = ({ form, onChange }: { form: BacktestForm; onChange: (patch: Partial<BacktestForm>) => void }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const catalog = useExchangeCatalog();
  const exchanges = (catalog.data ?? []).filter((entry) => entry.kind === 'real');
  const uploads = useQuery({
    queryKey: ['backtest-uploads'],
    queryFn: async ({ signal }) => (await dataProvider.backtestUploads(signal)).list,
    enabled: form.source === 'upload',
  });
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);

  const chooseUpload = (upload: CandleUpload) => onChange({ uploadId: upload.id, from: dayOf(upload.from), to: dayOf(upload.to - 1) });

  const pickFile = async (file: File) => {
    setUploadError(null);
    setUploading(true);
    try {
      const csv = firstSixColumns(await readText(file));
      if (csv.length > MAX_UPLOAD_CHARS) {
        setUploadError(translate('backtest.upload.tooBig'));
        return;
      }
      const upload = await dataProvider.backtestUpload({ name: file.name.slice(0, 120) || 'candles.csv', csv });
      await queryClient.invalidateQueries({ queryKey: ['backtest-uploads'] });
      chooseUpload(upload);
    } catch (error) {
      setUploadError(backtestErrorText(error, translate));
    } finally {
      setUploading(false);
    }
  };

  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}>
        <TextField
          select
          size="small"
          label={translate('backtest.source')}
          name="source"
          value={form.source}
          // The sample's long name wraps on a phone rather than hiding behind an ellipsis.
          sx={{ [`& .${selectClasses.select}`]: { whiteSpace: 'normal' } }}
          onChange={(event) => {
            const source = event.target.value as BacktestForm['source'];
            onChange({ source, uploadId: null, ...(source === 'sample' ? { symbol: SAMPLE_SYMBOL } : {}), ...defaultRange(source) });
          }}
        >
          <MenuItem value="sample">{translate('backtest.sourceSample')}</MenuItem>
          <MenuItem value="exchange">{translate('backtest.sourceExchange')}</MenuItem>
          <MenuItem value="upload">{translate('backtest.sourceUpload')}</MenuItem>
        </TextField>
        <TextField
          size="small"
          label={translate('backtest.pair')}
          name="symbol"
          value={form.symbol}
          disabled={form.source === 'sample'}
          helperText={form.source === 'upload' ? translate('backtest.pairHelpUpload') : ' '}
          onChange={(event) => onChange({ symbol: event.target.value.toUpperCase() })}
        />
      </Box>

      {form.source === 'exchange' && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))' } }}>
          <TextField select size="small" label={translate('backtest.exchange')} name="exchange" value={exchanges.some((e) => e.id === form.exchange) ? form.exchange : ''} onChange={(event) => onChange({ exchange: event.target.value })}>
            {exchanges.map((entry) => (
              <MenuItem key={entry.id} value={entry.id}>
                {entry.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField select size="small" label={translate('backtest.interval')} name="interval" value={form.interval} onChange={(event) => onChange({ interval: event.target.value as BacktestForm['interval'] })}>
            {HISTORY_INTERVALS.map((interval) => (
              <MenuItem key={interval} value={interval}>
                {translate(`backtest.intervals.${interval}`)}
              </MenuItem>
            ))}
          </TextField>
        </Box>
      )}

      {form.source === 'upload' && (
        <Stack spacing={1}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
            <Button component="label" variant="outlined" startIcon={<UploadFileIcon />} disabled={uploading}>
              {translate(uploading ? 'backtest.upload.uploading' : 'backtest.upload.pick')}
              <input
                hidden
                type="file"
                accept=".csv,text/csv"
                name="candles"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = '';
                  if (file) void pickFile(file);
                }}
              />
            </Button>
            {(uploads.data?.length ?? 0) > 0 && (
              <TextField
                select
                size="small"
                sx={{ flex: 1, minWidth: 200 }}
                label={translate('backtest.upload.files')}
                value={form.uploadId ?? ''}
                onChange={(event) => {
                  const chosen = uploads.data?.find((u) => u.id === event.target.value);
                  if (chosen) chooseUpload(chosen);
                }}
              >
                {uploads.data?.map((upload) => (
                  <MenuItem key={upload.id} value={upload.id}>
                    {translate('backtest.upload.file', { name: upload.name, count: formatCount(upload.candles, locale) })}
                  </MenuItem>
                ))}
              </TextField>
            )}
          </Stack>
          <Typography variant="caption" color="text.secondary">
            {translate('backtest.upload.help')}
          </Typography>
          {uploadError && (
            <Alert severity="error" data-alert="upload">
              {uploadError}
            </Alert>
          )}
        </Stack>
      )}

      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <DateInput sx={fill} label={translate('backtest.from')} name="from" value={form.from} max={form.to || undefined} onChange={(from) => onChange({ from })} />
        <DateInput sx={fill} label={translate('backtest.to')} name="to" value={form.to} min={form.from || undefined} onChange={(to) => onChange({ to })} />
      </Stack>
    </Stack>
  );
};
