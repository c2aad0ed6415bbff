import type { Static, TProperties } from 'typebox';
import type { SignatureFields } from '../../../src/api/signing';
import { Amount, Body, Query, SafeText, SameShape as sameShape, SecretText, StringEnum, TimeZone, Type, Uuid, pagingProperties, type Same } from '../http/schemas';
import { ASSETS, type AddWithdrawalAddressPayload, type LedgerKind, type RemoveWithdrawalAddressPayload, type WithdrawalWhitelistPayload, type PointsTransferPayload, type RechargePayload, type SwapPayload, type TransferPayload, type WithdrawPayload } from '../../../src/api/wallet';
import { signatureProperties } from '../http/signature';

/**
 * Field rules of the wallet calls (README "Wallet"). Amounts are decimal
 * strings: digits, an optional fraction of up to 18 places, no sign, no
 * exponent, no spaces; the service also refuses zero (10002).
 */
export { AMOUNT_PATTERN } from '../http/schemas';
export const amountSchema = Amount();
/** A random id the browser makes once per intended action (a uuid fits). */
export const idempotencyKeySchema = Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$' });
export const assetSchema = StringEnum(ASSETS);
/** Another user: an email or a user id. */
export const userRefSchema = SafeText({ minLength: 1, maxLength: 254 });
/** A chain transaction id (64 hex characters, optionally 0x-prefixed); empty means none. */
export const txHashSchema = Type.String({ pattern: '^((0x)?[0-9a-fA-F]{64})?$' });
export const uuidSchema = Uuid();
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
  ...pagingProperties(),
  // react-admin sends these; lists are always newest first.
  sort: Type.Optional(Type.String({ maxLength: 40 })),
  order: Type.Optional(Type.String({ maxLength: 4 })),
};

/** A signed call's body: its fields and the signature's. */
const signed = <P extends TProperties>(properties: P) => Body({ ...properties, ...signatureProperties });

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

export const rechargeBody = Body({ amount: amountSchema, txHash: Type.Optional(txHashSchema), idempotencyKey: idempotencyKeySchema });
/** The login password that confirms money leaving the wallet. */
const passwordSchema = SecretText({ minLength: 1, maxLength: 128 });
export const withdrawBody = signed({
  amount: amountSchema,
  address: SafeText({ minLength: 1, maxLength: 100 }),
  password: passwordSchema,
  idempotencyKey: idempotencyKeySchema,
});
export const transferBody = signed({ to: userRefSchema, amount: amountSchema, password: passwordSchema, idempotencyKey: idempotencyKeySchema });
export const swapBody = signed({ from: assetSchema, to: assetSchema, amount: amountSchema, idempotencyKey: idempotencyKeySchema });
export const pointsTransferBody = signed({ to: userRefSchema, amount: amountSchema, password: passwordSchema, idempotencyKey: idempotencyKeySchema });

// The contract's payloads (src/api/wallet.ts, what the dashboard sends) and these schemas describe the same values.
sameShape<Same<Static<typeof rechargeBody>, RechargePayload>>();
sameShape<Same<Static<typeof withdrawBody>, WithdrawPayload & SignatureFields>>();
sameShape<Same<Static<typeof transferBody>, TransferPayload & SignatureFields>>();
sameShape<Same<Static<typeof swapBody>, SwapPayload & SignatureFields>>();
sameShape<Same<Static<typeof pointsTransferBody>, PointsTransferPayload & SignatureFields>>();

export const rechargeSchema = {
  summary: 'Report a deposit: a pending record until an operator confirms it (idempotent)',
  body: rechargeBody,
  response: { 200: envelope(depositSchema) },
};

export const listSchema = (summary: string, item: object) => ({
  summary,
  querystring: Query({ ...paging }),
  response: { 200: page(item) },
});

export const withdrawSchema = {
  summary:
    "Withdraw USDT: holds amount + fee until an operator decides; to another user's deposit address it is paid to them at once, without fee; never to one's own (signed: amount, address, idempotencyKey)",
  body: withdrawBody,
  response: { 200: envelope(withdrawalSchema) },
};

export const transferSchema = {
  summary: 'Send USDT to another user by email or id, confirmed by the login password (signed: to, amount, idempotencyKey)',
  body: transferBody,
  response: { 200: envelope(ledgerRecordSchema) },
};

export const swapSchema = {
  summary: 'Convert between assets at a configured rate, rounded down (signed: from, to, amount, idempotencyKey)',
  body: swapBody,
  response: { 200: envelope(ledgerRecordSchema) },
};

export const pointsTransferSchema = {
  summary: 'Send points to a down-line user, confirmed by the login password (signed: to, amount, idempotencyKey)',
  body: pointsTransferBody,
  response: { 200: envelope(ledgerRecordSchema) },
};

export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

export const recordsSchema = {
  summary: "The caller's entries of one asset, newest first",
  querystring: Query({
    asset: StringEnum(ASSETS, { default: 'USDT' }),
    kind: Type.Optional(StringEnum(LEDGER_KINDS)),
    from: Type.Optional(Type.String({ pattern: DATE_PATTERN })),
    to: Type.Optional(Type.String({ pattern: DATE_PATTERN })),
    timeZone: TimeZone(),
    ...paging,
  }),
  response: { 200: page(ledgerRecordSchema) },
};

/* The withdrawal address book (addressBook.ts). */

export const withdrawalAddressSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    address: { type: 'string' },
    label: { type: 'string' },
    network: { type: 'string' },
    createdAt: { type: 'string' },
    usableAt: { type: 'string' },
  },
} as const;

const addressBookData = { type: 'object', properties: { whitelist: { type: 'boolean' }, list: { type: 'array', items: withdrawalAddressSchema } } } as const;

export const addressBookSchema = {
  summary: "The caller's withdrawal addresses (newest first) and whether the whitelist is on",
  response: { 200: envelope(addressBookData) },
};

export const addAddressBody = Body({
  address: SafeText({ minLength: 1, maxLength: 100 }),
  label: SafeText({ maxLength: 40 }),
  password: passwordSchema,
});
export const addAddressSchema = {
  summary: 'Add a withdrawal address with a label: usable 24 hours later; the user is told in the app and by e-mail (confirmed by the login password)',
  body: addAddressBody,
  response: { 200: envelope(withdrawalAddressSchema) },
};

export const removeAddressBody = Body({ id: uuidSchema, password: passwordSchema });
export const removeAddressSchema = {
  summary: 'Remove a withdrawal address (a security change, confirmed by the login password)',
  body: removeAddressBody,
  response: { 200: envelope({ type: 'null' }) },
};

export const whitelistBody = Body({ enabled: Type.Boolean(), password: Type.Optional(passwordSchema) });
export const whitelistSchema = {
  summary: 'Turn the withdrawal whitelist on or off (off is a security change, confirmed by the login password)',
  body: whitelistBody,
  response: { 200: envelope(addressBookData) },
};

sameShape<Same<Static<typeof addAddressBody>, AddWithdrawalAddressPayload>>();
sameShape<Same<Static<typeof removeAddressBody>, RemoveWithdrawalAddressPayload>>();
sameShape<Same<Static<typeof whitelistBody>, WithdrawalWhitelistPayload>>();
