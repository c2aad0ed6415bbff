import type { FastifyBaseLogger } from 'fastify';
import { sql, type Selectable, type Updateable } from 'kysely';
import { PAPER_EXCHANGE, SIMULATOR, type CredentialField, type ExchangeAccount, type ExchangeBalance, type ExchangeCatalogEntry, type PaperPrices } from '../../../src/api/exchange';
import { ErrorCode } from '../../../src/api/errors';
import type { Page } from '../../../src/api/types';
import type { ServerConfig } from '../config';
import type { Db } from '../db/database';
import type { ExchangeAccountsTable } from '../db/schema';
import { fail } from '../http/errors';
import { createThrottle, type Limit } from '../shared/throttle';
import { createCatalog } from './catalog';
import { CIPHERTEXT_COLUMN, CREDENTIAL_FIELDS, createSecretBox, sealContext, sealCredentials, type Credentials, type ExchangeFactory, type SecretBox } from '../engine/venues/exchangeAccess';
import type { AddBody, EditBody, ListQuery } from './schemas';
import { createKeyVerifier, type KeyVerifier } from './verify';

/**
 * The exchange accounts' rules (routes.ts parses and answers): bind a paper
 * or a real account (its keys checked with the exchange, throttled, then
 * sealed: engine/venues/exchangeAccess.ts), rename it or replace its keys,
 * read it without any secret, remove it.
 */
export interface ExchangeDeps {
  db: Db;
  config: Pick<ServerConfig, 'exchangeMasterKey' | 'paperStartUsdt' | 'paperAccountsMax'>;
  /** Tests: a ccxt factory whose HTTP layer replays recorded exchange answers. */
  createExchange?: ExchangeFactory | undefined;
  /** Replaces the whole key check (default: ccxt through `createExchange`). */
  verifyKey?: KeyVerifier;
  /** Called after an account's keys were replaced or the account removed (the engine drops its cached client). */
  onKeysChanged?: (accountId: string) => void;
  /** Where a paper account's prices come from now (engine/facade.ts); default: as chosen, not live. */
  pricesOf?: (source: string | null) => PaperPrices;
  /** An account's free balance of an asset now (engine/facade.ts); null when it cannot be known now. Default: unknown. */
  freeBalance?: (account: { id: string; exchange: string }, asset: string) => Promise<string | null>;
  /** Loads a live price source's market now, so a new paper account says at once whether it is reachable. */
  warmSource?: (source: string) => Promise<unknown>;
}

/** Each key check calls the exchange: per user 10 in 10 minutes and 50 a day, so nobody gets our IP banned. */
const KEY_CHECK_LIMITS: Limit[] = [
  { max: 10, windowSeconds: 600 },
  { max: 50, windowSeconds: 86_400 },
];

/** The quote asset every offered pair trades against. */
const QUOTE = 'USDT';

/** What list and detail read: never a ciphertext. */
const PUBLIC_COLUMNS = ['id', 'exchange', 'name', 'api_key_hint', 'paper_balances', 'price_source', 'created_at', 'updated_at'] as const;
type PublicRow = Pick<Selectable<ExchangeAccountsTable>, (typeof PUBLIC_COLUMNS)[number]>;

const SORT_COLUMN = { name: 'name', exchange: 'exchange', createdAt: 'created_at', updatedAt: 'updated_at' } as const;

type CredentialInput = Partial<Record<CredentialField, string>>;

const toAccountWith = (pricesOf: (source: string | null) => PaperPrices) => (row: PublicRow): ExchangeAccount => ({
  id: row.id,
  exchange: row.exchange,
  name: row.name,
  apiKeyHint: row.api_key_hint,
  paperBalances: row.paper_balances,
  prices: row.exchange === PAPER_EXCHANGE ? pricesOf(row.price_source) : null,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
});

/** 'abcd****wxyz' for a 64-character key; never more than a third of a short key. */
export const maskApiKey = (apiKey: string): string => {
  const shown = Math.min(4, Math.floor(apiKey.length / 6));
  return shown === 0 ? '****' : `${apiKey.slice(0, shown)}****${apiKey.slice(-shown)}`;
};

/** The credential fields given with a value, without surrounding whitespace (a paste). */
const givenCredentials = (body: CredentialInput): CredentialInput => {
  const given: CredentialInput = {};
  for (const field of CREDENTIAL_FIELDS) {
    const value = body[field]?.trim();
    if (value) given[field] = value;
  }
  return given;
};

const cleanName = (name: string): string => {
  const trimmed = name.trim();
  if (!trimmed) fail(ErrorCode.PARAM_LENGTH, 'name must be 1 to 32 characters', { field: 'name' });
  return trimmed;
};

const notFound = (): never => fail(ErrorCode.PARAM_NOT_EXIST, 'exchange account does not exist', { field: 'id' });

const duplicateName = (): never => fail(ErrorCode.ALREADY_EXISTS, 'an exchange account with this name already exists', { field: 'name' });

