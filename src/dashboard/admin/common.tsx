import {
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import { useId, useState, type ReactNode } from 'react';
import { formatAsset, formatPercent } from '../../api/format';
import { minValue, number, Pagination, regex, required, useLocaleState, useNotify, useRecordContext, useRefresh, useTranslate, useUpdate, type RaRecord } from 'react-admin';

/**
 * The console lists' pagination: the page sizes the lists use (20 and 50),
 * so the rows-per-page select shows the one chosen (react-admin's default
 * choices, 5/10/25/50, have no 20 and left it empty).
 */
export const CONSOLE_ROWS_PER_PAGE = [10, 20, 50, 100];
export const ConsolePagination = () => <Pagination rowsPerPageOptions={CONSOLE_ROWS_PER_PAGE} />;


/** A date and time in the page's language (the record's ISO time), or a dash. */
export const useDateTime = () => {
  const [locale] = useLocaleState();
  return (iso: string | null | undefined) =>
    iso
      ? new Intl.DateTimeFormat(locale, {
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          hour12: false,
        }).format(new Date(iso))
      : '—';
};

export const DateTimeText = ({ source }: { source: string; label?: string; sortable?: boolean }) => {
  const record = useRecordContext<Record<string, string | null>>();
  const format = useDateTime();
  return <span>{format(record?.[source])}</span>;
};

const STATUS_COLOR: Record<string, 'warning' | 'success' | 'error' | 'default'> = {
  pending: 'warning',
  confirmed: 'success',
  approved: 'success',
  rejected: 'error',
};

/** The status of a deposit or a withdrawal as a coloured chip. */
export const StatusChip = ({ source = 'status' }: { source?: string; label?: string; sortable?: boolean }) => {
  const record = useRecordContext<Record<string, string>>();
  const translate = useTranslate();
  const status = record?.[source];
  if (!status) return null;
  // The same words as the user's wallet pages (the console loads the area texts).
  return <Chip size="small" variant="outlined" color={STATUS_COLOR[status] ?? 'default'} label={translate(`wallet.status.${status}`, { _: status })} />;
};

/** Choices of a status filter; names are translation keys (react-admin translates choices). */
export const statusChoices = (statuses: readonly string[]) => statuses.map((id) => ({ id, name: `wallet.status.${id}` }));

/**
 * A dialog asking for one line of text before an operator action: a reason (required) or a
 * transaction hash (optional).
 */
export const TextPromptDialog = ({
  open,
  title,
  text,
  fieldLabel,
  required,
  confirmLabel,
  pending,
  onClose,
  onSubmit,
}: {
  open: boolean;
  title: string;
  text: ReactNode;
  fieldLabel: string;
  required: boolean;
  confirmLabel: string;
  pending: boolean;
  onClose: () => void;
  onSubmit: (value: string) => void;
}) => {
  const translate = useTranslate();
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState(false);
  const titleId = useId();
  const missing = required && value.trim() === '';
  const close = () => {
    setValue('');
    setTouched(false);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="sm" onClick={(event) => event.stopPropagation()}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{text}</DialogContentText>
        <TextField
          autoFocus
          fullWidth
          multiline={required}
          minRows={required ? 2 : undefined}
          label={fieldLabel}
          required={required}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          onBlur={() => setTouched(true)}
          error={touched && missing}
          helperText={touched && missing ? translate('ra.validation.required') : ' '}
          slotProps={{ htmlInput: { maxLength: 500 } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={pending}>
          {translate('ra.action.cancel')}
        </Button>
        <Button
          variant="contained"
          disabled={pending}
          onClick={() => {
            setTouched(true);
            if (missing) return;
            onSubmit(value.trim());
          }}
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/** A non-negative decimal written as a string (money and rates never go through floats). */
const decimal = regex(/^\d{1,20}(\.\d{1,18})?$/, 'admin.settings.decimal');
export const money = [required(), decimal];
export const count = [required(), number(), minValue(0)];

/**
 * A decision on one record (a deposit confirmed, an article published...):
 * react-admin's update of the fields it changes, waiting for the server's
 * answer; then the operator is told and the lists load again. A refusal (the
 * record was decided meanwhile, say) is shown as it came.
 */
export const useDecision = <R extends RaRecord>(resource: string, doneKey: string) => {
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const [update, { isPending, variables }] = useUpdate<R>();
  const decide = (record: R, data: Partial<R> & Record<string, unknown>, onDone?: () => void) =>
    update(
      resource,
      { id: record.id, data, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify(translate(doneKey), { type: 'success' });
          onDone?.();
          refresh();
        },
        onError: (error) => notify(error instanceof Error ? error.message : translate('error.fallback'), { type: 'error' }),
      },
    );
  return { decide, isPending, data: variables?.data as Partial<R> | undefined };
};

/** Stops a click inside a clickable Datagrid row from opening the row. */
export const stopRowClick = (event: { stopPropagation: () => void }) => event.stopPropagation();

/** A USDT amount of a record in the shared number format (src/api/format.ts), sortable by its field: '1,000.00' beside '500.00', never a raw '1000'. */
export const UsdtField = ({ source }: { source: string; label: string; sortable?: boolean }) => {
  const record = useRecordContext<Record<string, string | null>>();
  const [locale] = useLocaleState();
  return <span style={{ fontVariantNumeric: 'tabular-nums' }}>{formatAsset(record?.[source], 'USDT', locale)}</span>;
};

/** A percentage of a record in the shared number format ('10%'). */
export const PercentField = ({ source }: { source: string; label: string; sortable?: boolean }) => {
  const record = useRecordContext<Record<string, string | null>>();
  const [locale] = useLocaleState();
  return <span style={{ fontVariantNumeric: 'tabular-nums' }}>{formatPercent(record?.[source], locale)}</span>;
};
