import { useEffect, useMemo, useState } from 'react';
import { useCoinPrices } from './api';
import type { PricePoint } from './chartGeometry';

export const PRICE_POLL_MS = 2_000;
/** About ten minutes of prices at one every two seconds. */
export const MAX_PRICE_POINTS = 300;

/**
 * The last price of a pair, polled every 2 s while the page is open, kept as
 * a rolling series (the API has no price history; the chart starts when the
 * page opens).
 */
export const useLivePrices = (exchangeId: string | undefined, symbol: string | undefined) => {
  const [points, setPoints] = useState<PricePoint[]>([]);
  const symbols = useMemo(() => (symbol ? [symbol] : []), [symbol]);
  const price = useCoinPrices(exchangeId, symbols, PRICE_POLL_MS);

  const last = symbol ? price.data?.[symbol] : undefined;
  const at = price.dataUpdatedAt;
  useEffect(() => {
    const value = Number(last);
    if (!at || !Number.isFinite(value) || value <= 0) return;
    setPoints((previous) => {
      if (previous.length > 0 && previous[previous.length - 1]!.t >= at) return previous;
      const next = [...previous, { t: at, price: value }];
      return next.length > MAX_PRICE_POINTS ? next.slice(next.length - MAX_PRICE_POINTS) : next;
    });
  }, [last, at]);

  return { points, error: price.error };
};
