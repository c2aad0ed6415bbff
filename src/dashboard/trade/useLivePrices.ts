import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider/dataProvider';
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
  const dataProvider = useDataProvider<AppDataProvider>();
  const [points, setPoints] = useState<PricePoint[]>([]);
  const price = useQuery({
    queryKey: ['trade', 'coin-price', exchangeId, symbol],
    queryFn: () => dataProvider.tradeCoinPrice({ exchangeId, coins: [symbol!] }),
    enabled: Boolean(exchangeId && symbol),
    refetchInterval: PRICE_POLL_MS,
    refetchIntervalInBackground: false,
  });

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
