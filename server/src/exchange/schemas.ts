import type { Static } from 'typebox';
import { Body, Query, SecretText, StringEnum, Type, UNSAFE_CHARACTERS, Uuid, UuidList, pagingProperties } from '../http/schemas';
/** Field rules of the exchange-account calls. Credentials are accepted here and never appear in an answer schema. */
const noControl = '^[^\\u0000-\\u001f\\u007f]*$';

export const exchangeIdSchema = Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$' });
/** 1-32 characters, no control or invisible characters and no angle brackets; unique per user whatever the letter case. */
export const accountNameSchema = Type.String({ minLength: 1, maxLength: 32, pattern: `^[^<>${UNSAFE_CHARACTERS}]*$` });
export const apiKeySchema = Type.String({ maxLength: 256, pattern: noControl });
/** Some exchanges take a PEM private key (several lines) as the secret. */
export const secretSchema = SecretText({ maxLength: 4096 });
export const passphraseSchema = Type.String({ maxLength: 128, pattern: noControl });
export const uidSchema = Type.String({ maxLength: 64, pattern: noControl });
export const accountIdSchema = Uuid();

const credentialProperties = {
  apiKey: Type.Optional(apiKeySchema),
  secret: Type.Optional(secretSchema),
  password: Type.Optional(passphraseSchema),
  uid: Type.Optional(uidSchema),
};

const balancesSchema = { type: ['object', 'null'], additionalProperties: { type: 'string' } } as const;

/** A paper account's price source: 'simulator' or an offered exchange's ccxt id. */
export const priceSourceSchema = Type.String({ minLength: 1, maxLength: 40, pattern: '^[a-z0-9_-]+$' });

const pricesSchema = {
  type: ['object', 'null'],
  properties: { source: { type: 'string' }, live: { type: 'boolean' }, fallbackSince: { type: ['string', 'null'] } },
} as const;

export const accountSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    exchange: { type: 'string' },
    name: { type: 'string' },
    apiKeyHint: { type: ['string', 'null'] },
    paperBalances: balancesSchema,
    prices: pricesSchema,
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
} as const;

const catalogEntrySchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    kind: { type: 'string', enum: ['paper', 'real', 'testnet'] },
    credentials: { type: 'array', items: { type: 'string', enum: ['apiKey', 'secret', 'password', 'uid'] } },
    checksPermissions: { type: 'boolean' },
    startBalances: balancesSchema,
    priceSources: { type: ['array', 'null'], items: { type: 'string' } },
  },
} as const;

const envelope = (data: object) => ({
  type: 'object',
  properties: { code: { type: 'integer' }, message: { type: 'string' }, data },
});

const security = [{ bearer: [] }];

export const catalogSchema = {
  summary: 'The exchanges a user can bind and the credentials each needs',
  security,
  response: {
    200: envelope({ type: 'object', properties: { list: { type: 'array', items: catalogEntrySchema }, total: { type: 'integer' } } }),
  },
};

export const listSchema = {
  summary: "The user's exchange accounts (no secret is ever answered)",
  security,
  querystring: Query({
    ...pagingProperties(100),
    sort: StringEnum(['name', 'exchange', 'createdAt', 'updatedAt'], { default: 'createdAt' }),
    order: StringEnum(['ASC', 'DESC'], { default: 'ASC' }),
    /** Comma-separated account ids (react-admin getMany). */
    ids: Type.Optional(UuidList()),
    exchange: Type.Optional(exchangeIdSchema),
  }),
  response: {
    200: envelope({ type: 'object', properties: { list: { type: 'array', items: accountSchema }, total: { type: 'integer' } } }),
  },
};

export const addSchema = {
  summary: 'Bind an exchange account: paper (no keys) or a real exchange (keys checked with the exchange, then stored encrypted)',
  security,
  body: Body({ exchange: exchangeIdSchema, name: accountNameSchema, priceSource: Type.Optional(priceSourceSchema), ...credentialProperties }),
  response: { 200: envelope(accountSchema) },
};

export const editSchema = {
  summary: 'Rename an account or replace its keys (empty or omitted keys are kept; new ones are checked first)',
  security,
  body: Body({ id: accountIdSchema, name: Type.Optional(accountNameSchema), ...credentialProperties }),
  response: { 200: envelope(accountSchema) },
};

export const detailSchema = {
  summary: 'One of the user’s exchange accounts',
  security,
  params: Type.Object({ id: accountIdSchema }),
  response: { 200: envelope(accountSchema) },
};

export const balanceSchema = {
  summary: 'The free quote (USDT) balance of one of the user’s exchange accounts now: a paper account’s own, a real one’s from its exchange (null when it cannot be asked)',
  security,
  params: Type.Object({ id: accountIdSchema }),
  response: {
    200: envelope({ type: 'object', properties: { id: { type: 'string' }, asset: { type: 'string' }, free: { type: ['string', 'null'] } } }),
  },
};

export const deleteSchema = {
  summary: 'Remove one of the user’s exchange accounts and its stored keys',
  security,
  body: Body({ id: accountIdSchema }),
  response: { 200: envelope({ type: 'null' }) },
};

export type ListQuery = Static<typeof listSchema.querystring>;
export type AddBody = Static<typeof addSchema.body>;
export type EditBody = Static<typeof editSchema.body>;
