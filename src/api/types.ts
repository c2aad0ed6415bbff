/** Entities and payloads of spec section 3, shared by browser and server. */

/** A decimal number written as a string ("10", "0.0015"): money and prices never travel as floats. */
export type DecimalString = string;

export type LocaleCode = 'zh-CN' | 'en-US' | 'zh-TW';
export type TextDirection = 'ltr' | 'rtl';

/**
 * Locale metadata. `uiLang` is the UI toolkit's language pack (MUI's locale
 * object), the place the spec calls `quasarLang`.
 */
export interface Locale<UiLang = unknown> {
  code: LocaleCode;
  label: string;
  nativeLabel: string;
  flag: string;
  direction: TextDirection;
  uiLang: UiLang;
}

export interface ApiEnvelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

export interface Session {
  accessToken: string;
  refreshToken: string;
  rememberMe: boolean;
}

/** The user as the dashboard sees it (identity call, login answer). */
export interface User {
  id: string;
  email: string;
  nickname: string;
  avatar: string | null;
  inviteCode: string;
  level: number;
  activated: boolean;
  role: 'user' | 'operator';
}

export interface LoginPayload {
  email: string;
  password: string;
}

export interface LoginResponse {
  accessToken: string;
  refreshToken: string;
  user: User;
}

export interface RefreshResponse {
  accessToken: string;
  refreshToken: string;
}

export interface RegisterFields {
  email: string;
  nickname: string;
  password: string;
  secondPassword: string;
  captcha: string;
  inviteCode?: string;
  rememberMe: boolean;
}

/** What a mailed code is for: opening an account, resetting the password, or (signed in) moving the account to a new address. */
export type VerifyCodeType = 'register' | 'reset' | 'change_email';

export interface VerifyCodePayload {
  email: string;
  type: VerifyCodeType;
}

export interface ResetPasswordPayload {
  email: string;
  newPassword: string;
  captcha: string;
}

/** Replenish status of a task: adding to the position, or only taking profit. */
export type ReplenishStatus = 'replenish_open' | 'replenish_closed';

export type PairRef = string | { id: string; [key: string]: unknown };

/** The trade wizard draft, kept in session storage under `wizard-trade`. */
export interface TradeWizardDraft {
  selectedApi: string | null;
  selectedApiName: string;
  selectedPairs: PairRef[];
  firstOrderAmount: DecimalString;
  /** How the user sizes the task: by its first order, or by a total to invest from which the first order is derived. */
  sizing: 'firstOrder' | 'invest';
  /** The total to invest (sizing 'invest'), as typed. */
  investAmount: string;
  firstOrderLeverage: boolean;
  cycleTimes: number;
  selectedTemplate: string | null;
  templateName: string;
  running: boolean;
  status: ReplenishStatus;
}

export interface CreateTradePayload {
  exchangeId: string;
  coinIdList: string[];
  cycleCount: number;
  firstOrderAmount: DecimalString;
  /**
   * "Invest X" (optional): the total a full cycle of every pair may spend,
   * fees included. When given, the server derives the first order from it
   * (firstOrderForInvestment) instead of taking firstOrderAmount, and checks
   * the total against the free balance.
   */
  investAmount?: DecimalString;
  firstOrderMultiple: boolean;
  running: boolean;
  replenishStatus: ReplenishStatus;
  strategyId: string;
}

export interface UpdateTradePayload {
  id: string;
  cycleCount: number;
  firstOrderAmount: DecimalString;
  firstOrderMultiple: boolean;
  running: boolean;
  status: ReplenishStatus;
  strategyId: string;
}

export type TradeActionType = 'start' | 'stop' | 'replenish';

export interface TradeActionPayload {
  id: string;
  action: TradeActionType;
}

export interface CoinPricePayload {
  exchangeId?: string;
  coins: string[];
}

/** Paged list answer: `data` of every list call. */
export interface Page<T> {
  list: T[];
  total: number;
}

export interface PageQuery {
  page?: number;
  pageSize?: number;
  sort?: string;
  order?: 'ASC' | 'DESC';
  [filter: string]: string | number | boolean | undefined;
}
