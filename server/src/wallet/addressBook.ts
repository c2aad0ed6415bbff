import { ErrorCode } from '../../../src/api/errors';
import { NEW_ADDRESS_WAIT_HOURS, type WithdrawalAddress, type WithdrawalAddressBook } from '../../../src/api/wallet';
import type { Db } from '../db/database';
import { fail } from '../http/errors';
import { recordEvents } from '../notify/events';
import { readSettings } from '../settings';
import { isDemoUser, refuseDemoUser } from '../shared/demoGuard';
import { depositAddressFor, isTronAddress } from './address';

/**
 * The user's withdrawal address book (README "Wallet", safe withdrawals): the
 * optional whitelist over it, and the 24 hours a new address waits before its
 * first use. An address enters the book when the user adds it or, with the
 * whitelist off, when a withdrawal names it for the first time; either way
 * the user is told at once (in the app and by e-mail). Removing an address or
 * turning the whitelist off is a security change (told, and confirmed by the
 * login password in the routes). The shared demo account changes none of it.
 */

export const NEW_ADDRESS_WAIT_MS = NEW_ADDRESS_WAIT_HOURS * 3_600_000;

export interface AddressBookDeps {
  db: Db;
  addressSecret: string;
  now?: () => number;
}

type Row = { id: string; address: string; label: string; network: string; created_at: Date; usable_at: Date };
const COLUMNS = ['id', 'address', 'label', 'network', 'created_at', 'usable_at'] as const;

const toAddress = (row: Row): WithdrawalAddress => ({
  id: row.id,
  address: row.address,
  label: row.label,
  network: row.network,
  createdAt: new Date(row.created_at).toISOString(),
  usableAt: new Date(row.usable_at).toISOString(),
});

/** A label as stored: trimmed; no markup (it is shown in mails and pages). */
export const cleanLabel = (label: string): string => {
  const text = label.trim();
  if (/[<>]/.test(text)) fail(ErrorCode.PARAM_FORMAT, 'the label may not hold < or >', { field: 'label' });
  return text;
};

export const addressBook = async (db: Db, userId: string): Promise<WithdrawalAddressBook> => {
  const user = await db.selectFrom('users').select('withdrawal_whitelist').where('id', '=', userId).executeTakeFirstOrThrow();
  const rows = await db.selectFrom('withdrawal_addresses').select([...COLUMNS]).where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').execute();
  return { whitelist: user.withdrawal_whitelist, list: rows.map(toAddress) };
};

/** The caller's own deposit address (a withdrawal to it is refused: no use keeping it). */
const isOwnAddress = async (deps: AddressBookDeps, executor: Db, userId: string, address: string) => {
  if (address === depositAddressFor(deps.addressSecret, userId)) return true;
  const owner = await executor.selectFrom('deposit_addresses').select('user_id').where('address', '=', address).executeTakeFirst();
  return owner?.user_id === userId;
};

/** Writes an address into the book, waiting from now, and tells the user in the same transaction; null when it is there already. */
const enter = async (deps: AddressBookDeps, trx: Db, userId: string, address: string, label: string): Promise<WithdrawalAddress | null> => {
  const now = deps.now?.() ?? Date.now();
  const network = (await readSettings(trx)).depositNetwork;
  const row = await trx
    .insertInto('withdrawal_addresses')
    .values({ user_id: userId, address, label, network, created_at: new Date(now), usable_at: new Date(now + NEW_ADDRESS_WAIT_MS) })
    .onConflict((oc) => oc.columns(['user_id', 'address']).doNothing())
    .returning([...COLUMNS])
    .executeTakeFirst();
  if (!row) return null;
  const added = toAddress(row);
  await recordEvents(trx, [{ userId, kind: 'user.withdrawal_address_added', taskId: null, payload: { address, label, network, usableAt: added.usableAt } }]);
  return added;
};

