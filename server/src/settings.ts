import Big from 'big.js';
import type { ServiceSettings } from '../../src/api/admin';
import type { MemberLevel } from '../../src/api/member';
import { ErrorCode } from '../../src/api/errors';
import type { Static } from 'typebox';
import { ASSETS } from '../../src/api/wallet';
import { fail } from './http/errors';
import { Body, SameShape, StringEnum, Type, type Same } from './http/schemas';
import type { Db } from './db/database';

/**
 * The rules operators configure (levels, rates, fees, prices), stored as one
 * JSON row under `service` and merged over these defaults, so a value never
 * set reads as its default (README: "Wallet and membership rules").
 */
export const DEFAULT_SETTINGS: ServiceSettings = {
  levels: [
    { level: 0, minDirect: 0, minTeam: 0, minTeamVolume: '0', fuelDiscountPercent: '0', taskLimit: 10 },
    { level: 1, minDirect: 3, minTeam: 5, minTeamVolume: '10000', fuelDiscountPercent: '10', taskLimit: 20 },
    { level: 2, minDirect: 5, minTeam: 20, minTeamVolume: '50000', fuelDiscountPercent: '20', taskLimit: 30 },
    { level: 3, minDirect: 10, minTeam: 50, minTeamVolume: '200000', fuelDiscountPercent: '30', taskLimit: 50 },
    { level: 4, minDirect: 20, minTeam: 150, minTeamVolume: '1000000', fuelDiscountPercent: '40', taskLimit: 80 },
    { level: 5, minDirect: 30, minTeam: 500, minTeamVolume: '5000000', fuelDiscountPercent: '50', taskLimit: 120 },
  ],
  swapRates: [
    { from: 'USDT', to: 'FUEL', rate: '1' },
    { from: 'USDT', to: 'CARD', rate: '0.01' },
    { from: 'POINTS', to: 'FUEL', rate: '0.5' },
  ],
  withdrawFee: '1',
  withdrawMin: '10',
  transferMin: '1',
  activationCardPrice: '1',
  activationUsdtPrice: '100',
  fuelRatePercent: '10',
  inviteRewardPoints: '50',
  activationFuelGift: '20',
  depositNetwork: 'TRC20',
};

const KEY = 'service';

export const readSettings = async (db: Db): Promise<ServiceSettings> => {
  const row = await db.selectFrom('settings').select('value').where('key', '=', KEY).executeTakeFirst();
  return { ...DEFAULT_SETTINGS, ...((row?.value as Partial<ServiceSettings> | undefined) ?? {}) };
};

/** Stores the changed values (validated by the caller) and answers the settings now in force. */
export const writeSettings = async (db: Db, changes: Partial<ServiceSettings>): Promise<ServiceSettings> => {
  const next = { ...(await readSettings(db)), ...changes };
  const stored = Object.fromEntries(
    Object.entries(next).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(DEFAULT_SETTINGS[key as keyof ServiceSettings])),
  );
  await db
    .insertInto('settings')
    .values({ key: KEY, value: JSON.stringify(stored) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(stored), updated_at: new Date() }))
    .execute();
  return next;
};

/* ---------- Validation of an operator's change (POST /api/admin/settings/edit) ---------- */

/** A non-negative decimal written out ("10", "0.5"): no sign, no exponent, at most 8 decimals. */
const decimal = () => Type.String({ pattern: '^\\d{1,15}(\\.\\d{1,8})?$' });
const count = () => Type.Integer({ minimum: 0, maximum: 1_000_000_000 });

/** One membership level's requirements and benefits (the operators' levels resource): every field, as a new level needs them. */
export const levelFieldsSchema = Body({
  minDirect: count(),
  minTeam: count(),
  minTeamVolume: decimal(),
  fuelDiscountPercent: decimal(),
  taskLimit: Type.Integer({ minimum: 1, maximum: 10_000 }),
});

/** A change of a level: any of its fields. */
export const levelChangeSchema = Body({
  minDirect: Type.Optional(count()),
  minTeam: Type.Optional(count()),
  minTeamVolume: Type.Optional(decimal()),
  fuelDiscountPercent: Type.Optional(decimal()),
  taskLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
});

/** The edit body: any subset of ServiceSettings but the levels (their own resource), nothing else. */
export const settingsChangeSchema = Body({
  swapRates: Type.Optional(Type.Array(Body({ from: StringEnum(ASSETS), to: StringEnum(ASSETS), rate: decimal() }), { maxItems: 12 })),
  withdrawFee: Type.Optional(decimal()),
  withdrawMin: Type.Optional(decimal()),
  transferMin: Type.Optional(decimal()),
  activationCardPrice: Type.Optional(decimal()),
  activationUsdtPrice: Type.Optional(decimal()),
  fuelRatePercent: Type.Optional(decimal()),
  inviteRewardPoints: Type.Optional(decimal()),
  activationFuelGift: Type.Optional(decimal()),
  depositNetwork: Type.Optional(Type.String({ minLength: 1, maxLength: 20, pattern: '^[A-Za-z0-9_-]+$' })),
});

