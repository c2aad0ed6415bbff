/**
 * One server process's Telegram poller for notifyTelegramPolling.test.ts: the
 * real channel with exclusivePolling on the PostgreSQL schema it is given,
 * against the local Bot API. Prints whether it polls; the test kills it with
 * SIGKILL.
 */
import { openDatabase } from '../src/db/database';
import { createTelegramChannel } from '../src/notify/channels/telegram';

const db = await openDatabase({ url: process.env.POLLER_DATABASE_URL!, schema: process.env.POLLER_SCHEMA! });
const telegram = createTelegramChannel({ token: process.env.POLLER_TOKEN!, apiRoot: process.env.POLLER_API_ROOT!, pollSeconds: 1, exclusivePolling: true, lockRetryMs: 200 });
await telegram.start(db);
console.log(JSON.stringify({ ready: process.pid, polling: telegram.polling() }));
