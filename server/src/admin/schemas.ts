import type { Static, TProperties, TSchema } from 'typebox';
import type { AdminArticle, AdminLevel, AdminNotificationDelivery, AdminUser, ArticleTranslation, AuditEntry, NotificationDeliveryCount, ServiceSettings } from '../../../src/api/admin';
import { DELIVERY_STATUSES } from '../../../src/api/admin';
import { NOTIFICATION_CHANNELS } from '../../../src/api/notify';
import { ASSETS } from '../../../src/api/wallet';
import { ARTICLE_LOCALES, translationSchema } from '../article/articles';
import type { EngineFacade } from '../engine/facade';
import { Body, SameShape, StringEnum, Type, envelope, type Same } from '../http/schemas';
import { NullableString, memberLevelSchema } from '../member/schemas';
import { levelChangeSchema, levelFieldsSchema, settingsChangeSchema } from '../settings';
import { adminDepositSchema, adminWithdrawalSchema, txHashSchema, uuidSchema } from '../wallet/schemas';
import { idParams, listQuerystring } from './rest';

/**
 * Field rules and answers of the operator console's calls (README "Operator
 * console"): each resource's list query (sort fields and filters), bodies and
 * records. The records are the contract's types (src/api/admin.ts), checked at
 * compile time below.
 */

const security = [{ bearer: [] }];
const decimal = () => Type.String();
const answer = (data: TSchema | object) => ({ 200: envelope(data) });
const listAnswer = (item: TSchema | object) => answer({ type: 'array', items: item });

/* ---------- Records ---------- */

export const adminUserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  nickname: Type.String(),
  role: StringEnum(['user', 'operator']),
  level: Type.Integer(),
  activated: Type.Boolean(),
  disabled: Type.Boolean(),
  inviterEmail: NullableString(),
  usdt: decimal(),
  createdAt: Type.String(),
});

const translationAnswer = Type.Object({ locale: StringEnum(ARTICLE_LOCALES), title: Type.String(), summary: Type.String(), body: Type.String() });

export const adminArticleSchema = Type.Object({
  id: Type.String(),
  published: Type.Boolean(),
  publishedAt: NullableString(),
  translations: Type.Array(translationAnswer),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const adminLevelSchema = Type.Object({ id: Type.Integer(), ...memberLevelSchema.properties });

export const auditEntrySchema = Type.Object({
  id: Type.String(),
  operatorId: Type.String(),
  operatorEmail: Type.String(),
  action: Type.String(),
  targetType: Type.String(),
  targetId: NullableString(),
  /** What changed and the values before: any JSON object. */
  data: Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true }),
  createdAt: Type.String(),
});

export const notificationDeliverySchema = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  userEmail: Type.String(),
  channel: Type.String(),
  kind: Type.String(),
  events: Type.Integer(),
  status: StringEnum(DELIVERY_STATUSES),
  attempts: Type.Integer(),
  lastError: NullableString(),
  createdAt: Type.String(),
  nextAttemptAt: Type.String(),
  lastAttemptAt: NullableString(),
  sentAt: NullableString(),
});

export const notificationCountSchema = Type.Object({ channel: Type.String(), pending: Type.Integer(), sent: Type.Integer(), dead: Type.Integer() });

export const settingsSchema = Type.Object({
  levels: Type.Array(memberLevelSchema),
  swapRates: Type.Array(Type.Object({ from: StringEnum(ASSETS), to: StringEnum(ASSETS), rate: decimal() })),
  withdrawFee: decimal(),
  withdrawMin: decimal(),
  transferMin: decimal(),
  activationCardPrice: decimal(),
  activationUsdtPrice: decimal(),
  fuelRatePercent: decimal(),
  inviteRewardPoints: decimal(),
  activationFuelGift: decimal(),
  depositNetwork: Type.String(),
});

/* ---------- Queries and bodies ---------- */

export const USER_SORTS = ['id', 'email', 'nickname', 'role', 'level', 'activated', 'disabled', 'createdAt', 'usdt'] as const;
export const userListQuery = listQuerystring(USER_SORTS, {
  q: Type.Optional(Type.String({ maxLength: 100 })),
  level: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  activated: Type.Optional(Type.Boolean()),
  disabled: Type.Optional(Type.Boolean()),
  role: Type.Optional(StringEnum(['user', 'operator'])),
});
export const userChangeBody = Body({
  level: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  activated: Type.Optional(Type.Boolean()),
  disabled: Type.Optional(Type.Boolean()),
});

export const MONEY_SORTS = ['createdAt', 'amount', 'status', 'id'] as const;
const moneyListQuery = <S extends string>(statuses: readonly S[]) =>
  listQuerystring(MONEY_SORTS, { status: Type.Optional(StringEnum(statuses)), userId: Type.Optional(uuidSchema) });
export const depositListQuery = moneyListQuery(['pending', 'confirmed', 'rejected']);
export const withdrawalListQuery = moneyListQuery(['pending', 'approved', 'rejected']);

/** Why an operator refuses a request: shown to its user. */
const reason = Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' });
/**
 * A decision is a change of status: to the decided one, with a reason when
 * rejecting (an `if`/`then` of the schema: 10000 without it).
 */
