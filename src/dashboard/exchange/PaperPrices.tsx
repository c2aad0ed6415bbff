import { Alert, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { SIMULATOR, type PaperPrices as Prices } from '../../api/exchange';
import { useExchangeCatalog } from '../kit/queries';
import { exchangeLabel } from './exchangeText';

/**
 * Which prices a paper account uses: an exchange's live prices, the built-in
 * simulator, or (the exchange cannot be reached) the simulator standing in
 * since `fallbackSince`, said as a warning.
 */
export const PaperPrices = ({ prices }: { prices: Prices }) => {
  const translate = useTranslate();
  const catalog = useExchangeCatalog().data;
  const [locale] = useLocaleState();
  if (prices.source === SIMULATOR) {
    return (
      <Typography variant="body2" data-prices="simulator">
        {translate('exchange.prices.simulator')}
      </Typography>
    );
  }
  const exchange = exchangeLabel(prices.source, catalog, translate);
  if (prices.live) {
    return (
      <Typography variant="body2" data-prices="live">
        {translate('exchange.prices.live', { exchange })}
      </Typography>
    );
  }
  const since = prices.fallbackSince
    ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(prices.fallbackSince))
    : null;
  return (
    <Alert severity="warning" data-prices="fallback" sx={{ py: 0, mt: 0.5 }}>
      {since ? translate('exchange.prices.fallback', { exchange, since }) : translate('exchange.prices.fallbackNow', { exchange })}
    </Alert>
  );
};
