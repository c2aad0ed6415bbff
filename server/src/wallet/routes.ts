import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { stepUpHeaders } from '../security/schemas';
import { ErrorCode } from '../../../src/api/errors';
import { WALLET_CHANNEL } from '../db/migrations/020_wallet_notices';
import { createUserCache } from '../db/userCache';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { typed } from '../http/schemas';
import { verifyPassword } from '../shared/passwords';
import type { Limit } from '../shared/throttle';
import { addAddress, addressBook, admitAddress, removeAddress, setWhitelist } from './addressBook';
import {
  addAddressSchema,
  addressBookSchema,
  removeAddressSchema,
  whitelistSchema,
  balancesSchema,
  configSchema,
  depositAddressSchema,
  depositSchema,
  listSchema,
  pointsTransferSchema,
  rechargeSchema,
  recordsSchema,
  swapSchema,
  transferSchema,
  withdrawalSchema,
  withdrawSchema,
} from './schemas';
import * as wallet from './service';

/** Wrong passwords on money-moving calls: 5 in 15 minutes per user (all such calls together), then 10009 until the window passes. */
const PASSWORD_LIMITS: Limit[] = [{ max: 5, windowSeconds: 900 }];
/** How long a password check waits for checks in flight when those fill the limit. */
const PASSWORD_WAIT_MS = 5000;

/** The user's wallet, /api/wallet/* (README "Wallet"). */
export const walletDomain: FastifyPluginAsync<{ now?: (() => number) | undefined }> = async (instance, options) => {
  const app = typed(instance);
  const { db, throttle } = instance;
  /** The deposit addresses are keyed by the server's token secret. */
  const deps = { db, addressSecret: instance.config.tokenSecret, ...(options.now ? { now: options.now } : {}) };
  app.addHook('onRequest', app.authenticate);

  /** Money leaving the wallet (a withdrawal, USDT or points to another user) is confirmed by the login password (11002). */
  const confirmPassword = async (userId: string, password: string) => {
    const throttleKey = `wallet:password:${userId}`;
    // Reserved before the password is checked; a right one gives its slot back, so concurrent
    // right ones (a retried withdrawal) wait for each other rather than being refused.
    const attempt = await throttle.take([{ key: throttleKey, limits: PASSWORD_LIMITS }], { waitMs: PASSWORD_WAIT_MS });
    let right = false;
    try {
      const row = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
      right = !!row && (await verifyPassword(password, row.password_hash));
    } catch (error) {
      await attempt.release();
      throw error;
    }
    if (!right) {
      await attempt.settle();
      fail(ErrorCode.PASSWORD_ERROR, 'wrong password', { field: 'password' });
    }
    await attempt.release();
  };

  // Balances kept per user, dropped by every write to that user's balances, whoever writes (migration 020, db/userCache.ts).
  const kept = createUserCache(db, WALLET_CHANNEL, app.log);
  app.addHook('onClose', () => kept.close());
  app.get('/api/wallet/balances', { schema: balancesSchema }, async (request) => {
    const userId = request.user!.id;
    return ok(await kept.get(userId, 'balances', () => wallet.balances(db, userId)));
  });

  app.get('/api/wallet/config', { schema: configSchema }, async () => ok(await wallet.walletConfig(db)));

  app.get('/api/wallet/deposit-address', { schema: depositAddressSchema }, async (request) =>
    ok(await wallet.depositAddress(deps, request.user!.id)),
  );

  app.post('/api/wallet/recharge', { schema: rechargeSchema }, async (request) =>
    ok(await wallet.recharge(deps, request.user!.id, request.body)),
  );

  app.get('/api/wallet/deposits', { schema: listSchema("The caller's deposits, newest first", depositSchema) }, async (request) =>
    ok(await wallet.listDeposits(db, request.user!.id, request.query)),
  );

  app.get('/api/wallet/withdrawals', { schema: listSchema("The caller's withdrawals, newest first", withdrawalSchema) }, async (request) =>
    ok(await wallet.listWithdrawals(db, request.user!.id, request.query)),
  );

  /**
   * Money leaving the wallet: not while it is held after a factor reset or a recovery-code login (11102),
   * then the second factor when one is on (step-up), then the password.
   */
  const confirmLeaving = async (request: FastifyRequest, password: string) => {
    const userId = request.user!.id;
    await app.secondFactors.refuseHeld(userId);
    await app.stepUp(request);
    await confirmPassword(userId, password);
  };

  app.post('/api/wallet/withdraw', { schema: { ...withdrawSchema, headers: stepUpHeaders } }, async (request) => {
    const { password, ...payload } = request.body;
    const userId = request.user!.id;
    await confirmLeaving(request, password);
    // The whitelist and the new address's 24 hours (addressBook.ts): a first use is kept in the book although refused.
    await admitAddress(deps, userId, payload.address);
    return ok(await wallet.withdraw(deps, userId, { amount: payload.amount, address: payload.address, idempotencyKey: payload.idempotencyKey }));
  });

  app.post('/api/wallet/transfer', { schema: { ...transferSchema, headers: stepUpHeaders } }, async (request) => {
    const { to, amount, password, idempotencyKey } = request.body;
    await confirmLeaving(request, password);
    return ok(await wallet.transfer(deps, request.user!.id, { to, amount, idempotencyKey }));
  });

  app.post('/api/wallet/exchange', { schema: swapSchema }, async (request) => {
    const { from, to, amount, idempotencyKey } = request.body;
    return ok(await wallet.swap(deps, request.user!.id, { from, to, amount, idempotencyKey }));
  });

  app.post('/api/wallet/points-transfer', { schema: { ...pointsTransferSchema, headers: stepUpHeaders } }, async (request) => {
    const { to, amount, password, idempotencyKey } = request.body;
    await confirmLeaving(request, password);
    return ok(await wallet.pointsTransfer(deps, request.user!.id, { to, amount, idempotencyKey }));
  });

  app.get('/api/wallet/records', { schema: recordsSchema }, async (request) => {
    return ok(await wallet.records(db, request.user!.id, request.query));
  });

  app.get('/api/wallet/addresses', { schema: addressBookSchema }, async (request) => ok(await addressBook(db, request.user!.id)));

  app.post('/api/wallet/addresses/add', { schema: { ...addAddressSchema, headers: stepUpHeaders } }, async (request) => {
    const { address, label, password } = request.body;
    // A change of the address book is a security change: the second factor too, when one is on.
    await app.stepUp(request);
    await confirmPassword(request.user!.id, password);
    return ok(await addAddress(deps, request.user!.id, { address, label }));
  });

  app.post('/api/wallet/addresses/remove', { schema: { ...removeAddressSchema, headers: stepUpHeaders } }, async (request) => {
    await app.stepUp(request);
    await confirmPassword(request.user!.id, request.body.password);
    return ok(await removeAddress(db, request.user!.id, request.body.id));
  });

  app.post('/api/wallet/addresses/whitelist', { schema: { ...whitelistSchema, headers: stepUpHeaders } }, async (request) => {
    const { enabled, password } = request.body;
    // Off opens withdrawals to any address: the password confirms it. On only narrows them.
    if (!enabled) {
      if (!password) fail(ErrorCode.PARAM_REQUIRED, 'the password confirms turning the whitelist off', { field: 'password' });
      await app.stepUp(request);
      await confirmPassword(request.user!.id, password!);
    }
    return ok(await setWhitelist(db, request.user!.id, enabled));
  });
};
