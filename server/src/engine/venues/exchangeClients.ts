import { PAPER_EXCHANGE } from '../../../../src/api/exchange';
import type { Db } from '../../db/database';
import { ccxtIdOf, createCcxtExchange, createSecretBox, openAccountExchange, openCredential, type Credentials, type ExchangeFactory } from './exchangeAccess';
import { createCcxtClient } from './ccxtClient';
import type { ExchangeShared } from './exchangeShared';
import type { ExchangeClient } from './exchangeClient';

export interface ExchangeClientsOptions {
  db: Db;
  /** Opens the stored credentials of real exchange accounts; without it only paper accounts work. */
  exchangeMasterKey?: string | undefined;
  /** Builds the ccxt instances (tests replay recorded exchange answers). */
  createExchange?: ExchangeFactory | undefined;
  /** The request budgets, pauses and market lists every account's client shares with the server's price reads (enginePlugin.ts). */
  shared: ExchangeShared;
}

/**
 * Real accounts' exchange clients, built once per account from the stored,
 * encrypted credentials; null for a paper account. A failed build is not
 * kept (the next call tries again); `forget` drops a client whose keys changed.
 */
export const createExchangeClients = ({ db, exchangeMasterKey, createExchange, shared }: ExchangeClientsOptions) => {
  const box = exchangeMasterKey ? createSecretBox(exchangeMasterKey) : null;
  const clients = new Map<string, Promise<ExchangeClient | null>>();
  /** The exchange (account type: a ccxt id or a testnet type) of each real account whose client was built. */
  const exchanges = new Map<string, string>();

  const open = async (accountId: string): Promise<ExchangeClient | null> => {
    const row = await db
      .selectFrom('exchange_accounts')
      .select(['exchange', 'user_id', 'api_key_ciphertext', 'secret_ciphertext', 'password_ciphertext', 'uid_ciphertext'])
      .where('id', '=', accountId)
      .executeTakeFirst();
    if (!row) throw new Error(`exchange account ${accountId} does not exist`);
    if (row.exchange === PAPER_EXCHANGE) return null;
    exchanges.set(accountId, row.exchange);
    if (!box) throw new Error('no master key to open the exchange credentials');
    const unseal = (field: 'apiKey' | 'secret' | 'password' | 'uid', sealed: string | null) => openCredential(box, row.user_id, field, sealed);
    const apiKey = unseal('apiKey', row.api_key_ciphertext);
    const secret = unseal('secret', row.secret_ciphertext);
    if (!apiKey || !secret) throw new Error(`exchange account ${accountId} has no stored key`);
    const password = unseal('password', row.password_ciphertext);
    const uid = unseal('uid', row.uid_ciphertext);
    const credentials: Credentials = { apiKey, secret, ...(password ? { password } : {}), ...(uid ? { uid } : {}) };
    const factory = createExchange ?? createCcxtExchange;
    // A testnet account: the live exchange's class in sandbox mode. Its pauses, budget and markets are its own
    // (keyed by the account type, 'binance-testnet'): a testnet's ban is another server's and holds back nothing of the live exchange.
    return createCcxtClient({ exchangeId: ccxtIdOf(row.exchange), credentials, createExchange: (_id, settings) => openAccountExchange(factory, row.exchange, settings), pauses: shared.pauses, shared });
  };

  return {
    /** The account's client, or null for a paper account. */
    clientFor(accountId: string): Promise<ExchangeClient | null> {
      let client = clients.get(accountId);
      if (!client) {
        client = open(accountId);
        clients.set(accountId, client);
        client.catch(() => clients.delete(accountId));
      }
      return client;
    },
    /** The exchange of a real account whose client was built: its ccxt id (the key of its price streams) or its testnet type. */
    exchangeOf: (accountId: string) => exchanges.get(accountId),
    forget(accountId: string) {
      clients.delete(accountId);
      exchanges.delete(accountId);
    },
  };
};

export type ExchangeClients = ReturnType<typeof createExchangeClients>;