export const createExchangeService = (deps: ExchangeDeps) => {
  const { db } = deps;
  const catalog = createCatalog(deps.config.paperStartUsdt);
  const toAccount = toAccountWith(deps.pricesOf ?? ((source) => ({ source: source ?? SIMULATOR, live: false, fallbackSince: null })));
  const box: SecretBox = createSecretBox(deps.config.exchangeMasterKey);
  const verifyKey = deps.verifyKey ?? createKeyVerifier({ createExchange: deps.createExchange });
  const throttle = createThrottle(db);

  const nameTaken = async (userId: string, name: string, exceptId?: string) => {
    let query = db
      .selectFrom('exchange_accounts')
      .select('id')
      .where('user_id', '=', userId)
      .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()));
    if (exceptId) query = query.where('id', '<>', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  };

  /** Required fields present, no field the exchange does not use; refusals before anything is sent. */
  const checkCredentialFields = (entry: ExchangeCatalogEntry, given: CredentialInput, requireAll: boolean) => {
    for (const field of CREDENTIAL_FIELDS) {
      if (given[field] && !entry.credentials.includes(field)) {
        fail(ErrorCode.INVALID, entry.kind === 'paper' ? 'a paper account takes no credentials' : `${entry.name} does not use ${field}`, {
          field,
        });
      }
    }
    if (requireAll) {
      for (const field of entry.credentials) {
        if (!given[field]) fail(ErrorCode.PARAM_REQUIRED, `${entry.name} needs ${field}`, { field });
      }
    }
  };

  /** The key check, counted before the exchange is asked, so failed attempts count too. */
  const checkKey = async (userId: string, log: FastifyBaseLogger, exchangeId: string, credentials: Credentials) => {
    const key = `exchange-key-check:user:${userId}`;
    await throttle.take([{ key, limits: KEY_CHECK_LIMITS }]);
    await verifyKey(exchangeId, credentials, log);
  };

  const sealAll = (userId: string, credentials: CredentialInput) => sealCredentials(box, userId, credentials);

  const uniqueName = async <T>(write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (error) {
      if ((error as { code?: string }).code === '23505') duplicateName();
      throw error;
    }
  };

  return {
    catalog: () => ({ list: catalog.entries, total: catalog.entries.length }),

    async list(userId: string, query: ListQuery): Promise<Page<ExchangeAccount>> {
      let filtered = db.selectFrom('exchange_accounts').where('user_id', '=', userId);
      if (query.ids) filtered = filtered.where('id', 'in', query.ids.split(',').map((id) => id.toLowerCase()));
      if (query.exchange) filtered = filtered.where('exchange', '=', query.exchange.toLowerCase());
      const { total } = await filtered.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
      const direction = query.order === 'DESC' ? 'desc' : 'asc';
      const column = SORT_COLUMN[query.sort];
      const rows = await filtered
        .select(PUBLIC_COLUMNS)
        // Names sort as people read them, whatever the letter case or the database collation.
        .orderBy(column === 'name' ? sql`lower(name) collate "C"` : column, direction)
        .orderBy('id', direction)
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize)
        .execute();
      return { list: rows.map(toAccount), total: Number(total) };
    },

    async detail(userId: string, id: string): Promise<ExchangeAccount> {
      const row = await db
        .selectFrom('exchange_accounts')
        .select(PUBLIC_COLUMNS)
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return toAccount(row ?? notFound());
    },

    async balance(userId: string, id: string): Promise<ExchangeBalance> {
      const row = await db
        .selectFrom('exchange_accounts')
        .select(['id', 'exchange'])
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      const account = row ?? notFound();
      const balance: ExchangeBalance = { id: account.id, asset: QUOTE, free: deps.freeBalance ? await deps.freeBalance(account, QUOTE) : null };
      return balance;
    },

    /** `confirmKeys`: the step-up check, asked before keys are bound (not for a paper account, which has none). */
    async add(userId: string, body: AddBody, log: FastifyBaseLogger, confirmKeys: () => Promise<void> = async () => {}): Promise<ExchangeAccount> {
      const entry = catalog.find(body.exchange);
      if (body.priceSource !== undefined && !entry.priceSources?.includes(body.priceSource)) {
        fail(ErrorCode.INVALID, entry.kind === 'paper' ? `price source ${body.priceSource} is not offered` : 'only a paper account takes a price source', { field: 'priceSource' });
      }
      const name = cleanName(body.name);
      const given = givenCredentials(body);
      checkCredentialFields(entry, given, true);
      if (await nameTaken(userId, name)) duplicateName();
      if (entry.kind !== 'paper') await confirmKeys();

      if (entry.kind === 'paper') {
        const priceSource = body.priceSource ?? entry.priceSources![0]!;
        // Asked once now, so the answer already says whether the exchange's live prices can be had.
        if (priceSource !== SIMULATOR) await deps.warmSource?.(priceSource);
        // At most `paperAccountsMax` each (PAPER_ACCOUNTS_MAX): counted and added under the user's lock, so concurrent adds cannot pass it together.
        const max = deps.config.paperAccountsMax;
        const row = await uniqueName(() =>
          db.transaction().execute(async (trx) => {
            await sql`select pg_advisory_xact_lock(hashtext(${`paper-accounts:${userId}`}))`.execute(trx);
            const { n } = await trx
              .selectFrom('exchange_accounts')
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .where('user_id', '=', userId)
              .where('exchange', '=', PAPER_EXCHANGE)
              .executeTakeFirstOrThrow();
            if (Number(n) >= max) fail(ErrorCode.LIMIT_REACHED, `at most ${max} paper accounts per user`, { field: 'exchange', max });
            return trx
              .insertInto('exchange_accounts')
              .values({ user_id: userId, exchange: PAPER_EXCHANGE, name, paper_balances: JSON.stringify(entry.startBalances), price_source: priceSource })
              .returning(PUBLIC_COLUMNS)
              .executeTakeFirstOrThrow();
          }),
        );
        return toAccount(row);
      }

      const credentials = given as Credentials;
      await checkKey(userId, log, entry.id, credentials);
      const row = await uniqueName(() =>
        db
          .insertInto('exchange_accounts')
          .values({
            user_id: userId,
            exchange: entry.id,
            name,
            api_key_hint: maskApiKey(credentials.apiKey),
            ...sealAll(userId, credentials),
          })
          .returning(PUBLIC_COLUMNS)
          .executeTakeFirstOrThrow(),
      );
      log.info({ exchangeAccountId: row.id, exchange: entry.id }, 'exchange account bound');
      return toAccount(row);
    },

    /** `confirmKeys`: the step-up check, asked before keys are replaced (a rename alone needs none). */
    async edit(userId: string, body: EditBody, log: FastifyBaseLogger, confirmKeys: () => Promise<void> = async () => {}): Promise<ExchangeAccount> {
      const current = await db
        .selectFrom('exchange_accounts')
        .selectAll()
        .where('id', '=', body.id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!current) return notFound();

      const changes: Updateable<ExchangeAccountsTable> = {};
      if (body.name !== undefined) {
        const name = cleanName(body.name);
        if (name !== current.name) {
          if (await nameTaken(userId, name, current.id)) duplicateName();
          changes.name = name;
        }
      }

      const given = givenCredentials(body);
      if (Object.keys(given).length > 0) {
        const entry = catalog.find(current.exchange);
        checkCredentialFields(entry, given, false);
        await confirmKeys();
        // The new values with the stored ones for the rest: the key is checked as it will be used.
        const stored: CredentialInput = {};
        for (const field of entry.credentials) {
          const sealed = current[CIPHERTEXT_COLUMN[field]];
          if (!sealed) continue;
          try {
            stored[field] = box.open(sealed, sealContext(userId, field));
          } catch (error) {
            // Sealed under another master key (lost or replaced): the user enters every field again.
            log.warn({ exchangeAccountId: current.id, field, err: error }, 'stored exchange credential does not open');
          }
        }
        const credentials = { ...stored, ...given } as Credentials;
        checkCredentialFields(entry, credentials, true);
        await checkKey(userId, log, entry.id, credentials);
        Object.assign(changes, sealAll(userId, given));
        if (given.apiKey) changes.api_key_hint = maskApiKey(given.apiKey);
      }

      if (Object.keys(changes).length === 0) return toAccount(current);
      const row = await uniqueName(() =>
        db
          .updateTable('exchange_accounts')
          .set({ ...changes, updated_at: new Date() })
          .where('id', '=', current.id)
          .where('user_id', '=', userId)
          .returning(PUBLIC_COLUMNS)
          .executeTakeFirst(),
      );
      if (!row) return notFound();
      if (Object.keys(given).length > 0) {
        deps.onKeysChanged?.(row.id);
        log.info({ exchangeAccountId: row.id, exchange: row.exchange }, 'exchange account keys replaced');
      }
      return toAccount(row);
    },

    async remove(userId: string, id: string, log: FastifyBaseLogger): Promise<void> {
      let deleted: { id: string } | undefined;
      try {
        deleted = await db
          .deleteFrom('exchange_accounts')
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .returning('id')
          .executeTakeFirst();
      } catch (error) {
        // Trading tasks and their orders keep pointing at the account they traded on.
        if ((error as { code?: string }).code === '23503') {
          fail(ErrorCode.INVALID, 'the exchange account is used by trading tasks; remove them first', { field: 'id', reason: 'in_use' });
        }
        throw error;
      }
      if (!deleted) notFound();
      deps.onKeysChanged?.(id);
      log.info({ exchangeAccountId: id }, 'exchange account removed');
    },
  };
};

export type ExchangeService = ReturnType<typeof createExchangeService>;
