/**
 * The exchange soak (issue 27; server/test/localExchange/soak.ts): users'
 * tasks on bound Binance accounts (and --okx-tasks on OKX accounts of the
 * first users) trade through the real engine and our ccxt client against the
 * local Binance and the local OKX, with faults drawn from a seed (each kind
 * met by the engine at least --faults times) and --restarts kill -9 restarts
 * of the engine process. Prints the orders placed, duplicates, fills missing,
 * positions that disagree with the exchange, the largest weight used in a
 * minute against the limit, and how long each fault kind took to clear;
 * exits 1 when a goal fails or nothing traded.
 *
 *   npm run soak:exchange -- [--users 100] [--tasks 1000] [--okx-tasks 200] [--faults 50] [--restarts 3] [--seed 27]
 *
 * The engine runs in its own process on PostgreSQL (TEST_DATABASE_URL, or
 * BENCH_DATABASE_URL); without one, on the embedded database in this
 * process, each restart dropping the runner between two ticks.
 */
import { parseArgs } from 'node:util';
import { runExchangeSoak } from '../server/test/localExchange/soak';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '100' },
    tasks: { type: 'string', default: '1000' },
    'okx-tasks': { type: 'string', default: '200' },
    faults: { type: 'string', default: '50' },
    restarts: { type: 'string', default: '3' },
    seed: { type: 'string', default: '27' },
    'tick-ms': { type: 'string', default: '250' },
    'max-seconds': { type: 'string', default: '3600' },
  },
});

const report = await runExchangeSoak({
  users: Number(values.users),
  tasks: Number(values.tasks),
  okxTasks: Number(values['okx-tasks']),
  faultsPerKind: Number(values.faults),
  restarts: Number(values.restarts),
  seed: Number(values.seed),
  tickMs: Number(values['tick-ms']),
  maxSeconds: Number(values['max-seconds']),
  databaseUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
  progress: (line) => console.error(line),
});
console.log(JSON.stringify(report, null, 2));
if (!report.ok) {
  console.error('The soak missed a goal (or placed no order): see the figures above.');
  process.exit(1);
}
