/** The schemas of the profit calls: validation, the OpenAPI document and (through the type provider) the handlers' types. */
import type { Static } from 'typebox';
import type { DailyProfit, DailyProfitDetail, ProfitOverview, ProfitRank } from '../../../src/api/member';
import type { Page } from '../../../src/api/types';
import { Answer, DecimalText, PageOf } from '../http/answers';
import { Query, SameShape, StringEnum, TimeZone, Type, pagingProperties, type Same } from '../http/schemas';

export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';
const timeZone = TimeZone(DEFAULT_TIME_ZONE);
/** YYYY-MM-DD; whether the day exists is the service's check (10003). */
const date = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const PERIODS = ['day', 'all'] as const;

const summaryQuery = Query({ timeZone, days: Type.Integer({ minimum: 1, maximum: 365, default: 30 }) });
const dailyQuery = Query({
  timeZone,
  ...pagingProperties(),
  // react-admin sends these; days are always newest first.
  sort: Type.Optional(Type.String({ maxLength: 40 })),
  order: Type.Optional(Type.String({ maxLength: 4 })),
});
const dailyDetailQuery = Query({ date, timeZone });
const rankQuery = Query({ period: StringEnum(PERIODS, { default: 'day' }), timeZone, limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }) });

export type SummaryQuery = Static<typeof summaryQuery>;
export type DailyQuery = Static<typeof dailyQuery>;
export type DailyDetailQuery = Static<typeof dailyDetailQuery>;
export type RankQuery = Static<typeof rankQuery>;

const dailyProfit = Type.Object({ date: Type.String(), profit: DecimalText(), cycles: Type.Integer() });
const overview = Type.Object({
  timeZone: Type.String(),
  today: Type.String(),
  total: DecimalText(),
  todayProfit: DecimalText(),
  last7Days: DecimalText(),
  last30Days: DecimalText(),
  cycles: Type.Integer(),
  daily: Type.Array(dailyProfit),
});
const dailyPage = PageOf(dailyProfit);
const closedCycle = Type.Object({
  id: Type.String(),
  taskId: Type.String(),
  symbol: Type.String(),
  exchangeName: Type.String(),
  cycle: Type.Integer(),
  buyCost: DecimalText(),
  sellProceeds: DecimalText(),
  realizedProfit: DecimalText(),
  fuelCharged: DecimalText(),
  closedAt: Type.String(),
});
const dailyDetail = Type.Object({ date: Type.String(), profit: DecimalText(), cycles: Type.Array(closedCycle) });
const rank = Type.Object({
  period: StringEnum(PERIODS),
  date: Type.String(),
  list: Type.Array(Type.Object({ rank: Type.Integer(), name: Type.String(), profit: DecimalText(), self: Type.Boolean() })),
  me: Type.Union([Type.Object({ rank: Type.Integer(), profit: DecimalText() }), Type.Null()]),
});

// The contract's answers (src/api/member.ts, what the dashboard reads) and these schemas describe the same values.
SameShape<Same<Static<typeof overview>, ProfitOverview>>();
SameShape<Same<Static<typeof dailyPage>, Page<DailyProfit>>>();
SameShape<Same<Static<typeof dailyDetail>, DailyProfitDetail>>();
SameShape<Same<Static<typeof rank>, ProfitRank>>();

export const schemas = {
  summary: {
    summary: 'Realized profit: totals and one point a day (days in the given time zone)',
    querystring: summaryQuery,
    response: { 200: Answer(overview) },
  },
  daily: {
    summary: 'Days with closed cycles, newest first (days in the given time zone)',
    querystring: dailyQuery,
    response: { 200: Answer(dailyPage) },
  },
  dailyDetail: {
    summary: "The caller's cycles closed on one day (in the given time zone)",
    querystring: dailyDetailQuery,
    response: { 200: Answer(dailyDetail) },
  },
  rank: {
    summary: 'Users ranked by realized profit today or in total (names masked)',
    querystring: rankQuery,
    response: { 200: Answer(rank) },
  },
};
