import type { ColumnType, Generated } from 'kysely';
import type { StrategyExits } from '../../../src/api/strategy';
import type { StrategyConditions } from '../../../src/api/conditions';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  nickname: string;
  password_hash: string;
  invite_code: string;
  inviter_id: string | null;
  level: Generated<number>;
  activated: Generated<boolean>;
  role: Generated<'user' | 'operator'>;
  avatar: string | null;
  disabled: Generated<boolean>;
  locale: Generated<string>;
  created_at: CreatedAt;
  password_changed_at: ColumnType<Date, Date | string | undefined, Date | string>;
  activated_at: NullableTimestamp;
  /** Money leaves the wallet again only after this (a factor reset or a recovery-code login). */
  withdrawals_held_until: NullableTimestamp;
  withdrawal_whitelist: Generated<boolean>;
  anti_phishing_phrase: string | null;
}

export interface VerificationCodesTable {
  id: Generated<string>;
  email: string;
  purpose: 'register' | 'reset' | 'change_email';
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  consumed_at: NullableTimestamp;
  created_at: CreatedAt;
}

/** One row per refresh token; a family is one login session. */
export interface RefreshTokensTable {
  id: Generated<string>;
  family_id: string;
  user_id: string;
  token_hash: string;
  parent_id: string | null;
  expires_at: Timestamp;
  rotated_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  user_agent: string | null;
  ip: string | null;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface RequestNoncesTable {
  uuid: string;
  expires_at: Timestamp;
}

export interface ThrottleCountersTable {
  key: string;
  window_seconds: number;
  window_start: ColumnType<Date, Date | string | undefined, Date | string>;
  count: number;
  pending: ColumnType<number, number | undefined, number>;
}

export interface StrategiesTable {
  id: Generated<string>;
  /** null: a system template. */
  user_id: string | null;
  name: string;
  levels: ColumnType<{ dropPercent: string; multiple: string }[], string, string>;
  take_profit_percent: string;
  take_profit_callback_percent: string;
  replenish_callback_percent: string;
  stop_loss_percent: string | null;
  cooldown_seconds: number;
  /** The exits beyond the single take profit and stop loss (StrategyExits); null: none. */
  exits: ColumnType<StrategyExits | null, string | null | undefined, string | null>;
  /** The signal conditions (StrategyConditions, issue 29); null: none. */
  conditions: ColumnType<StrategyConditions | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Credentials only as ciphertexts (engine/venues/exchangeAccess.ts); paper accounts have balances and no keys. */
export interface ExchangeAccountsTable {
  id: Generated<string>;
  user_id: string;
  exchange: string;
  name: string;
  api_key_ciphertext: string | null;
  secret_ciphertext: string | null;
  password_ciphertext: string | null;
  uid_ciphertext: string | null;
  api_key_hint: string | null;
  /** Asset -> decimal string, e.g. {"USDT": "10000"}. */
  paper_balances: ColumnType<Record<string, string> | null, string | null, string | null>;
  /** Paper accounts: 'simulator' or the ccxt id of the exchange whose public prices they trade on. */
  price_source: ColumnType<string | null, string | null | undefined, string | null>;
  /** Paper accounts on a live source: since when its owner was told it trades on simulated prices; null: live (or never told). */
  paper_fallback_since: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface TradeTasksTable {
  id: Generated<string>;
  user_id: string;
  exchange_account_id: string;
  symbol: string;
  strategy_id: string;
  first_order_amount: string;
  first_order_multiple: boolean;
  cycle_count: number;
  running: boolean;
  replenish_status: 'replenish_open' | 'replenish_closed';
  status: Generated<'active' | 'finished'>;
  /** The engine's CycleState. */
  state: ColumnType<Record<string, unknown>, string, string>;
  last_error: string | null;
  /** Why the engine stopped trading the task and what the user can do (TaskAttention); null while all is well. */
  attention: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** What the task waits for while a condition of its strategy does not hold (TaskWaiting); null otherwise. */
  waiting: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface OrdersTable {
  id: Generated<string>;
  task_id: string;
  user_id: string;
  exchange_account_id: string;
  client_order_id: string;
  exchange_order_id: string | null;
  symbol: string;
  cycle: number;
  level: number;
  side: 'buy' | 'sell';
  reason: string;
  status: 'intent' | 'open' | 'closed' | 'canceled' | 'failed';
  /** Quote to spend (buy) or base to sell (sell), as asked. */
  requested: string;
  price: string | null;
  filled: Generated<string>;
  cost: Generated<string>;
  fee: Generated<string>;
  fee_currency: string | null;
  error: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface TaskEventsTable {
  id: Generated<string>;
  task_id: string;
  kind: string;
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: CreatedAt;
}

export interface CyclesTable {
  id: Generated<string>;
  task_id: string;
  user_id: string;
  cycle: number;
  buy_cost: string;
  sell_proceeds: string;
  realized_profit: string;
  fuel_charged: Generated<string>;
  /** When the cycle's first order filled. */
  opened_at: ColumnType<Date | null, Date | string | null | undefined, never>;
  levels_filled: Generated<number>;
  /** Base sold by the closing sell; what it could not sell is carried into the next cycle. */
  quantity_sold: string | null;
  remainder_quantity: Generated<string>;
  remainder_cost: Generated<string>;
  /** Quote value of every fee the cycle paid. */
  fees: Generated<string>;
  exit_reason: 'take_profit' | 'stop_loss' | 'close' | 'signal' | null;
  closed_at: CreatedAt;
}

export interface PaperBalancesTable {
  exchange_account_id: string;
  asset: string;
  free: string;
  used: string;
}

export interface SettingsTable {
  key: string;
  value: ColumnType<unknown, string, string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export type LedgerAsset = 'USDT' | 'CARD' | 'POINTS' | 'FUEL';

export interface LedgerAccountsTable {
  id: Generated<string>;
  key: string;
  user_id: string | null;
  asset: LedgerAsset;
  kind: 'available' | 'held' | 'system';
  balance: Generated<string>;
}

export interface LedgerTransactionsTable {
  id: Generated<string>;
  kind: string;
  user_id: string | null;
  memo: ColumnType<Record<string, string>, string | undefined, never>;
  reverses: string | null;
  created_at: CreatedAt;
}

export interface LedgerEntriesTable {
  id: Generated<string>;
  transaction_id: string;
  account_id: string;
  asset: LedgerAsset;
  amount: string;
  balance_after: string;
  created_at: CreatedAt;
}

export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  request_hash: string;
  response: ColumnType<unknown, string, string>;
  created_at: CreatedAt;
}

export interface DepositsTable {
  id: Generated<string>;
  user_id: string;
  asset: Generated<'USDT'>;
  amount: string;
  address: string;
  tx_hash: string | null;
  status: Generated<'pending' | 'confirmed' | 'rejected'>;
  reason: string | null;
  transaction_id: string | null;
  decided_by: string | null;
  decided_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface WithdrawalsTable {
  id: Generated<string>;
  user_id: string;
  asset: Generated<'USDT'>;
  amount: string;
  fee: string;
  address: string;
  status: Generated<'pending' | 'approved' | 'rejected'>;
  reason: string | null;
  tx_hash: string | null;
  hold_transaction_id: string;
  decided_by: string | null;
  decided_at: NullableTimestamp;
  created_at: CreatedAt;
  /** Paid to this user (the address is their deposit address): booked at once, no chain, no fee. */
  internal_user_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Deposit addresses handed out, and whose they are. */
export interface DepositAddressesTable {
  address: string;
  user_id: string;
  created_at: CreatedAt;
}

export interface WithdrawalAddressesTable {
  id: Generated<string>;
  user_id: string;
  address: string;
  label: Generated<string>;
  network: string;
  created_at: CreatedAt;
  usable_at: ColumnType<Date, Date | string, Date | string>;
}

export interface AuditLogTable {
  id: Generated<string>;
  operator_id: string;
  action: string;
  target_type: string;
  target_id: string | null;
  data: ColumnType<Record<string, unknown>, string | undefined, never>;
  created_at: CreatedAt;
}

export interface ArticlesTable {
  id: Generated<string>;
  published: Generated<boolean>;
  published_at: NullableTimestamp;
  author_id: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface ArticleTranslationsTable {
  article_id: string;
  locale: 'zh-CN' | 'en-US' | 'zh-TW';
  title: string;
  summary: string;
  /** Sanitized HTML. */
  body: string;
}

export interface BacktestRunsTable {
  id: Generated<string>;
  user_id: string;
  status: 'queued' | 'loading' | 'running' | 'done' | 'failed' | 'canceled';
  done: ColumnType<string, number | undefined, number>;
  total: ColumnType<string, number | undefined, number>;
  request: ColumnType<unknown, string, never>;
  result: ColumnType<unknown, string | null | undefined, string | null>;
  error: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface BacktestCandleSetsTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  candles: number;
  interval_ms: ColumnType<string, number, never>;
  first_time: ColumnType<string, number, never>;
  last_time: ColumnType<string, number, never>;
  data: ColumnType<Uint8Array, Uint8Array, never>;
  created_at: CreatedAt;
}

export interface MarketCandlesTable {
  exchange: string;
  symbol: string;
  interval: string;
  day: ColumnType<string, number, number>;
  candles: string;
  complete: boolean;
  fetched_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface PaperCandlesTable {
  symbol: string;
  minute: ColumnType<string, string | number, string | number>;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

/** The simulator's hourly candles, rolled up from minutes older than their retention. */
export interface PaperCandlesHourlyTable {
  symbol: string;
  hour: ColumnType<string, string | number, string | number>;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

/** Wrong logins of one key (account and address, account, address) and when the last one was. */
export interface LoginFailuresTable {
  key: string;
  failures: number;
  last_failure_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface EngineLeasesTable {
  name: string;
  owner: string | null;
  token: ColumnType<string, string | number | undefined, string | number>;
  expires_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface EngineNodesTable {
  owner: string;
  started_at: CreatedAt;
  seen_at: ColumnType<Date, Date | string | undefined, Date | string>;
  status: ColumnType<Record<string, unknown>, string | undefined, string>;
}

/** A task's TradingView webhook (migration 033): the secret sealed with the exchange master key. */
export interface TaskWebhooksTable {
  task_id: string;
  hook_id: string;
  secret_sealed: string;
  action: 'start_cycle' | 'buy_level' | 'close_position';
  created_at: CreatedAt;
  rotated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** An alert a task's webhook received (migration 033); its alert id is unique per task. */
export interface TaskAlertsTable {
  id: Generated<string>;
  task_id: string;
  alert_id: string;
  action: string;
  outcome: 'accepted' | 'task_stopped' | 'undelivered';
  detail: ColumnType<Record<string, unknown>, string | undefined, string>;
  alert_time: ColumnType<Date, Date | string, Date | string>;
  received_at: CreatedAt;
}

export interface EngineCommandsTable {
  id: Generated<string>;
  task_id: string;
  shard: number;
  kind: 'reload' | 'replenish' | 'close' | 'alert';
  /** An alert command's alert (migration 033). */
  payload: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: CreatedAt;
  done_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  result: ColumnType<unknown, string | null | undefined, string | null>;
}

export interface PaperPricesTable {
  symbol: string;
  ticker: ColumnType<Record<string, unknown>, string, string>;
  market_ms: ColumnType<string, string | number, string | number>;
  replay: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** What a user allowed a partner site's widgets to read (server/src/widget). */
export interface WidgetGrantsTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  key_hash: string;
  created_at: CreatedAt;
  last_issued_at: ColumnType<Date, Date | string | undefined, Date | string>;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  /** The origin its widgets may call from; null for grants made before origins were asked. */
  origin: string | null;
  /** SHA-256 of its embed token; null for grants made before embed tokens. */
  embed_hash: string | null;
}

/** A user's linked Telegram chat (migration 023). */
export interface TelegramLinksTable {
  user_id: string;
  chat_id: string;
  linked_at: ColumnType<Date, Date | string | undefined, Date | string>;
  disabled_reason: string | null;
}

/** A one-time code of a Telegram deep link, kept as its SHA-256 hash. */
export interface TelegramLinkCodesTable {
  code_hash: string;
  user_id: string;
  expires_at: Timestamp;
}

export interface PushSubscriptionsTable {
  id: Generated<string>;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: CreatedAt;
}

/** A user's webhook; the secret sealed under the exchange master key. */
export interface WebhooksTable {
  user_id: string;
  url: string;
  secret_ciphertext: string;
  enabled: Generated<boolean>;
  disabled_reason: string | null;
  created_at: CreatedAt;
}

export interface Database {
  users: UsersTable;
  verification_codes: VerificationCodesTable;
  refresh_tokens: RefreshTokensTable;
  sessions: SessionsTable;
  request_nonces: RequestNoncesTable;
  throttle_counters: ThrottleCountersTable;
  exchange_accounts: ExchangeAccountsTable;
  strategies: StrategiesTable;
  trade_tasks: TradeTasksTable;
  engine_leases: EngineLeasesTable;
  engine_nodes: EngineNodesTable;
  engine_commands: EngineCommandsTable;
  task_webhooks: TaskWebhooksTable;
  task_alerts: TaskAlertsTable;
  paper_prices: PaperPricesTable;
  paper_candles: PaperCandlesTable;
  paper_candles_hourly: PaperCandlesHourlyTable;
  login_failures: LoginFailuresTable;
  orders: OrdersTable;
  task_events: TaskEventsTable;
  cycles: CyclesTable;
  paper_balances: PaperBalancesTable;
  settings: SettingsTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_transactions: LedgerTransactionsTable;
  ledger_entries: LedgerEntriesTable;
  idempotency_keys: IdempotencyKeysTable;
  deposits: DepositsTable;
  withdrawals: WithdrawalsTable;
  deposit_addresses: DepositAddressesTable;
  withdrawal_addresses: WithdrawalAddressesTable;
  audit_log: AuditLogTable;
  articles: ArticlesTable;
  article_translations: ArticleTranslationsTable;
  backtest_runs: BacktestRunsTable;
  backtest_candle_sets: BacktestCandleSetsTable;
  market_candles: MarketCandlesTable;
  widget_grants: WidgetGrantsTable;
  telegram_links: TelegramLinksTable;
  telegram_link_codes: TelegramLinkCodesTable;
  push_subscriptions: PushSubscriptionsTable;
  webhooks: WebhooksTable;
  notification_events: NotificationEventsTable;
  notification_deliveries: NotificationDeliveriesTable;
  notification_preferences: NotificationPreferencesTable;
  notification_digest_kinds: NotificationDigestKindsTable;
  second_factors: SecondFactorsTable;
  recovery_codes: RecoveryCodesTable;
  trusted_devices: TrustedDevicesTable;
  webauthn_challenges: WebauthnChallengesTable;
}

/** A user's second factor (migration 027): pending until enabled_at is set. */
export interface SecondFactorsTable {
  id: Generated<string>;
  user_id: string;
  kind: 'totp' | 'passkey';
  secret_sealed: string | null;
  /** The last TOTP time step accepted (bigint: a string from the driver). */
  last_step: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  enabled_at: NullableTimestamp;
  created_at: CreatedAt;
  /** A passkey's name, credential id and COSE public key (base64url), signature counter and transports (JSON) (migration 029). */
  name: ColumnType<string | null, string | null | undefined, string | null>;
  credential_id: ColumnType<string | null, string | null | undefined, string | null>;
  public_key: ColumnType<string | null, string | null | undefined, string | null>;
  counter: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  transports: ColumnType<string | null, string | null | undefined, string | null>;
  last_used_at: NullableTimestamp;
}

/** A WebAuthn challenge: bound to a user (null for a passkey login) and an action, taken once (migration 029). */
export interface WebauthnChallengesTable {
  id: Generated<string>;
  user_id: string | null;
  action: string;
  challenge: string;
  expires_at: Timestamp;
}

export interface RecoveryCodesTable {
  id: Generated<string>;
  user_id: string;
  code_hash: string;
  used_at: NullableTimestamp;
}

export interface TrustedDevicesTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

export interface NotificationEventsTable {
  id: Generated<string>;
  user_id: string;
  kind: string;
  task_id: string | null;
  /** The event's figures, decimals as strings. */
  payload: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: CreatedAt;
  read_at: NullableTimestamp;
  planned_at: NullableTimestamp;
}

export interface NotificationDeliveriesTable {
  id: Generated<string>;
  message_key: string;
  event_ids: string[];
  user_id: string;
  channel: string;
  status: Generated<'pending' | 'sent' | 'dead'>;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_error: string | null;
  sent_at: NullableTimestamp;
  created_at: CreatedAt;
  /** An hourly digest: held until its hour ends, gathering the digest kinds that arrive meanwhile. */
  digest: Generated<boolean>;
  last_attempt_at: NullableTimestamp;
}

/** A kind the user has gathered into the hourly digest (migration 024). */
export interface NotificationDigestKindsTable {
  user_id: string;
  kind: string;
}

export interface NotificationPreferencesTable {
  user_id: string;
  kind: string;
  channel: string;
  enabled: boolean;
}
