import { SecretText, UuidList, pagingProperties } from '../http/schemas';
/** Field rules of the exchange-account calls. Credentials are accepted here and never appear in an answer schema. */
const noControl = '^[^\\u0000-\\u001f\\u007f]*$';

export const exchangeIdSchema = { type: 'string', minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$' } as const;
/** 1-32 characters, no control characters and no angle brackets; unique per user whatever the letter case. */
export const accountNameSchema = { type: 'string', minLength: 1, maxLength: 32, pattern: '^[^\\u0000-\\u001f\\u007f<>]*$' } as const;
export const apiKeySchema = { type: 'string', maxLength: 256, pattern: noControl } as const;
/** Some exchanges take a PEM private key (several lines) as the secret. */
export const secretSchema = SecretText({ maxLength: 4096 });
export const passphraseSchema = { type: 'string', maxLength: 128, pattern: noControl } as const;
export const uidSchema = { type: 'string', maxLength: 64, pattern: noControl } as const;
export const accountIdSchema = { type: 'string', format: 'uuid' } as const;

const credentialProperties = { apiKey: apiKeySchema, secret: secretSchema, password: passphraseSchema, uid: uidSchema } as const;

const balancesSchema = { type: ['object', 'null'], additionalProperties: { type: 'string' } } as const;

/** A paper account's price source: 'simulator' or an offered exchange's ccxt id. */
export const priceSourceSchema = { type: 'string', minLength: 1, maxLength: 40, pattern: '^[a-z0-9_-]+$' } as const;

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
    kind: { type: 'string', enum: ['paper', 'real'] },
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
  querystring: {
    type: 'object',
    properties: {
      ...pagingProperties(100),
      sort: { type: 'string', enum: ['name', 'exchange', 'createdAt', 'updatedAt'], default: 'createdAt' },
      order: { type: 'string', enum: ['ASC', 'DESC'], default: 'ASC' },
      /** Comma-separated account ids (react-admin getMany). */
      ids: UuidList(),
      exchange: exchangeIdSchema,
    },
  },
  response: {
    200: envelope({ type: 'object', properties: { list: { type: 'array', items: accountSchema }, total: { type: 'integer' } } }),
  },
};

export const addSchema = {
  summary: 'Bind an exchange account: paper (no keys) or a real exchange (keys checked with the exchange, then stored encrypted)',
  security,
  body: {
    type: 'object',
    additionalProperties: false,
    properties: { exchange: exchangeIdSchema, name: accountNameSchema, priceSource: priceSourceSchema, ...credentialProperties },
    required: ['exchange', 'name'],
  },
  response: { 200: envelope(accountSchema) },
};

export const editSchema = {
  summary: 'Rename an account or replace its keys (empty or omitted keys are kept; new ones are checked first)',
  security,
  body: {
    type: 'object',
    additionalProperties: false,
    properties: { id: accountIdSchema, name: accountNameSchema, ...credentialProperties },
    required: ['id'],
  },
  response: { 200: envelope(accountSchema) },
};

export const detailSchema = {
  summary: 'One of the user’s exchange accounts',
  security,
  params: { type: 'object', properties: { id: accountIdSchema }, required: ['id'] },
  response: { 200: envelope(accountSchema) },
};

export const deleteSchema = {
  summary: 'Remove one of the user’s exchange accounts and its stored keys',
  security,
  body: { type: 'object', additionalProperties: false, properties: { id: accountIdSchema }, required: ['id'] },
  response: { 200: envelope({ type: 'null' }) },
};