export const addAddress = async (deps: AddressBookDeps, userId: string, payload: { address: string; label: string }): Promise<WithdrawalAddress> => {
  const address = payload.address.trim();
  const label = cleanLabel(payload.label);
  return deps.db.transaction().execute(async (trx) => {
    await refuseDemoUser(trx, userId, 'change its withdrawal addresses');
    if (!isTronAddress(address)) fail(ErrorCode.PARAM_FORMAT, 'not a TRC20 address', { field: 'address' });
    if (await isOwnAddress(deps, trx, userId, address)) fail(ErrorCode.INVALID, 'this is your own deposit address', { field: 'address', reason: 'own_address' });
    const added = await enter(deps, trx, userId, address, label);
    if (!added) fail(ErrorCode.ALREADY_EXISTS, 'this address is already in your address book', { field: 'address' });
    return added!;
  });
};

export const removeAddress = async (db: Db, userId: string, id: string): Promise<null> =>
  db.transaction().execute(async (trx) => {
    await refuseDemoUser(trx, userId, 'change its withdrawal addresses');
    const row = await trx.deleteFrom('withdrawal_addresses').where('id', '=', id).where('user_id', '=', userId).returning(['address']).executeTakeFirst();
    if (!row) fail(ErrorCode.PARAM_NOT_EXIST, 'this address is not in your address book', { field: 'id' });
    await recordEvents(trx, [{ userId, kind: 'user.security_changed', taskId: null, payload: { change: 'withdrawal_address_removed', address: row!.address } }]);
    return null;
  });

export const setWhitelist = async (db: Db, userId: string, enabled: boolean): Promise<WithdrawalAddressBook> => {
  await db.transaction().execute(async (trx) => {
    await refuseDemoUser(trx, userId, 'change its withdrawal whitelist');
    const before = await trx.selectFrom('users').select('withdrawal_whitelist').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
    if (before.withdrawal_whitelist === enabled) return;
    await trx.updateTable('users').set({ withdrawal_whitelist: enabled }).where('id', '=', userId).execute();
    await recordEvents(trx, [{ userId, kind: 'user.security_changed', taskId: null, payload: { change: enabled ? 'withdrawal_whitelist_on' : 'withdrawal_whitelist_off' } }]);
  });
  return addressBook(db, userId);
};

/**
 * Whether a withdrawal may go to `address` now (called before the withdrawal,
 * after the password): with the whitelist on, only to an address of the book
 * (10008 `not_whitelisted`); never before the address's `usableAt` (10008
 * `address_waiting`). With the whitelist off, an address never used before
 * enters the book here, waiting, and that is kept although the withdrawal is
 * refused. What the withdrawal itself refuses (a malformed or own address, the
 * demo account) is left to it, so it writes nothing here.
 */
export const admitAddress = async (deps: AddressBookDeps, userId: string, address: string): Promise<void> => {
  if (!isTronAddress(address) || (await isDemoUser(deps.db, userId)) || (await isOwnAddress(deps, deps.db, userId, address))) return;
  const entry = await deps.db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select('withdrawal_whitelist').where('id', '=', userId).executeTakeFirstOrThrow();
    const row = await trx.selectFrom('withdrawal_addresses').select([...COLUMNS]).where('user_id', '=', userId).where('address', '=', address).executeTakeFirst();
    if (row) return toAddress(row);
    if (user.withdrawal_whitelist) return null;
    // Entered by its first use: it waits as an added one does (a concurrent first use finds it in the book).
    return enter(deps, trx, userId, address, '');
  });
  if (!entry) {
    const again = await deps.db.selectFrom('withdrawal_addresses').select([...COLUMNS]).where('user_id', '=', userId).where('address', '=', address).executeTakeFirst();
    if (!again) fail(ErrorCode.INVALID, 'the withdrawal whitelist is on and this address is not in it', { field: 'address', reason: 'not_whitelisted' });
    return waitFor(deps, toAddress(again!));
  }
  return waitFor(deps, entry);
};

const waitFor = (deps: AddressBookDeps, entry: WithdrawalAddress) => {
  if (Date.parse(entry.usableAt) > (deps.now?.() ?? Date.now())) {
    fail(ErrorCode.INVALID, `a new withdrawal address is usable from ${entry.usableAt}`, { field: 'address', reason: 'address_waiting', usableAt: entry.usableAt });
  }
};
