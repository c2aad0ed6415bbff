/**
 * One outbox worker process of the killed-worker test
 * (notifyOutboxProcesses.test.ts): the real worker and the real webhook
 * sender on the PostgreSQL schema it is given. It prints the event id of each
 * delivery as it starts sending it, so the test can kill it (SIGKILL) in the
 * middle of one. SIGTERM stops it cleanly.
 */
import { openDatabase } from '../src/db/database';
import type { ChannelSender } from '../src/notify/channel';
import { createWebhookSender } from '../src/notify/channels/webhook';
import { startOutboxWorker } from '../src/notify/outbox';

const db = await openDatabase({ url: process.env.OUTBOX_DATABASE_URL!, schema: process.env.OUTBOX_SCHEMA! });
const webhook = createWebhookSender({ masterKey: process.env.OUTBOX_MASTER_KEY!, allowPrivateAddresses: true, timeoutMs: 5000 });
const sender: ChannelSender = {
  ...webhook,
  deliver: (handle, message) => {
    console.log(JSON.stringify({ sending: message.eventIds[0] }));
    return webhook.deliver(handle, message);
  },
};
const worker = startOutboxWorker(db, { senders: [sender], pollMs: 50, quietMs: 0, baseBackoffMs: 100, batch: 5, leaseMs: Number(process.env.OUTBOX_LEASE_MS ?? 1500) });
console.log(JSON.stringify({ ready: process.pid }));
process.on('SIGTERM', () => {
  void worker.stop().then(async () => {
    await db.destroy();
    process.exit(0);
  });
});