const decision = <S extends string, P extends TProperties>(decided: readonly S[], extra: P) =>
  Type.Object(
    { status: StringEnum(decided), reason: Type.Optional(reason), ...extra },
    { additionalProperties: false, if: { properties: { status: { const: 'rejected' } } }, then: { required: ['reason'] } },
  );
export const depositDecisionBody = decision(['confirmed', 'rejected'], {});
export const withdrawalDecisionBody = decision(['approved', 'rejected'], { txHash: Type.Optional(txHashSchema) });

export const ARTICLE_SORTS = ['id', 'published', 'publishedAt', 'createdAt', 'updatedAt'] as const;
export const articleListQuery = listQuerystring(ARTICLE_SORTS, { q: Type.Optional(Type.String({ maxLength: 100 })), published: Type.Optional(Type.Boolean()) });
const translations = Type.Array(translationSchema, { maxItems: 3 });
export const articleAddBody = Body({ translations, published: Type.Optional(Type.Boolean()) });
export const articleChangeBody = Type.Object(
  { translations: Type.Optional(translations), published: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);

export const levelListQuery = listQuerystring(['id', 'level'], {});

export const AUDIT_SORTS = ['createdAt', 'id'] as const;
export const auditListQuery = listQuerystring(AUDIT_SORTS, {
  operatorId: Type.Optional(Type.String({ maxLength: 100 })),
  action: Type.Optional(Type.String({ maxLength: 60 })),
  targetType: Type.Optional(Type.String({ maxLength: 40 })),
  targetId: Type.Optional(Type.String({ maxLength: 100 })),
});

export const DELIVERY_SORTS = ['createdAt', 'nextAttemptAt', 'lastAttemptAt', 'attempts', 'channel', 'status', 'id'] as const;
export const deliveryListQuery = listQuerystring(DELIVERY_SORTS, {
  status: Type.Optional(StringEnum(DELIVERY_STATUSES)),
  channel: Type.Optional(StringEnum(NOTIFICATION_CHANNELS.filter((c) => c !== 'inapp'))),
  userId: Type.Optional(Type.String({ maxLength: 100 })),
});
/** A retry is a change of status: a dead message back to pending. */
export const deliveryRetryBody = Body({ status: Type.Literal('pending') });

/** The engine's health (engine.ts): the runner's status and the cluster's nodes and shards, or only that the engine is off here. */
const engineReplaySchema = Type.Object({
  symbol: Type.String(),
  total: Type.Integer(),
  played: Type.Integer(),
  candleTime: Type.String(),
  started: Type.Boolean(),
  done: Type.Boolean(),
});
const engineClusterSchema = Type.Object({
  self: Type.String(),
  nodes: Type.Array(Type.Object({ owner: Type.String(), seenAt: Type.String(), shards: Type.Array(Type.Integer()), market: Type.Boolean() })),
  unheldShards: Type.Array(Type.Integer()),
});
const engineRunsHereSchema = Type.Object({
  running: Type.Boolean(),
  startedAt: NullableString(),
  ticks: Type.Integer(),
  tickMs: Type.Number(),
  lastTickAt: NullableString(),
  lastTickMs: Type.Number(),
  maxTickMs: Type.Number(),
  lagMs: Type.Number(),
  failedTicks: Type.Integer(),
  outages: Type.Array(
    Type.Object({
      dependency: StringEnum(['database', 'exchange']),
      exchange: Type.Union([Type.String(), Type.Null()]),
      since: Type.String(),
      failedTicks: Type.Integer(),
      message: Type.String(),
    }),
  ),
  marketTime: Type.String(),
  tasks: Type.Object({ loaded: Type.Integer(), running: Type.Integer(), attention: Type.Integer(), failing: Type.Integer() }),
  unusablePrices: Type.Array(Type.String()),
  replay: Type.Union([engineReplaySchema, Type.Null()]),
  cluster: Type.Union([engineClusterSchema, Type.Null()]),
});
const engineOffSchema = Type.Object({ running: Type.Boolean(), engine: Type.Literal('off') });
export const engineStatusSchema = Type.Union([engineRunsHereSchema, engineOffSchema]);

// The contract (src/api/admin.ts, what the console reads and sends) and these schemas describe the same values.
SameShape<Same<Static<typeof adminUserSchema>, AdminUser>>();
SameShape<Same<Static<typeof adminArticleSchema>, AdminArticle>>();
SameShape<Same<Static<typeof translationAnswer>, ArticleTranslation>>();
SameShape<Same<Static<typeof adminLevelSchema>, AdminLevel>>();
SameShape<Same<Static<typeof auditEntrySchema>, AuditEntry>>();
SameShape<Same<Static<typeof settingsSchema>, ServiceSettings>>();
SameShape<Same<Static<typeof notificationDeliverySchema>, AdminNotificationDelivery>>();
SameShape<Same<Static<typeof notificationCountSchema>, NotificationDeliveryCount>>();
SameShape<Same<Static<typeof userChangeBody>, Partial<Pick<AdminUser, 'level' | 'activated' | 'disabled'>>>>();
SameShape<Same<Static<typeof articleAddBody>, { translations: ArticleTranslation[]; published?: boolean }>>();
// The engine's answer as the facade gives it (EngineStatus of src/api/trade.ts, with the cluster), every field listed.
SameShape<Same<Static<typeof engineStatusSchema>, Awaited<ReturnType<EngineFacade['status']>>>>();

/* ---------- Routes ---------- */

export const userRoutesSchema = {
  list: { summary: 'Users (filter q searches email and nickname)', security, querystring: userListQuery, response: listAnswer(adminUserSchema) },
  one: { summary: 'One user', security, params: idParams, response: answer(adminUserSchema) },
  change: {
    summary: 'Change a user’s level, activation or disabled flag (disabling ends their sessions); only the fields sent',
    security,
    params: idParams,
    body: userChangeBody,
    response: answer(adminUserSchema),
  },
  resetSecondFactor: {
    summary: 'Reset a user’s second factors (lost with their recovery codes): all removed, withdrawals held 24 hours, the user told, an audit line',
    security,
    params: idParams,
    response: answer(adminUserSchema),
  },
};

export const depositRoutesSchema = {
  list: { summary: 'Deposits, newest first by default', security, querystring: depositListQuery, response: listAnswer(adminDepositSchema) },
  one: { summary: 'One deposit', security, params: idParams, response: answer(adminDepositSchema) },
  decide: {
    summary: 'Decide a pending deposit: confirmed credits the user; rejected needs a reason',
    security,
    params: idParams,
    body: depositDecisionBody,
    response: answer(adminDepositSchema),
  },
};

export const withdrawalRoutesSchema = {
  list: { summary: 'Withdrawals, newest first by default', security, querystring: withdrawalListQuery, response: listAnswer(adminWithdrawalSchema) },
  one: { summary: 'One withdrawal', security, params: idParams, response: answer(adminWithdrawalSchema) },
  decide: {
    summary: 'Decide a pending withdrawal: approved pays amount and fee out of the hold (txHash optional); rejected gives them back and needs a reason',
    security,
    params: idParams,
    body: withdrawalDecisionBody,
    response: answer(adminWithdrawalSchema),
  },
};

export const articleRoutesSchema = {
  list: {
    summary: 'Articles, published or not, with every translation (filter q searches titles and summaries)',
    security,
    querystring: articleListQuery,
    response: listAnswer(adminArticleSchema),
  },
  one: { summary: 'One article with every translation', security, params: idParams, response: answer(adminArticleSchema) },
  add: { summary: 'Write an article (bodies are sanitized; a zh-CN translation is required)', security, body: articleAddBody, response: answer(adminArticleSchema) },
  change: {
    summary: 'Replace an article’s translations, publish or withdraw it, or both',
    security,
    params: idParams,
    body: articleChangeBody,
    response: answer(adminArticleSchema),
  },
  remove: { summary: 'Delete an article and its translations', security, params: idParams, response: answer(adminArticleSchema) },
};

export const levelRoutesSchema = {
  list: { summary: 'Membership levels, lowest first', security, querystring: levelListQuery, response: listAnswer(adminLevelSchema) },
  one: { summary: 'One membership level', security, params: idParams, response: answer(adminLevelSchema) },
  add: { summary: 'Add a level on top of the others', security, body: levelFieldsSchema, response: answer(adminLevelSchema) },
  change: {
    summary: 'Change a level’s requirements or benefits (only the fields sent)',
    security,
    params: idParams,
    body: levelChangeSchema,
    response: answer(adminLevelSchema),
  },
  remove: { summary: 'Remove the top level (not level 0, not while users hold it)', security, params: idParams, response: answer(adminLevelSchema) },
};

export const auditRoutesSchema = {
  list: { summary: 'The operators’ audit log, newest first', security, querystring: auditListQuery, response: listAnswer(auditEntrySchema) },
};

export const deliveryRoutesSchema = {
  list: {
    summary: 'The notifications outbox’s messages per channel (filter status: pending, sent, dead)',
    security,
    querystring: deliveryListQuery,
    response: listAnswer(notificationDeliverySchema),
  },
  one: { summary: 'One message of the notifications outbox', security, params: idParams, response: answer(notificationDeliverySchema) },
  retry: {
    summary: 'Send a dead message again: back to pending, its attempts from zero (10008 unless dead)',
    security,
    params: idParams,
    body: deliveryRetryBody,
    response: answer(notificationDeliverySchema),
  },
  counts: { summary: 'The notifications outbox’s messages per channel and status', security, response: listAnswer(notificationCountSchema) },
};

export const engineRoutesSchema = {
  status: { summary: "The trading engine's health (operators)", security, response: answer(engineStatusSchema) },
};

export const settingsRoutesSchema = {
  read: { summary: 'The configured rules in force', security, response: answer(settingsSchema) },
  edit: { summary: 'Change some of the configured rules (the levels are their own resource)', security, body: settingsChangeSchema, response: answer(settingsSchema) },
};
