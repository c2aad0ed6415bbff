/**
 * The custodial wallet as the /api/wallet/* calls answer it. Every balance
 * change is a double-entry ledger transaction (design section 5); amounts are
 * decimal strings. Calls that move money carry an `idempotencyKey` (a random id
 * the browser makes once per intended action): the same key with the same
 * request answers the first result again, with another request it is refused
 * (10007).
 */
import type { DecimalString } from './types';

export const ASSETS = ['USDT', 'CARD', 'POINTS', 'FUEL'] as const;
export type Asset = (typeof ASSETS)[number];

export interface AssetBalance {
  asset: Asset;
  /** Free to spend. */
  available: DecimalString;
  /** Held by pending withdrawals. */
  held: DecimalString;
}

/** GET /api/wallet/balances */
export interface WalletBalances {
  balances: AssetBalance[];
}

/** GET /api/wallet/config: the configured fees, minimums and rates. */
export interface WalletConfig {
  depositNetwork: string;
  withdrawFee: DecimalString;
  withdrawMin: DecimalString;
  transferMin: DecimalString;
  /** Conversions offered on /profile/wallet/exchange: `rate` units of `to` for one unit of `from`. */
  swapRates: SwapRate[];
}

export interface SwapRate {
  from: Asset;
  to: Asset;
  rate: DecimalString;
}

/** GET /api/wallet/deposit-address: the user's own deposit address. */
export interface DepositAddress {
  asset: 'USDT';
  network: string;
  address: string;
}

export type DepositStatus = 'pending' | 'confirmed' | 'rejected';

export interface Deposit {
  id: string;
  asset: 'USDT';
  amount: DecimalString;
  address: string;
  txHash: string | null;
  status: DepositStatus;
  reason: string | null;
  createdAt: string;
  decidedAt: string | null;
}

/** POST /api/wallet/recharge -> Deposit (pending until an operator confirms it). */
export interface RechargePayload {
  amount: DecimalString;
  txHash?: string;
  idempotencyKey: string;
}

export type WithdrawalStatus = 'pending' | 'approved' | 'rejected';

export interface Withdrawal {
  id: string;
  asset: 'USDT';
  amount: DecimalString;
  fee: DecimalString;
  address: string;
  status: WithdrawalStatus;
  reason: string | null;
  createdAt: string;
  decidedAt: string | null;
  /**
   * Paid to another user of ours: the address is their deposit address, so the
   * amount was booked to them at once (approved, no chain transaction, no fee).
   */
  internal?: boolean;
}

/**
 * POST /api/wallet/withdraw -> Withdrawal; confirmed by the login password (11002 when wrong).
 * Refused: the caller's own deposit address (10008, `data.reason: 'own_address'`); a demo
 * account (11005, `data.reason: 'demo_account'`).
 */
export interface WithdrawPayload {
  amount: DecimalString;
  address: string;
  password: string;
  idempotencyKey: string;
}

/**
 * POST /api/wallet/transfer -> LedgerRecord: USDT to another user, found by email or id (11000, 11003);
 * confirmed by the login password (11002); refused to a demo account (11005, `data.reason: 'demo_account'`).
 */
export interface TransferPayload {
  to: string;
  amount: DecimalString;
  password: string;
  idempotencyKey: string;
}

/** POST /api/wallet/exchange -> LedgerRecord (of the `from` asset): conversion at a configured rate. */
export interface SwapPayload {
  from: Asset;
  to: Asset;
  /** Amount of `from` to spend. */
  amount: DecimalString;
  idempotencyKey: string;
}

/**
 * POST /api/wallet/points-transfer -> LedgerRecord: points to a down-line user only (16000), never oneself
 * (16001); confirmed by the login password (11002); refused to a demo account (11005, `data.reason: 'demo_account'`).
 */
export interface PointsTransferPayload {
  to: string;
  amount: DecimalString;
  password: string;
  idempotencyKey: string;
}

/**
 * Why a wallet call was refused (`data.reason`), where the code alone does not say it.
 * `not_whitelisted` (10008): the whitelist is on and the address is not in it;
 * `address_waiting` (10008, with `data.usableAt`): a new address, usable 24 hours after it was added.
 */
export type WalletRefusalReason = 'demo_account' | 'own_address' | 'not_whitelisted' | 'address_waiting';

/** How long a new withdrawal address waits before its first use. */
export const NEW_ADDRESS_WAIT_HOURS = 24;

/** An address of the user's withdrawal address book (GET /api/wallet/addresses). */
export interface WithdrawalAddress {
  id: string;
  address: string;
  label: string;
  network: string;
  createdAt: string;
  /** The first moment a withdrawal may go to it (createdAt + 24 h). */
  usableAt: string;
}

export interface WithdrawalAddressBook {
  /** On: withdrawals go only to the addresses of the book. */
  whitelist: boolean;
  list: WithdrawalAddress[];
}

/** POST /api/wallet/addresses/add -> WithdrawalAddress (10007 when already in the book; 11005 demo_account). */
export interface AddWithdrawalAddressPayload {
  address: string;
  label: string;
  password: string;
}

/** POST /api/wallet/addresses/remove -> null: a security change, confirmed by the login password. */
export interface RemoveWithdrawalAddressPayload {
  id: string;
  password: string;
}

/** POST /api/wallet/addresses/whitelist -> WithdrawalAddressBook: turning it off is a security change, confirmed by the login password. */
export interface WithdrawalWhitelistPayload {
  enabled: boolean;
  password?: string;
}

export type LedgerKind =
  | 'recharge'
  | 'withdraw_hold'
  | 'withdraw_approve'
  | 'withdraw_reject'
  | 'transfer_out'
  | 'transfer_in'
  | 'swap_out'
  | 'swap_in'
  | 'points_out'
  | 'points_in'
  | 'fuel_charge'
  | 'activation'
  | 'invite_reward'
  | 'adjustment';

/**
 * One line of a records page (/profile/wallet/usdt-records, card-records,
 * points-records): one ledger entry on the user's available balance of an asset.
 * GET /api/wallet/records?asset&kind&from&to&page&pageSize -> Page<LedgerRecord>
 * (`from`/`to` are YYYY-MM-DD in `timeZone`).
 */
export interface LedgerRecord {
  id: string;
  transactionId: string;
  asset: Asset;
  kind: LedgerKind;
  /** Signed: negative when the balance went down. */
  amount: DecimalString;
  balanceAfter: DecimalString;
  /** The other user of a transfer (masked email or nickname), the deposit or withdrawal id, the swap pair... */
  detail: Record<string, string>;
  createdAt: string;
}
