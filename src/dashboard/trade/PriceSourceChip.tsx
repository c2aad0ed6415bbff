import ShowChartIcon from '@mui/icons-material/ShowChart';
import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { isTestnetExchange, SIMULATOR, type ExchangeCatalogEntry } from '../../api/exchange';
import type { TradeTask } from '../../api/trade';
import { useExchangeCatalog } from '../kit/queries';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The name of an exchange whose prices are used ('binance' -> 'Binance'), from the catalog. */
export const priceSourceName = (source: string, catalog: readonly ExchangeCatalogEntry[] | undefined) =>
  catalog?.find((entry) => entry.id === source)?.name ?? source;

/**
 * What a task's prices are: "模拟行情" for the simulator, and also for an
 * exchange that cannot be reached (the simulator stands in); "Binance 实时行情"
 * only while they are live. Never claims live prices that are not.
 */
export const priceSourceText = (prices: TradeTask['prices'], catalog: readonly ExchangeCatalogEntry[] | undefined, translate: Translate) =>
  prices.source === SIMULATOR || !prices.live ? translate('tasks.prices.simulated') : translate('tasks.prices.live', { exchange: priceSourceName(prices.source, catalog) });

/** The prices a task trades on, as a small chip (task cards and the task detail header). */
export const PriceSourceChip = ({ prices }: { prices: TradeTask['prices'] }) => {
  const translate = useTranslate();
  const catalog = useExchangeCatalog();
  const live = prices.source !== SIMULATOR && prices.live;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={live ? 'info' : 'default'}
      icon={<ShowChartIcon />}
      label={priceSourceText(prices, catalog.data, translate)}
      data-prices={live ? 'live' : 'simulated'}
    />
  );
};

/** "测试网" beside a task on a testnet account (its prices are the testnet's, play money); nothing otherwise. */
export const TestnetChip = ({ source }: { source: string }) => {
  const translate = useTranslate();
  return isTestnetExchange(source) ? <Chip size="small" variant="outlined" color="warning" label={translate('tasks.testnet')} data-testnet /> : null;
};
