import { Endpoint } from '../api/endpoints';
import {
  NotifyChannelEndpoint,
  type NotifyChannelsState,
  type PushSubscriptionPayload,
  type TelegramLinkAnswer,
  type WebhookSaveAnswer,
  type WebhookSavePayload,
  type WebhookTestAnswer,
} from '../api/notifyChannels';
import type { DemoAccount } from '../api/demo';
import type { BacktestJob, BacktestRequest, CandleUpload, PresetFiguresAnswer, PresetSource } from '../api/backtest';
import type { StrategyTemplate } from '../api/strategy';
import type { CandleTimeframe, CloseResult, EngineStatus, OhlcvAnswer, ProfitSummary, TradeOrder, TradePair, TradeTask, TradeTaskDetail } from '../api/trade';
import type { ExchangeBalance, ExchangeCatalogEntry } from '../api/exchange';
import type { Article, ArticleSummary } from '../api/article';
import type { AdminUser, NotificationDeliveryCount, ServiceSettings } from '../api/admin';
import type { MarkReadRequest, Notification, NotificationPreferences, NotificationPreferencesChange, UnreadCount } from '../api/notify';
import type {
  ActivatePayload,
  ChangeEmailPayload,
  ChangePasswordPayload,
  CommunityPage,
  DailyProfit,
  DailyProfitDetail,
  FuelStatus,
  InviteInfo,
  MemberStatus,
  ProfileEditPayload,
  ProfitOverview,
  ProfitRank,
  UserSession,
} from '../api/member';
import type {
  Deposit,
  DepositAddress,
  LedgerRecord,
  PointsTransferPayload,
  RechargePayload,
  SwapPayload,
  TransferPayload,
  WalletBalances,
  WalletConfig,
  WithdrawPayload,
  AddWithdrawalAddressPayload,
  RemoveWithdrawalAddressPayload,
  WithdrawalAddress,
  WithdrawalAddressBook,
  WithdrawalWhitelistPayload,
  Withdrawal,
} from '../api/wallet';
import type {
  CoinPricePayload,
  CreateTradePayload,
  LoginPayload,
  LoginResponse,
  Page,
  PageQuery,
  RefreshResponse,
  RegisterFields,
  ResetPasswordPayload,
  TradeActionPayload,
  UpdateTradePayload,
  User,
  VerifyCodePayload,
} from '../api/types';
import type { ReturnsOverview, TaskCycle, TaskReturns } from '../api/returns';
import type { TaskWebhook, TaskWebhookPayload } from '../api/webhook';
import type { WidgetGrant, WidgetGrantIssued, WidgetTokenRequest } from '../api/widget';
import type { HttpClient } from './httpClient';
import {
  SECOND_FACTOR_HEADER,
  type PasskeyLoginPayload,
  type PasskeyOptions,
  type PasskeyOptionsPayload,
  type PasskeyRegisterPayload,
  type RecoveryCodes,
  type SecondFactorLoginPayload,
  type SecurityStatus,
  type TotpEnablePayload,
  type TotpSetup,
} from '../api/security';

/** The step-up header, when the user gave a second factor (README "Second factors"). */
const stepUp = (secondFactor: string | undefined) => (secondFactor ? { [SECOND_FACTOR_HEADER]: secondFactor } : undefined);

type Query = PageQuery & Record<string, string | number | boolean | undefined>;

/** Uploads of candle files (up to a year of minutes) may take longer than a call's ten seconds. */
const UPLOAD_TIMEOUT_MS = 60_000;

/**
 * The read calls the embeddable widgets make (src/widgets/client.ts), on their
 * own so the widgets' bundle carries these and not every call of the API.
 */
export const createReadCalls = (http: HttpClient) => ({
  tradeList: (query: Query = {}, signal?: AbortSignal) => http.request<Page<TradeTask>>('GET', Endpoint.tradeList, { query, signal }),
  tradeProfitSummary: (timeZone: string, signal?: AbortSignal) =>
    http.request<ProfitSummary>('GET', Endpoint.tradeProfitSummary, { query: { timeZone }, signal }),
  profitSummary: (query: { timeZone: string; days?: number }, signal?: AbortSignal) =>
    http.request<ProfitOverview>('GET', Endpoint.profitSummary, { query, signal }),
  walletBalances: (signal?: AbortSignal) => http.request<WalletBalances>('GET', Endpoint.walletBalances, { signal }),
});

/**
 * A typed method for every call of spec section 7. Answers the spec leaves
 * "not shown" are typed `unknown` here until their domain defines them.
 */
