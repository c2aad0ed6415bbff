import { Box, Tooltip } from '@mui/material';
import { Fragment } from 'react';
import { useTranslate } from 'react-admin';
import { useCopy } from '../kit/copy';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A reference's short form: its first 8 characters, as support tools show them. */
export const shortRef = (id: string) => id.slice(0, 8);

/** A uuid as a short reference: the full one on hover, copied on a tap. */
export const ShortRef = ({ id }: { id: string }) => {
  const translate = useTranslate();
  const copy = useCopy();
  return (
    <Tooltip title={id}>
      <Box
        component="button"
        type="button"
        onClick={() => void copy(id)}
        aria-label={translate('wallet.detail.copyRef', { id })}
        data-ref={id}
        sx={{ font: 'inherit', color: 'inherit', fontFamily: 'monospace', p: 0, border: 0, bgcolor: 'transparent', cursor: 'copy', textDecoration: 'underline dotted' }}
      >
        {shortRef(id)}
      </Box>
    </Tooltip>
  );
};

/** The value of a detail: uuids short, words the server sends as codes in the page's language. */
const DetailValue = ({ value }: { value: string }) => {
  const translate = useTranslate();
  if (UUID.test(value)) return <ShortRef id={value} />;
  const code = value.trim().toLowerCase().replace(/[\s-]+/g, '_');
  return <>{/^[a-z_]+$/.test(code) ? translate(`wallet.detail.values.${code}`, { _: value }) : value}</>;
};

/** Labels that read differently on some kinds of line: a swap's `from`/`to` are the assets given and got, not people. */
const KIND_LABELS: Partial<Record<string, Record<string, string>>> = {
  swap_out: { from: 'swapFrom', to: 'swapTo' },
  swap_in: { from: 'swapFrom', to: 'swapTo' },
};

/** The details of a ledger line: "label：value" pairs (full-width colons in Chinese), joined by " · ". */
export const RecordDetail = ({ detail, kind }: { detail: Record<string, string>; kind: string }) => {
  const translate = useTranslate();
  const entries = Object.entries(detail).filter(([, value]) => value !== '' && value !== null && value !== undefined);
  if (entries.length === 0) return null;
  return (
    <>
      {entries.map(([key, value], i) => (
        <Fragment key={key}>
          {i > 0 && ' · '}
          {/* A pair wraps as a whole: never between a label's characters or before its value. */}
          <Box component="span" sx={{ display: 'inline-block', maxWidth: '100%', overflowWrap: 'anywhere' }}>
            {translate(`wallet.detail.${KIND_LABELS[kind]?.[key] ?? key}`, { _: key })}
            {translate('wallet.detail.colon')}
            <DetailValue value={String(value)} />
          </Box>
        </Fragment>
      ))}
    </>
  );
};
