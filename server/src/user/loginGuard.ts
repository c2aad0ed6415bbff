import { sql } from 'kysely';
import type { Db } from '../db/database';
import { tooManyAttempts } from '../http/errors';

/**
 * Wrong logins slow the next guess down without letting a stranger lock
 * anyone out (issue 26). Failures are counted per key in `login_failures`
 * (migration 026) with the time of the last one; after `free` failures the
 * next attempt must wait `baseSeconds * 2^(failures - free - 1)`, at most
 * `capSeconds`, after the last failure. A count is forgotten a day after its
 * last failure, and on a success (the account's own keys) or a password reset.
 *
 * - an account from one address: 3 free, then 1 s, 2 s, 4 s … up to 15
 *   minutes. This is what slows one guesser; the owner at another address
 *   does not see it.
 * - an address, whatever the accounts: 20 free, then doubling up to 15
 *   minutes (credential stuffing from one address).
 * - an account from anywhere: 20 free, then doubling up to 5 minutes (many
 *   addresses guessing one account). This one a stranger's failures do
 *   reach, so `canBypassAccountDelay` lets a login that proves more than a
 *   password (a trusted device, a second factor) through it.
 *
 * Every refusal is 10009 with `retryAfter` (localized by the browser).
 */

export interface DelayRule {
  key: string;
  free: number;
  baseSeconds: number;
  capSeconds: number;
}

export const PAIR_RULE = { free: 3, baseSeconds: 1, capSeconds: 900 } as const;
export const ADDRESS_RULE = { free: 20, baseSeconds: 1, capSeconds: 900 } as const;
export const ACCOUNT_RULE = { free: 20, baseSeconds: 1, capSeconds: 300 } as const;
/** Attempts of one account from one address judged at once in this process (a double click passes; a burst does not). */
const IN_FLIGHT_PER_PAIR = 2;
const FORGET_AFTER = '1 day';
const PURGE_EVERY_MS = 10 * 60_000;
const REMEMBERED_MAX = 10_000;

/** The seconds to wait after `failures` failures under a rule. */
export const delaySeconds = (failures: number, rule: Omit<DelayRule, 'key'>): number =>
  failures <= rule.free ? 0 : Math.min(rule.capSeconds, rule.baseSeconds * 2 ** Math.min(30, failures - rule.free - 1));

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export const loginKeys = (email: string, ip: string) => ({
  pair: `pair:${email} ${ip}`,
  account: `account:${email}`,
  address: `address:${ip}`,
});

/** What a bypass decision can look at: the account (when it exists), the caller and its request headers. */
export interface BypassContext {
  userId: string | null;
  email: string;
  ip: string;
  headers: Record<string, string | string[] | undefined>;
  /** The trusted-device cookie the browser sent, if any. */
  deviceToken?: string | undefined;
}

/**
 * May this login pass the account-wide delay (the one strangers' failures
 * build up)? The accounts service passes one that says yes for a request
 * carrying a valid trusted-device token of this user (issued after a second
 * factor, 30 days). The password is still checked, and the per-address
 * delays still apply. Without it no login bypasses the delay.
 */
export const canBypassAccountDelay = async (_context: BypassContext): Promise<boolean> => false;

export interface LoginCheck {
  /** Failures of the caller's address lately: the hashing queue serves cleaner addresses first. */
  addressFailures: number;
  /** Give back the in-flight place (always call, after the attempt is judged or failed). */
  done(): void;
}