export const createApi = (http: HttpClient) => ({
  ...createReadCalls(http),
  login: (payload: LoginPayload) => http.request<LoginResponse>('POST', Endpoint.login, { body: payload, auth: false }),
  register: (payload: RegisterFields) =>
    http.request<LoginResponse>('POST', Endpoint.register, { body: payload, auth: false }),
  /** A code by mail; an e-mail change's (`change_email`, to the new address) is asked for while signed in. */
  sendVerifyCode: (payload: VerifyCodePayload) =>
    http.request<unknown>('POST', Endpoint.verifyCode, { body: payload, auth: payload.type === 'change_email' }),
  resetPassword: (payload: ResetPasswordPayload) =>
    http.request<unknown>('POST', Endpoint.resetPassword, { body: payload, auth: false }),
  logout: () => http.request<unknown>('POST', Endpoint.logout),
  refresh: (refreshToken: string) =>
    http.request<RefreshResponse>('PUT', Endpoint.refresh, { body: { refreshToken }, auth: false }),
  me: (signal?: AbortSignal) => http.request<User>('GET', Endpoint.me, { signal }),
  /** The shared demo account's published login; null when this server has none. */
  demo: (signal?: AbortSignal) => http.request<DemoAccount | null>('GET', Endpoint.demo, { signal, auth: false }),
  /** The login's second step (after a login answered 11100 with its ticket); a trusted device gets an httpOnly cookie. */
  loginSecondFactor: (payload: SecondFactorLoginPayload) => http.request<LoginResponse>('POST', Endpoint.loginSecondFactor, { body: payload, auth: false }),
  securityStatus: (signal?: AbortSignal) => http.request<SecurityStatus>('GET', Endpoint.securityStatus, { signal }),
  totpSetup: () => http.request<TotpSetup>('POST', Endpoint.totpSetup),
  totpEnable: (payload: TotpEnablePayload) => http.request<RecoveryCodes>('POST', Endpoint.totpEnable, { body: payload }),
  totpDisable: (secondFactor?: string) => http.request<null>('POST', Endpoint.totpDisable, { headers: stepUp(secondFactor) }),
  /** Passkeys (README "Passkeys"): options to create one, keep it (step-up once a factor is on), remove it (step-up). */
  passkeyRegistrationOptions: () => http.request<PasskeyOptions>('POST', Endpoint.passkeyRegistrationOptions),
  passkeyRegister: (payload: PasskeyRegisterPayload, secondFactor?: string) =>
    http.request<{ recoveryCodes: string[] | null }>('POST', Endpoint.passkeyRegister, { body: payload, headers: stepUp(secondFactor) }),
  passkeyRemove: (id: string, secondFactor?: string) => http.request<null>('POST', Endpoint.passkeyRemove, { body: { id }, headers: stepUp(secondFactor) }),
  /** Passkey options at login: with a ticket for the second step, without for the passkey login. */
  loginPasskeyOptions: (payload: PasskeyOptionsPayload) => http.request<PasskeyOptions>('POST', Endpoint.loginPasskeyOptions, { body: payload, auth: false }),
  loginPasskey: (payload: PasskeyLoginPayload) => http.request<LoginResponse>('POST', Endpoint.loginPasskey, { body: payload, auth: false }),

  tradeAdd: (payload: CreateTradePayload) => http.request<{ id: string }[]>('POST', Endpoint.tradeAdd, { body: payload }),
  tradeAction: (payload: TradeActionPayload) =>
    http.request<null>('POST', Endpoint.tradeAction, { body: payload }),
  tradeDetail: (id: string, signal?: AbortSignal) =>
    http.request<TradeTaskDetail>('GET', Endpoint.tradeDetail(id), { signal }),
  tradePairs: (query: Query = {}, signal?: AbortSignal) =>
    http.request<Page<TradePair>>('GET', Endpoint.tradePairs, { query, signal }),
  tradeHotPairs: (query: Query = {}, signal?: AbortSignal) =>
    http.request<TradePair[]>('GET', Endpoint.tradeHotPairs, { query, signal }),
  tradeConfigTemplates: (signal?: AbortSignal) =>
    http.request<StrategyTemplate[]>('GET', Endpoint.tradeConfigTemplates, { signal }),
  tradeOrderHistory: (query: Query = {}, signal?: AbortSignal) =>
    http.request<Page<TradeOrder>>('GET', Endpoint.tradeOrderHistory, { query, signal }),
  tradeCoinPrice: (payload: CoinPricePayload) =>
    http.request<Record<string, string>>('POST', Endpoint.tradeCoinPrice, { body: payload }),
  /** A task's pair in candles, oldest first (limit 1-500). */
  tradeOhlcv: (query: { taskId: string; timeframe: CandleTimeframe; limit: number }, signal?: AbortSignal) =>
    http.request<OhlcvAnswer>('GET', Endpoint.tradeOhlcv, { query, signal }),
  tradeUpdate: (payload: UpdateTradePayload) =>
    http.request<{ id: string }>('POST', Endpoint.tradeUpdate, { body: payload }),
  tradeCloseOrder: (id: string) => http.request<CloseResult>('POST', Endpoint.tradeCloseOrder(id)),
  /** A task's TradingView webhook (null when it has none); create or rotate it (a new secret each time); turn it off. */
  taskWebhook: (id: string, signal?: AbortSignal) => http.request<TaskWebhook | null>('GET', Endpoint.taskWebhookOf(id), { signal }),
  taskWebhookSave: (payload: TaskWebhookPayload) => http.request<TaskWebhook>('POST', Endpoint.taskWebhook, { body: payload }),
  taskWebhookOff: (id: string) => http.request<null>('POST', Endpoint.taskWebhookOff, { body: { id } }),
  /** The trading engine's health (operators). */
  engineStatus: (signal?: AbortSignal) => http.request<EngineStatus>('GET', Endpoint.engineStatus, { signal }),
  /** Realized profit in total and today; days follow the given time zone (the browser's). */
  /** A task's invested funds, profit, ROI, APR, run time and cumulative-profit curve (src/api/returns.ts). */
  tradeReturns: (taskId: string, signal?: AbortSignal) => http.request<TaskReturns>('GET', Endpoint.tradeReturns, { query: { taskId }, signal }),
  /** A task's closed cycles, newest first. */
  tradeCycles: (query: { taskId: string; page: number; pageSize: number }, signal?: AbortSignal) =>
    http.request<Page<TaskCycle>>('GET', Endpoint.tradeCycles, { query, signal }),
  /** Total assets and the return of every task together. */
  tradeOverview: (signal?: AbortSignal) => http.request<ReturnsOverview>('GET', Endpoint.tradeOverview, { signal }),

  /** Starts a backtest; a short one answers finished, a long one answers its progress (poll backtestRun). */
  backtestStart: (payload: BacktestRequest) => http.request<BacktestJob>('POST', Endpoint.backtest, { body: payload }),
  backtestRun: (id: string, signal?: AbortSignal) => http.request<BacktestJob>('GET', Endpoint.backtestRun(id), { signal }),
  backtestCancel: (id: string) => http.request<BacktestJob>('POST', Endpoint.backtestCancel, { body: { id } }),
  /** A candle file can be tens of megabytes: it gets a minute instead of the usual ten seconds. */
  backtestUpload: (payload: { name: string; csv: string }) =>
    http.request<CandleUpload>('POST', Endpoint.backtestCandles, { body: payload, timeoutMs: UPLOAD_TIMEOUT_MS }),
  /** The system templates' backtested figures on a pair and period; the first asker of the day may wait for the run (a minute at most). */
  backtestPresets: (query: { symbol: string; source: PresetSource; exchange?: string; days: number }, signal?: AbortSignal) =>
    http.request<PresetFiguresAnswer>('GET', Endpoint.backtestPresets, { query, signal, timeoutMs: UPLOAD_TIMEOUT_MS }),
  backtestUploads: (signal?: AbortSignal) => http.request<Page<CandleUpload>>('GET', Endpoint.backtestCandles, { signal }),

  /** The exchanges a user can bind and the credentials each asks for (paper first). */
  exchangeCatalog: (signal?: AbortSignal) =>
    http.request<Page<ExchangeCatalogEntry>>('GET', Endpoint.exchangeCatalog, { signal }),
  /** An account's free USDT now (null: its exchange cannot be asked now). */
  exchangeBalance: (id: string, signal?: AbortSignal) => http.request<ExchangeBalance>('GET', Endpoint.exchangeBalance(id), { signal }),

  profileEdit: (payload: ProfileEditPayload) => http.request<User>('POST', Endpoint.profileEdit, { body: payload }),
  changePassword: (payload: ChangePasswordPayload, secondFactor?: string) =>
    http.request<null>('POST', Endpoint.changePassword, { body: payload, headers: stepUp(secondFactor) }),
  /** Moves the account to a new address (README "E-mail change"); answers the user with it. */
  changeEmail: (payload: ChangeEmailPayload, secondFactor?: string) =>
    http.request<User>('POST', Endpoint.changeEmail, { body: payload, headers: stepUp(secondFactor) }),
  userSessions: (signal?: AbortSignal) => http.request<UserSession[]>('GET', Endpoint.userSessions, { signal }),
  revokeSession: (id: string) => http.request<null>('POST', Endpoint.revokeSession, { body: { id } }),
  /** Widget grants (README "Widget tokens"): a new one answers its first token and its partner key, once. */
  widgetTokenIssue: (payload: WidgetTokenRequest, secondFactor?: string) =>
    http.request<WidgetGrantIssued>('POST', Endpoint.widgetToken, { body: payload, headers: stepUp(secondFactor) }),
  widgetGrants: (signal?: AbortSignal) => http.request<WidgetGrant[]>('GET', Endpoint.widgetTokens, { signal }),
  widgetTokenRevoke: (id: string) => http.request<null>('POST', Endpoint.widgetTokenRevoke, { body: { id } }),

  walletConfig: (signal?: AbortSignal) => http.request<WalletConfig>('GET', Endpoint.walletConfig, { signal }),
  walletDepositAddress: (signal?: AbortSignal) =>
    http.request<DepositAddress>('GET', Endpoint.walletDepositAddress, { signal }),
  walletRecharge: (payload: RechargePayload) => http.request<Deposit>('POST', Endpoint.walletRecharge, { body: payload }),
  walletDeposits: (query: Query = {}, signal?: AbortSignal) =>
    http.request<Page<Deposit>>('GET', Endpoint.walletDeposits, { query, signal }),
  walletAddresses: (signal?: AbortSignal) => http.request<WithdrawalAddressBook>('GET', Endpoint.walletAddresses, { signal }),
  walletAddressAdd: (payload: AddWithdrawalAddressPayload, secondFactor?: string) =>
    http.request<WithdrawalAddress>('POST', Endpoint.walletAddressAdd, { body: payload, headers: stepUp(secondFactor) }),
  walletAddressRemove: (payload: RemoveWithdrawalAddressPayload, secondFactor?: string) =>
    http.request<null>('POST', Endpoint.walletAddressRemove, { body: payload, headers: stepUp(secondFactor) }),
  walletWhitelist: (payload: WithdrawalWhitelistPayload, secondFactor?: string) =>
    http.request<WithdrawalAddressBook>('POST', Endpoint.walletWhitelist, { body: payload, headers: stepUp(secondFactor) }),
  antiPhishing: (signal?: AbortSignal) => http.request<{ phrase: string | null }>('GET', Endpoint.userAntiPhishing, { signal }),
  antiPhishingSet: (phrase: string) => http.request<{ phrase: string | null }>('POST', Endpoint.userAntiPhishing, { body: { phrase } }),
  walletWithdraw: (payload: WithdrawPayload, secondFactor?: string) =>
    http.request<Withdrawal>('POST', Endpoint.walletWithdraw, { body: payload, headers: stepUp(secondFactor) }),
  walletWithdrawals: (query: Query = {}, signal?: AbortSignal) =>
    http.request<Page<Withdrawal>>('GET', Endpoint.walletWithdrawals, { query, signal }),
  walletTransfer: (payload: TransferPayload, secondFactor?: string) =>
    http.request<LedgerRecord>('POST', Endpoint.walletTransfer, { body: payload, headers: stepUp(secondFactor) }),
  walletSwap: (payload: SwapPayload) => http.request<LedgerRecord>('POST', Endpoint.walletSwap, { body: payload }),
  walletPointsTransfer: (payload: PointsTransferPayload, secondFactor?: string) =>
    http.request<LedgerRecord>('POST', Endpoint.walletPointsTransfer, { body: payload, headers: stepUp(secondFactor) }),
  walletRecords: (query: Query = {}, signal?: AbortSignal) =>
    http.request<Page<LedgerRecord>>('GET', Endpoint.walletRecords, { query, signal }),

  memberStatus: (signal?: AbortSignal) => http.request<MemberStatus>('GET', Endpoint.memberStatus, { signal }),
  memberActivate: (payload: ActivatePayload) =>
    http.request<MemberStatus>('POST', Endpoint.memberActivate, { body: payload }),
  memberFuel: (signal?: AbortSignal) => http.request<FuelStatus>('GET', Endpoint.memberFuel, { signal }),
  inviteInfo: (signal?: AbortSignal) => http.request<InviteInfo>('GET', Endpoint.inviteInfo, { signal }),
  inviteCommunity: (query: Query = {}, signal?: AbortSignal) =>
    http.request<CommunityPage>('GET', Endpoint.inviteCommunity, { query, signal }),

  /** The profit overview; `days` of daily figures (the server's default when absent). */
  profitDaily: (query: Query & { timeZone: string }, signal?: AbortSignal) =>
    http.request<Page<DailyProfit>>('GET', Endpoint.profitDaily, { query, signal }),
  profitDailyDetail: (date: string, timeZone: string, signal?: AbortSignal) =>
    http.request<DailyProfitDetail>('GET', Endpoint.profitDailyDetail, { query: { date, timeZone }, signal }),
  profitRank: (period: 'day' | 'all', timeZone: string, signal?: AbortSignal) =>
    http.request<ProfitRank>('GET', Endpoint.profitRank, { query: { period, timeZone }, signal }),

  notifications: (query: Query = {}, signal?: AbortSignal) => http.request<Page<Notification>>('GET', Endpoint.notifications, { query, signal }),
  notificationsUnreadCount: (signal?: AbortSignal) => http.request<UnreadCount>('GET', Endpoint.notificationsUnreadCount, { signal }),
  /** The live stream of the unread count (Server-Sent Events); the body as it arrives, closed by aborting `signal`. */
  notificationsStream: (signal: AbortSignal) => http.stream(Endpoint.notificationsStream, signal),
  notificationsRead: (body: MarkReadRequest) => http.request<UnreadCount>('POST', Endpoint.notificationsRead, { body }),
  notificationPreferences: (signal?: AbortSignal) => http.request<NotificationPreferences>('GET', Endpoint.notificationPreferences, { signal }),
  notificationPreferencesSave: (change: NotificationPreferencesChange) =>
    http.request<NotificationPreferences>('PUT', Endpoint.notificationPreferences, { body: change }),

  articleList: (query: Query = {}, signal?: AbortSignal) =>
    http.request<Page<ArticleSummary>>('GET', Endpoint.articleList, { query, signal }),
  articleDetail: (id: string, signal?: AbortSignal) =>
    http.request<Article>('GET', Endpoint.articleDetail(id), { signal }),

  /** Operator console settings (role operator; 11005 for anyone else). Its resources go through the dataProvider's CRUD verbs. */
  /** The operator's reset of a user's lost second factors (audited; holds the user's withdrawals 24 hours). */
  adminResetSecondFactor: (id: string) => http.request<AdminUser>('POST', Endpoint.adminResetSecondFactor(id)),
  adminSettings: (signal?: AbortSignal) => http.request<ServiceSettings>('GET', Endpoint.adminSettings, { signal }),
  adminSettingsEdit: (payload: Partial<ServiceSettings>) =>
    http.request<ServiceSettings>('POST', Endpoint.adminSettingsEdit, { body: payload }),
  adminNotificationCounts: (signal?: AbortSignal) => http.request<NotificationDeliveryCount[]>('GET', Endpoint.adminNotificationCounts, { signal }),

  /** The external notification channels (Telegram, web push, webhook). */
  notifyChannels: (signal?: AbortSignal) => http.request<NotifyChannelsState>('GET', NotifyChannelEndpoint.state, { signal }),
  telegramLink: () => http.request<TelegramLinkAnswer>('POST', NotifyChannelEndpoint.telegramLink, { body: {} }),
  telegramUnlink: () => http.request<null>('POST', NotifyChannelEndpoint.telegramUnlink, { body: {} }),
  pushSubscribe: (payload: PushSubscriptionPayload) => http.request<null>('POST', NotifyChannelEndpoint.pushSubscribe, { body: payload }),
  pushUnsubscribe: (endpoint: string) => http.request<null>('POST', NotifyChannelEndpoint.pushUnsubscribe, { body: { endpoint } }),
  webhookSave: (payload: WebhookSavePayload) => http.request<WebhookSaveAnswer>('POST', NotifyChannelEndpoint.webhookSave, { body: payload }),
  webhookDelete: () => http.request<null>('POST', NotifyChannelEndpoint.webhookDelete, { body: {} }),
  webhookTest: () => http.request<WebhookTestAnswer>('POST', NotifyChannelEndpoint.webhookTest, { body: {} }),
});

export type Api = ReturnType<typeof createApi>;
