import DownloadIcon from '@mui/icons-material/Download';
import IosShareIcon from '@mui/icons-material/IosShare';
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { upDownColors } from '../../../api/colors';
import type { AppDataProvider } from '../../../dataProvider/dataProvider';
import { priceColorsFor } from '../../../i18n/priceColors';
import { inviteKey, inviteLink } from '../../kit/queries';
import type { PosterInput, PosterTexts } from './drawPoster';

/** What a page puts on its poster; the brand, invite code, QR code and date are added here. */
export interface PosterContent extends Omit<PosterInput, 'link' | 'texts' | 'colors'> {
  texts: Pick<PosterTexts, 'title' | 'mainLabel' | 'main' | 'secondLabel' | 'second' | 'lines'>;
  fileName: string;
}

/**
 * "Share poster": draws the page's returns with the user's invite code and
 * QR code on a canvas (the drawing code and `qrcode` load on the click) and
 * shows it with a button that saves it as a PNG.
 */
export const PosterButton = ({ content, disabled }: { content: () => PosterContent; disabled?: boolean }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const api = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [poster, setPoster] = useState<{ url: string; fileName: string } | null>(null);

  useEffect(() => () => (poster ? URL.revokeObjectURL(poster.url) : undefined), [poster]);

  const make = async () => {
    setBusy(true);
    try {
      const { texts, fileName, ...rest } = content();
      const [invite, { drawPoster, posterPng }] = await Promise.all([
        queryClient.fetchQuery({ queryKey: inviteKey, queryFn: ({ signal }) => api.inviteInfo(signal) }),
        import('./drawPoster'),
      ]);
      const canvas = await drawPoster({
        ...rest,
        // The user's 红涨绿跌 / 绿涨红跌, as the page colours the same figures (the poster's dark background takes the dark hues).
        colors: upDownColors(priceColorsFor(locale), 'dark'),
        link: inviteLink(invite.registerPath),
        texts: {
          ...texts,
          brand: translate('app.name'),
          tagline: translate('app.tagline'),
          curve: translate('returns.curve'),
          inviteLabel: translate('poster.inviteCode'),
          inviteCode: invite.inviteCode,
          scan: translate('poster.scan'),
          date: new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date()),
        },
      });
      const blob = await posterPng(canvas);
      setPoster({ url: URL.createObjectURL(blob), fileName });
    } catch {
      notify(translate('poster.failed'), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        variant="outlined"
        size="small"
        disabled={disabled || busy}
        onClick={() => void make()}
        startIcon={busy ? <CircularProgress size={16} /> : <IosShareIcon />}
        data-poster="share"
        sx={{ flexShrink: 0 }}
      >
        {translate(busy ? 'poster.making' : 'poster.share')}
      </Button>
      <Dialog open={poster !== null} onClose={() => setPoster(null)} maxWidth="xs" fullWidth>
        <DialogTitle>{translate('poster.preview')}</DialogTitle>
        <DialogContent>
          {poster && (
            <Box component="img" src={poster.url} alt={translate('poster.preview')} data-poster="image" sx={{ display: 'block', width: '100%', height: 'auto', borderRadius: 1 }} />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setPoster(null)}>{translate('poster.close')}</Button>
          {poster && (
            <Button variant="contained" component="a" href={poster.url} download={poster.fileName} startIcon={<DownloadIcon />} data-poster="save">
              {translate('poster.save')}
            </Button>
          )}
        </DialogActions>
      </Dialog>
    </>
  );
};
