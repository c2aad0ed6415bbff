/**
 * The operator console's calls, /api/admin/* (operator role only: 11005 for
 * anyone else). Lists answer Page<T> and follow the dataProvider's
 * list/detail/add/edit verbs under /api/admin/<resource>/. Every operator
 * action is written to the audit log.
 */
import type { LocaleCode } from './types';
import type { Deposit, Withdrawal, SwapRate } from './wallet';
import type { MemberLevel } from './member';
import type { DecimalString } from './types';

/** /api/admin/users/list?q&level&activated&disabled, /detail/{id}, /edit {id, level?, activated?, disabled?} */
export interface AdminUser {
  id: string;
  email: string;
  nickname: string;
  role: 'user' | 'operator';
  level: number;
  activated: boolean;
  disabled: boolean;
  inviterEmail: string | null;
  usdt: DecimalString;
  createdAt: string;
}

/** /api/admin/deposits/list?status, POST /api/admin/deposits/confirm {id}, /reject {id, reason} */
export interface AdminDeposit extends Deposit {
  userId: string;
  userEmail: string;
}

/** /api/admin/withdrawals/list?status, POST /api/admin/withdrawals/approve {id, txHash?}, /reject {id, reason} */
export interface AdminWithdrawal extends Withdrawal {
  userId: string;
  userEmail: string;
  /** The payout's chain transaction id, when the approving operator gave one. */
  txHash?: string | null;
}

export interface ArticleTranslation {
  locale: LocaleCode;
  title: string;
  summary: string;
  /** HTML; sanitized when saved. */
  body: string;
}

/** /api/admin/articles/list|detail/{id}|add|edit|delete; POST /api/admin/articles/publish {id, published} */
export interface AdminArticle {
  id: string;
  published: boolean;
  publishedAt: string | null;
  translations: ArticleTranslation[];
  createdAt: string;
  updatedAt: string;
}

/** GET /api/admin/settings, POST /api/admin/settings/edit (partial): the configured rules. */
export interface ServiceSettings {
  levels: MemberLevel[];
  swapRates: SwapRate[];
  withdrawFee: DecimalString;
  withdrawMin: DecimalString;
  transferMin: DecimalString;
  activationCardPrice: DecimalString;
  activationUsdtPrice: DecimalString;
  fuelRatePercent: DecimalString;
  inviteRewardPoints: DecimalString;
  /** Fuel credited on activation, so a newly activated account can open its first cycles. */
  activationFuelGift: DecimalString;
  depositNetwork: string;
}

/** /api/admin/audit/list?operatorId&action&page -> Page<AuditEntry> */
export interface AuditEntry {
  id: string;
  operatorId: string;
  operatorEmail: string;
  action: string;
  targetType: string;
  targetId: string | null;
  data: Record<string, unknown>;
  createdAt: string;
}
