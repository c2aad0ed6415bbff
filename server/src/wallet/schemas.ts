import { ASSETS, type LedgerKind } from '../../../src/api/wallet';
import { signatureProperties, signatureRequired } from '../http/signature';

/**
 * Field rules of the wallet calls (README "Wallet"). Amounts are decimal
 * strings: digits, an optional fraction of up to 18 places, no sign, no
 * exponent, no spaces; the service also refuses zero (10002).
 */
export const AMOUNT_PATTERN = '^(0|[1-9][0-9]{0,17})(\\.[0-9]{1,18})?$';
export const amountSchema = { type: 'string', pattern: AMOUNT_PATTERN, maxLength: 37 } as const;
/** A random id the browser makes once per intended action (a uuid fits). */
export const idempotencyKeySchema = { type: 'string', pattern: '^[A-Za-z0-9_-]{8,64}$' } as const;
export const assetSchema = { type: 'string', enum: [...ASSETS] } as const;
/** Another user: an email or a user id. */
export const userRefSchema = { type: 'string', minLength: 1, maxLength: 254 } as const;
/** A chain transaction id (64 hex characters, optionally 0x-prefixed); empty means none. */
export const txHashSchema = { type: 'string', pattern: '^((0x)?[0-9a-fA-F]{64})?$' } as const;
export const uuidSchema = { type: 'string', format: 'uuid' } as const;
export const reasonSchema = { type: 'string', minLength: 1, maxLength: 500, pattern: '\\S' } as const;

export const LEDGER_KINDS: readonly LedgerKind[] = [
  'recharge',
  'withdraw_hold',
  'withdraw_approve',
  'withdraw_reject',
  'transfer_out',
  'transfer_in',
  'swap_out',
  'swap_in',
  'points_out',
  'points_in',
  'fuel_charge',
  'activation',
  'invite_reward',
  'adjustment',
];

export const paging = {
  page: { type: 'integer', minimum: 1, default: 1 },
  pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  // react-admin sends these; lists are always newest first.
  sort: { type: 'string', maxLength: 40 },
  order: { type: 'string', maxLength: 4 },
} as const;

const body = <P extends Record<string, unknown>, R extends readonly string[]>(properties: P, required: R) =>
  ({ type: 'object', additionalProperties: false, properties, required: [...required] }) as const;

const signed = <P extends Record<string, unknown>, R extends readonly string[]>(properties: P, required: R) =>
  ({
    type: 'object',
    additionalProperties: false,
    properties: { ...properties, ...signatureProperties },
    required: [...required, ...signatureRequired],
  }) as const;

const decimal = { type: 'string' } as const;
const nullableText = { type: ['string', 'null'] } as const;

export const envelope = (data: object) => ({
  type: 'object',
  properties: { code: { type: 'integer' }, message: { type: 'string' }, data },
});

const page = (item: object) => envelope({ type: 'object', properties: { list: { type: 'array', items: item }, total: { type: 'integer' } } });

export const depositSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    asset: { type: 'string' },
    amount: decimal,
    address: { type: 'string' },
    txHash: nullableText,
    status: { type: 'string' },
    reason: nullableText,
    createdAt: { type: 'string' },
    decidedAt: nullableText,
  },
} as const;

export const withdrawalSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    asset: { type: 'string' },
    amount: decimal,
    fee: decimal,
    address: { type: 'string' },
    status: { type: 'string' },
    reason: nullableText,
    createdAt: { type: 'string' },
    decidedAt: nullableText,
    internal: { type: 'boolean' },
  },
} as const;

export const adminDepositSchema = {
  type: 'object',
  properties: { ...depositSchema.properties, userId: { type: 'string' }, userEmail: { type: 'string' } },
} as const;

export const adminWithdrawalSchema = {
  type: 'object',
  properties: { ...withdrawalSchema.properties, txHash: nullableText, userId: { type: 'string' }, userEmail: { type: 'string' } },
} as const;

export const ledgerRecordSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    transactionId: { type: 'string' },
    asset: { type: 'string' },
    kind: { type: 'string' },
    amount: decimal,
    balanceAfter: decimal,
    detail: { type: 'object', additionalProperties: { type: 'string' } },
    createdAt: { type: 'string' },
  },
} as const;

