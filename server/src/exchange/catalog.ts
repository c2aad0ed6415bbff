import { PAPER_EXCHANGE, SIMULATOR, type ExchangeCatalogEntry } from '../../../src/api/exchange';
import { ErrorCode } from '../../../src/api/errors';
import { fail } from '../http/errors';
import { ccxtExchangeIds } from '../engine/venues/exchangeAccess';
import { checksPermissions, requiredCredentialFields } from './verify';

/**
 * The exchanges a user can bind: the built-in paper exchange and a chosen
 * few of ccxt's. Any other ccxt id is known but not offered (30101); an id
 * ccxt does not know does not exist (30100).
 */
const OFFERED: readonly { id: string; name: string }[] = [
  { id: 'binance', name: 'Binance' },
  { id: 'okx', name: 'OKX' },
  { id: 'gate', name: 'Gate' },
  { id: 'bybit', name: 'Bybit' },
  { id: 'htx', name: 'HTX' },
  { id: 'bitget', name: 'Bitget' },
];

/** An offered exchange's name as users know it (a paper account's price source in its notices); else its id. */
export const exchangeName = (id: string): string => OFFERED.find((exchange) => exchange.id === id)?.name ?? id;

/** Testnet account types: the exchange's sandbox with play money (src/api/exchange.ts TESTNET_EXCHANGES). */
const TESTNETS: readonly { id: string; name: string }[] = [
  { id: 'binance-testnet', name: 'Binance Spot Testnet' },
  { id: 'okx-testnet', name: 'OKX Demo Trading' },
];

export type Catalog = ReturnType<typeof createCatalog>;

/** `paperStartUsdt`: the virtual USDT a new paper account starts with (configuration). */
export const createCatalog = (paperStartUsdt: string) => {
  const entries: ExchangeCatalogEntry[] = [
    {
      id: PAPER_EXCHANGE,
      name: 'Paper trading',
      kind: 'paper',
      credentials: [],
      checksPermissions: false,
      startBalances: { USDT: paperStartUsdt },
      // Live public prices of an offered exchange (Binance first: the default), or the simulator.
      priceSources: [...OFFERED.map((exchange) => exchange.id), SIMULATOR],
    },
    ...OFFERED.map(
      ({ id, name }): ExchangeCatalogEntry => ({
        id,
        name,
        kind: 'real',
        credentials: requiredCredentialFields(id),
        checksPermissions: checksPermissions(id),
        startBalances: null,
        priceSources: null,
      }),
    ),
    ...TESTNETS.map(
      ({ id, name }): ExchangeCatalogEntry => ({
        id,
        name,
        kind: 'testnet',
        credentials: requiredCredentialFields(id),
        checksPermissions: checksPermissions(id),
        startBalances: null,
        priceSources: null,
      }),
    ),
  ];
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const known = new Set(ccxtExchangeIds());

  return {
    entries,
    /** The offered exchange with this id, or the refusal: 30101 known but not offered, 30100 unknown. */
    find(exchangeId: string): ExchangeCatalogEntry {
      const id = exchangeId.trim().toLowerCase();
      const entry = byId.get(id);
      if (entry) return entry;
      if (known.has(id)) return fail(ErrorCode.EXCHANGE_NOT_SUPPORTED, `exchange ${id} is not supported`, { field: 'exchange', exchange: id });
      return fail(ErrorCode.EXCHANGE_NOT_EXIST, `exchange ${id} does not exist`, { field: 'exchange', exchange: id });
    },
  };
};
