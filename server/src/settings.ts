import type { ServiceSettings } from '../../src/api/admin';
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