// A level's fields and a change of the settings are the contract's (src/api/member.ts, src/api/admin.ts).
SameShape<Same<Static<typeof levelFieldsSchema>, Omit<MemberLevel, 'level'>>>();
SameShape<Same<Static<typeof levelChangeSchema>, Partial<Omit<MemberLevel, 'level'>>>>();
SameShape<Same<Static<typeof settingsChangeSchema>, Partial<Omit<ServiceSettings, 'levels'>>>>();

/** Normal notation without trailing zeros ("1.50" -> "1.5"), never an exponent. */
const normal = (value: string) => new Big(value).toFixed();

const rangeError = (field: string, message: string): never => fail(ErrorCode.PARAM_RANGE, `${field}: ${message}`, { field });

/**
 * The rules of a level table a schema cannot say: levels numbered 0, 1, 2...
 * with level 0 open to everyone and no level easier to reach than the one
 * below it; discounts 0-100 percent. Answers the table with its decimals
 * normalized; throws 10002 naming the level's field otherwise.
 */
export const checkLevels = (levels: readonly MemberLevel[], field: (index: number, name?: string) => string): MemberLevel[] =>
  levels.map((level, index) => {
    if (level.level !== index) rangeError(field(index, 'level'), `levels must be numbered 0, 1, 2... in ascending order (expected ${index})`);
    if (new Big(level.fuelDiscountPercent).gt(100)) rangeError(field(index, 'fuelDiscountPercent'), 'a percent is between 0 and 100');
    if (index === 0 && (level.minDirect !== 0 || level.minTeam !== 0 || !new Big(level.minTeamVolume).eq(0))) {
      rangeError(field(index), 'level 0 is every new user’s: it needs nothing');
    }
    const below = levels[index - 1];
    if (below) {
      if (level.minDirect < below.minDirect) rangeError(field(index, 'minDirect'), 'a level cannot need less than the one below it');
      if (level.minTeam < below.minTeam) rangeError(field(index, 'minTeam'), 'a level cannot need less than the one below it');
      if (new Big(level.minTeamVolume).lt(below.minTeamVolume)) rangeError(field(index, 'minTeamVolume'), 'a level cannot need less than the one below it');
    }
    return { ...level, minTeamVolume: normal(level.minTeamVolume), fuelDiscountPercent: normal(level.fuelDiscountPercent) };
  });

/**
 * The rules a schema cannot say: percents 0-100; rates and prices above 0;
 * one rate per pair of assets. Answers the change with its decimals
 * normalized; throws 10002 otherwise.
 */
export const checkSettingsChange = (change: Partial<ServiceSettings>): Partial<ServiceSettings> => {
  const out: Partial<ServiceSettings> = { ...change };
  if (change.swapRates) {
    const pairs = new Set<string>();
    out.swapRates = change.swapRates.map((rate, index) => {
      const field = `swapRates.${index}`;
      if (rate.from === rate.to) rangeError(`${field}.to`, 'an asset cannot be swapped for itself');
      if (pairs.has(`${rate.from}>${rate.to}`)) fail(ErrorCode.INVALID, `${field}: two rates for ${rate.from} -> ${rate.to}`, { field });
      pairs.add(`${rate.from}>${rate.to}`);
      if (new Big(rate.rate).lte(0)) rangeError(`${field}.rate`, 'a rate is above 0');
      return { ...rate, rate: normal(rate.rate) };
    });
  }
  for (const key of ['fuelRatePercent'] as const) {
    if (change[key] !== undefined && new Big(change[key]).gt(100)) rangeError(key, 'a percent is between 0 and 100');
  }
  for (const key of ['withdrawMin', 'transferMin', 'activationCardPrice', 'activationUsdtPrice'] as const) {
    if (change[key] !== undefined && new Big(change[key]).lte(0)) rangeError(key, 'must be above 0');
  }
  for (const key of [
    'withdrawFee',
    'withdrawMin',
    'transferMin',
    'activationCardPrice',
    'activationUsdtPrice',
    'fuelRatePercent',
    'inviteRewardPoints',
    'activationFuelGift',
  ] as const) {
    if (change[key] !== undefined) out[key] = normal(change[key]);
  }
  if (change.depositNetwork !== undefined) out.depositNetwork = change.depositNetwork.toUpperCase();
  return out;
};
