import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Box, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';

/** Copies a text (the Clipboard API, else a selected textarea for older browsers). */
export const copyText = async (text: string): Promise<boolean> => {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Fall back below (insecure context, denied permission).
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand?.('copy') ?? false;
  } catch {
    copied = false;
  }
  area.remove();
  return copied;
};

/** Copies and says so (or says to copy by hand), in the page's own words when it has them. */
export const useCopy = (doneKey = 'app.copied', failedKey = 'app.copyFailed') => {
  const translate = useTranslate();
  const notify = useNotify();
  return async (text: string) => {
    const done = await copyText(text);
    notify(translate(done ? doneKey : failedKey), { type: done ? 'success' : 'warning' });
  };
};

/** A labelled value the user copies (a code, a link, a key), with its copy button. */
export const CopyField = ({ label, value, name, copyLabel, mono = false }: { label: string; value: string; name: string; copyLabel?: string; mono?: boolean }) => {
  const translate = useTranslate();
  const copy = useCopy();
  return (
    <Box sx={{ minWidth: 0 }} data-copy={name}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0, bgcolor: 'action.hover', borderRadius: 1, pl: 1.5 }}>
        <Typography sx={{ flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere', wordBreak: mono ? 'break-all' : undefined, fontFamily: mono ? 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' : undefined, whiteSpace: mono ? 'pre-wrap' : undefined, fontSize: 14, py: 1 }}>
          {value}
        </Typography>
        <Tooltip title={translate('app.copy')}>
          <IconButton onClick={() => void copy(value)} aria-label={copyLabel ?? `${translate('app.copy')} ${label}`}>
            <ContentCopyIcon />
          </IconButton>
        </Tooltip>
      </Stack>
    </Box>
  );
};