const swapRateSchema = { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' }, rate: decimal } } as const;

export const balancesSchema = {
  summary: 'Balances of every asset (available and held by pending withdrawals)',
  response: {
    200: envelope({
      type: 'object',
      properties: {
        balances: {
          type: 'array',
          items: { type: 'object', properties: { asset: { type: 'string' }, available: decimal, held: decimal } },
        },
      },
    }),
  },
};

export const configSchema = {
  summary: 'Fees, minimums, deposit network and swap rates in force',
  response: {
    200: envelope({
      type: 'object',
      properties: {
        depositNetwork: { type: 'string' },
        withdrawFee: decimal,
        withdrawMin: decimal,
        transferMin: decimal,
        swapRates: { type: 'array', items: swapRateSchema },
      },
    }),
  },
};

export const depositAddressSchema = {
  summary: "The caller's own deposit address (stable)",
  response: {
    200: envelope({ type: 'object', properties: { asset: { type: 'string' }, network: { type: 'string' }, address: { type: 'string' } } }),
  },
};

export const rechargeSchema = {
  summary: 'Report a deposit: a pending record until an operator confirms it (idempotent)',
  body: body({ amount: amountSchema, txHash: txHashSchema, idempotencyKey: idempotencyKeySchema }, ['amount', 'idempotencyKey']),
  response: { 200: envelope(depositSchema) },
};

export const listSchema = (summary: string, item: object) => ({
  summary,
  querystring: { type: 'object', properties: { ...paging } },
  response: { 200: page(item) },
});

/** The login password that confirms money leaving the wallet. */
export const passwordSchema = { type: 'string', minLength: 1, maxLength: 128 } as const;

export const withdrawSchema = {
  summary:
    "Withdraw USDT: holds amount + fee until an operator decides; to another user's deposit address it is paid to them at once, without fee; never to one's own (signed: amount, address, idempotencyKey)",
  body: signed(
    { amount: amountSchema, address: { type: 'string', minLength: 1, maxLength: 100 }, password: passwordSchema, idempotencyKey: idempotencyKeySchema },
    ['amount', 'address', 'password', 'idempotencyKey'],
  ),
  response: { 200: envelope(withdrawalSchema) },
};

export const transferSchema = {
  summary: 'Send USDT to another user by email or id, confirmed by the login password (signed: to, amount, idempotencyKey)',
  body: signed({ to: userRefSchema, amount: amountSchema, password: passwordSchema, idempotencyKey: idempotencyKeySchema }, ['to', 'amount', 'password', 'idempotencyKey']),
  response: { 200: envelope(ledgerRecordSchema) },
};

export const swapSchema = {
  summary: 'Convert between assets at a configured rate, rounded down (signed: from, to, amount, idempotencyKey)',
  body: signed(
    { from: assetSchema, to: assetSchema, amount: amountSchema, idempotencyKey: idempotencyKeySchema },
    ['from', 'to', 'amount', 'idempotencyKey'],
  ),
  response: { 200: envelope(ledgerRecordSchema) },
};

export const pointsTransferSchema = {
  summary: 'Send points to a down-line user, confirmed by the login password (signed: to, amount, idempotencyKey)',
  body: signed({ to: userRefSchema, amount: amountSchema, password: passwordSchema, idempotencyKey: idempotencyKeySchema }, ['to', 'amount', 'password', 'idempotencyKey']),
  response: { 200: envelope(ledgerRecordSchema) },
};

export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

export const recordsSchema = {
  summary: "The caller's entries of one asset, newest first",
  querystring: {
    type: 'object',
    properties: {
      asset: { ...assetSchema, default: 'USDT' },
      kind: { type: 'string', enum: [...LEDGER_KINDS] },
      from: { type: 'string', pattern: DATE_PATTERN },
      to: { type: 'string', pattern: DATE_PATTERN },
      timeZone: { type: 'string', maxLength: 64, default: 'Asia/Shanghai' },
      ...paging,
    },
  },
  response: { 200: page(ledgerRecordSchema) },
};