export const createLoginGuard = (db: Db, options: { bypass?: (context: BypassContext) => Promise<boolean> } = {}) => {
  const bypass = options.bypass ?? canBypassAccountDelay;
  /** Keys this process knows must wait, and until when (epoch ms): a flood of refused attempts costs no query. */
  const waitUntil = new Map<string, number>();
  const inFlight = new Map<string, number>();
  let lastPurge = Date.now();

  const remember = (key: string, seconds: number) => {
    if (waitUntil.size >= REMEMBERED_MAX) waitUntil.clear();
    waitUntil.set(key, Date.now() + seconds * 1000);
  };
  const knownWait = (keys: readonly string[]): number => {
    const now = Date.now();
    let wait = 0;
    for (const key of keys) {
      const until = waitUntil.get(key);
      if (until === undefined) continue;
      if (until <= now) waitUntil.delete(key);
      else wait = Math.max(wait, Math.ceil((until - now) / 1000));
    }
    return wait;
  };
  const rulesOf = (email: string, ip: string, demo: boolean): DelayRule[] => {
    const keys = loginKeys(email, ip);
    // The shared demo account's password is public: guessing it gains nothing, and a visitor's typos must not
    // keep the next visitor behind the same address out. Only the address's own rule (every account) applies.
    if (demo) return [{ key: keys.address, ...ADDRESS_RULE }];
    return [
      { key: keys.pair, ...PAIR_RULE },
      { key: keys.address, ...ADDRESS_RULE },
      { key: keys.account, ...ACCOUNT_RULE },
    ];
  };

  return {
    /** Before anything is stored for a request (its nonce): refuse from memory when this process knows the wait. */
    refuseIfKnownWaiting(email: string, ip: string): void {
      const keys = loginKeys(email, ip);
      const wait = knownWait([keys.pair, keys.address]);
      if (wait > 0) tooManyAttempts(wait);
    },

    /** Refuses with 10009 while a delay of the caller's keys runs; else holds an in-flight place of the pair. */
    async check(email: string, ip: string, context: { demo: boolean; userId: () => Promise<string | null>; headers: BypassContext['headers']; deviceToken?: string | undefined }): Promise<LoginCheck> {
      const keys = loginKeys(email, ip);
      const known = knownWait([keys.pair, keys.address]);
      if (known > 0) tooManyAttempts(known);
      if (Date.now() - lastPurge > PURGE_EVERY_MS) {
        lastPurge = Date.now();
        await db.deleteFrom('login_failures').where('last_failure_at', '<', sql<Date>`now() - ${FORGET_AFTER}::interval`).execute();
      }
      const rules = rulesOf(email, ip, context.demo);
      const rows = await db
        .selectFrom('login_failures')
        .select(['key', 'failures', sql<number>`extract(epoch from (now() - last_failure_at))::float8`.as('since')])
        .where(
          'key',
          'in',
          rules.map((rule) => rule.key),
        )
        .where('last_failure_at', '>', sql<Date>`now() - ${FORGET_AFTER}::interval`)
        .execute();
      let wait = 0;
      let accountWait = 0;
      let addressFailures = 0;
      for (const row of rows) {
        const rule = rules.find((r) => r.key === row.key)!;
        const left = Math.ceil(delaySeconds(row.failures, rule) - Number(row.since));
        if (row.key === keys.address) addressFailures = row.failures;
        if (left <= 0) continue;
        if (row.key === keys.account) accountWait = left;
        else {
          wait = Math.max(wait, left);
          remember(row.key, left);
        }
      }
      if (wait > 0) tooManyAttempts(wait);
      if (accountWait > 0 && !(await bypass({ userId: await context.userId(), email, ip, headers: context.headers, deviceToken: context.deviceToken }))) tooManyAttempts(accountWait);
      const running = inFlight.get(keys.pair) ?? 0;
      if (running >= IN_FLIGHT_PER_PAIR) tooManyAttempts(1);
      inFlight.set(keys.pair, running + 1);
      let released = false;
      return {
        addressFailures,
        done() {
          if (released) return;
          released = true;
          const left = (inFlight.get(keys.pair) ?? 1) - 1;
          if (left > 0) inFlight.set(keys.pair, left);
          else inFlight.delete(keys.pair);
        },
      };
    },

    /** A wrong password (or unknown email, or disabled account): one more failure on each of the caller's keys. */
    async failed(email: string, ip: string, demo: boolean): Promise<void> {
      const rules = rulesOf(email, ip, demo);
      const { rows } = await sql<{ key: string; failures: number }>`
        insert into login_failures as f (key, failures, last_failure_at)
        values ${sql.join(rules.map((rule) => sql`(${rule.key}, 1, now())`))}
        on conflict (key) do update
          set failures = case when f.last_failure_at < now() - ${FORGET_AFTER}::interval then 1 else f.failures + 1 end,
              last_failure_at = now()
        returning f.key, f.failures`.execute(db);
      for (const row of rows) {
        const rule = rules.find((r) => r.key === row.key)!;
        const wait = delaySeconds(row.failures, rule);
        if (wait > 0 && row.key !== loginKeys(email, ip).account) remember(row.key, wait);
      }
    },

    /** The right password: the account's run of failures (from this address and overall) ends. */
    async succeeded(email: string, ip: string): Promise<void> {
      const keys = loginKeys(email, ip);
      waitUntil.delete(keys.pair);
      await db.deleteFrom('login_failures').where('key', 'in', [keys.pair, keys.account]).execute();
    },

    /** A password reset proves the account: every count of it, from every address, is forgotten. */
    async forgetAccount(email: string): Promise<void> {
      for (const key of waitUntil.keys()) if (key.startsWith(`pair:${email} `)) waitUntil.delete(key);
      await db
        .deleteFrom('login_failures')
        .where((eb) => eb.or([eb('key', '=', `account:${email}`), eb('key', 'like', sql<string>`${`pair:${escapeLike(email)} %`}`)]))
        .execute();
    },
  };
};
export type LoginGuard = ReturnType<typeof createLoginGuard>;
