import type { Static, TSchema } from 'typebox';
import type { ActivatePayload, CommunityPage, FuelStatus, InviteInfo, MemberLevel, MemberStatus } from '../../../src/api/member';
import { Body, Query, SameShape, StringEnum, Type, envelope, pagingProperties, type Same } from '../http/schemas';

/**
 * Field rules and answers of the membership calls (README "Membership"):
 * status, activation, fuel, invite info and community. Each answer schema is
 * the contract's type (src/api/member.ts), checked at compile time below.
 */

/** A decimal as text (the answers' amounts). */
const decimal = () => Type.String();
/** Text or null: one JSON-schema type list (not an anyOf). */
export const NullableString = () => Type.Unsafe<string | null>({ type: ['string', 'null'] });
/** A random id the browser makes once per intended action (a uuid fits). */
const idempotencyKey = Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$' });

export const memberLevelSchema = Type.Object({
  level: Type.Integer(),
  minDirect: Type.Integer(),
  minTeam: Type.Integer(),
  minTeamVolume: decimal(),
  fuelDiscountPercent: decimal(),
  taskLimit: Type.Integer(),
});

const teamStatsSchema = Type.Object({
  direct: Type.Integer(),
  directActivated: Type.Integer(),
  team: Type.Integer(),
  teamActivated: Type.Integer(),
  teamVolume: decimal(),
});

export const memberStatusSchema = Type.Object({
  level: Type.Integer(),
  activated: Type.Boolean(),
  activatedAt: NullableString(),
  levels: Type.Array(memberLevelSchema),
  team: teamStatsSchema,
  next: Type.Unsafe<MemberStatus['next']>({
    type: ['object', 'null'],
    required: ['level', 'direct', 'team', 'teamVolume'],
    properties: { level: memberLevelSchema, direct: { type: 'integer' }, team: { type: 'integer' }, teamVolume: { type: 'string' } },
  }),
  activation: Type.Object({ cardPrice: decimal(), usdtPrice: decimal() }),
});

export const fuelStatusSchema = Type.Object({
  balance: decimal(),
  baseRatePercent: decimal(),
  ratePercent: decimal(),
  chargedTotal: decimal(),
  pausedTasks: Type.Integer(),
});

export const inviteInfoSchema = Type.Object({
  inviteCode: Type.String(),
  registerPath: Type.String(),
  direct: Type.Integer(),
  team: Type.Integer(),
  rewardPoints: decimal(),
});

export const communityMemberSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  nickname: Type.String(),
  level: Type.Integer(),
  activated: Type.Boolean(),
  depth: Type.Integer(),
  runningTasks: Type.Integer(),
  joinedAt: Type.String(),
  lastActiveAt: NullableString(),
});

export const communityPageSchema = Type.Object({
  list: Type.Array(communityMemberSchema),
  total: Type.Integer(),
  direct: Type.Integer(),
  team: Type.Integer(),
});

export const activateBody = Body({ method: StringEnum(['card', 'usdt']), idempotencyKey });
export const communityQuery = Query({ scope: StringEnum(['direct', 'team'], { default: 'direct' }), ...pagingProperties() });

// The contract (src/api/member.ts, what the dashboard reads and sends) and these schemas describe the same values.
SameShape<Same<Static<typeof memberLevelSchema>, MemberLevel>>();
SameShape<Same<Static<typeof memberStatusSchema>, MemberStatus>>();
SameShape<Same<Static<typeof fuelStatusSchema>, FuelStatus>>();
SameShape<Same<Static<typeof inviteInfoSchema>, InviteInfo>>();
SameShape<Same<Static<typeof communityPageSchema>, CommunityPage>>();
SameShape<Same<Static<typeof activateBody>, ActivatePayload>>();

const answer = (data: TSchema) => ({ 200: envelope(data) });

export const statusSchema = {
  summary: 'Membership level, team, next level and activation prices',
  response: answer(memberStatusSchema),
};

export const activateSchema = {
  summary: 'Activate the account with an activation card or USDT (idempotent per key)',
  body: activateBody,
  response: answer(memberStatusSchema),
};

export const fuelSchema = {
  summary: 'Fuel balance, rates, total charged and tasks waiting for fuel',
  response: answer(fuelStatusSchema),
};

export const inviteInfoRouteSchema = {
  summary: 'Invite code, register link, team size and the reward per activated invitee',
  response: answer(inviteInfoSchema),
};

export const communitySchema = {
  summary: 'Direct invitees or the whole team, emails masked',
  querystring: communityQuery,
  response: answer(communityPageSchema),
};
