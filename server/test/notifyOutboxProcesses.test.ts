import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { EVENT_ID_HEADER, sealWebhookSecret } from '../src/notify/channels/webhook';
import { recordEvents } from '../src/notify/events';
import { startWebhookReceiver, type ReceivedHook } from './fakes/webhookReceiver';
import { channelDb } from './notifyFixtures';

/**
 * Two outbox worker processes on one PostgreSQL (outboxProcess.ts), one
 * killed with SIGKILL while its webhook request is in flight: every event is
 * delivered, and the receiver accepts each event id once. The killed
 * process's request is the only one sent again, with the same event id (the
 * receiver's idempotency key), once its lease has passed.
 */
const url = process.env.TEST_DATABASE_URL;
const USERS = 30;

describe.skipIf(!url)('outbox worker processes sharing one PostgreSQL', () => {
  const children: ChildProcess[] = [];
  let fixture: Awaited<ReturnType<typeof channelDb>> | undefined;
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await fixture?.close();
  });

  const startWorker = (schema: string, masterKey: string) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join('server', 'test', 'outboxProcess.ts')], {
      cwd: process.cwd(),
      env: { ...process.env, OUTBOX_DATABASE_URL: url, OUTBOX_SCHEMA: schema, OUTBOX_MASTER_KEY: masterKey, OUTBOX_LEASE_MS: '1500' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk) => (output += String(chunk)));
    child.stderr!.on('data', (chunk) => (output += String(chunk)));
    const lines = () => output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { ready?: number; sending?: string });
    const sending = () => lines().flatMap((line) => (line.sending ? [line.sending] : []));
    return { child, sending, output: () => output, ready: () => lines().some((line) => line.ready) };
  };

  it('a process killed mid-delivery: every event delivered, each accepted once', async () => {
    fixture = await channelDb('postgres');
    const { db } = fixture;
    const masterKey = randomBytes(32).toString('hex');
    let killed: string | undefined;
    let victim: ReturnType<typeof startWorker> | undefined;
    // Kills the first worker while the receiver holds its fourth request, before answering it.
    const receiver = await startWebhookReceiver({
      delayMs: 30,
      beforeAnswer: async (hook: ReceivedHook) => {
        const id = String(hook.headers[EVENT_ID_HEADER]);
        if (killed || !victim || victim.sending().length < 4 || victim.sending().at(-1) !== id) return;
        killed = id;
        const exited = new Promise((resolve) => victim!.child.once('exit', resolve));
        victim.child.kill('SIGKILL');
        await exited;
        await vi.waitFor(() => expect(hook.aborted).toBe(true), { timeout: 2000, interval: 10 });
      },
    });
    try {
      const users: string[] = [];
      for (let i = 0; i < USERS; i += 1) {
        const row = await db
          .insertInto('users')
          .values({ email: `kill${i}@example.com`, nickname: `Pat ${i}`, password_hash: 'x', invite_code: randomBytes(4).toString('hex') })
          .returning('id')
          .executeTakeFirstOrThrow();
        users.push(row.id);
      }
      await db.insertInto('webhooks').values(users.map((user) => ({ user_id: user, url: receiver.url, secret_ciphertext: sealWebhookSecret(masterKey, user, `whsec_${user}`) }))).execute();

      victim = startWorker(fixture.schema, masterKey);
      const survivor = startWorker(fixture.schema, masterKey);
      await vi.waitFor(() => expect(victim!.ready() && survivor.ready()).toBe(true), { timeout: 20_000, interval: 50 });
      await db.transaction().execute((trx) =>
        recordEvents(trx, users.map((user) => ({ userId: user, kind: 'trade.cycle_closed', taskId: null, payload: { cycle: 1, profit: '1.82', roi: '0.91', seconds: 60, symbol: 'BTC/USDT' } }))),
      );
      const events = (await db.selectFrom('notification_events').select('id').execute()).map((row) => String(row.id));
      expect(events).toHaveLength(USERS);

      await vi.waitFor(
        async () => expect((await db.selectFrom('notification_deliveries').select('status').execute()).map((row) => row.status)).toEqual(Array(USERS).fill('sent')),
        { timeout: 15_000, interval: 100 },
      );
      expect(killed).toBeDefined();
      expect(victim.child.signalCode).toBe('SIGKILL');
      // Both processes delivered.
      expect(survivor.sending().length).toBeGreaterThan(0);
      expect(survivor.sending()).toContain(killed);

      const idOf = (hook: ReceivedHook) => String(hook.headers[EVENT_ID_HEADER]);
      const accepted = receiver.received.filter((hook) => hook.answered === 200).map(idOf);
      expect([...accepted].sort()).toEqual([...events].sort());
      // The one request in flight when its process died was not answered, and was sent again with its event id.
      const unanswered = receiver.received.filter((hook) => hook.answered === undefined);
      expect(unanswered.map(idOf)).toEqual([killed]);
      expect(unanswered[0]!.aborted).toBe(true);
      expect(receiver.received).toHaveLength(USERS + 1);
      const retried = await db.selectFrom('notification_deliveries').select(['message_key', 'attempts']).where('attempts', '>', 1).execute();
      // Claimed twice: the killed process's batch (the one in flight and those it had not reached), each sent once.
      expect(retried.map((row) => String(row.message_key))).toContain(killed);
      expect(retried.length).toBeLessThanOrEqual(5);
      expect(retried.every((row) => row.attempts === 2)).toBe(true);
    } finally {
      await receiver.close();
    }
  }, 45_000);
});
