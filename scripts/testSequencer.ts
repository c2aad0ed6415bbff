import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order files start in (vite.config.ts `sequence.sequencer`). Vitest
 * starts the files it has no timing for by size, largest first, so on a fresh
 * clone the long replays, whose files are a few lines handing a database to a
 * shared body, started last and ran alone while the other worker idled. The
 * files measured slowest (seconds on the 2-core CI machine, `bash .ci/run`,
 * 2026-11-26; the budget's report prints the current ten) start first, the
 * longest first; the rest keep Vitest's order.
 */
export const MEASURED_SECONDS: Record<string, number> = {
  'server/test/engineReplay.postgres.test.ts': 84,
  'server/test/engineCluster.test.ts': 44,
  'server/test/engineReplay.pglite.test.ts': 42,
  'src/dashboard/App.test.tsx': 40,
  'src/dashboard/wallet/WalletPages.test.tsx': 39,
  'server/test/engineReplay.property.pglite.test.ts': 38,
  'server/test/trade.postgres.test.ts': 34,
  'server/test/realExchangeTrading.test.ts': 33,
  'e2e/trading.test.ts': 33,
  'server/test/trade.pglite.test.ts': 33,
  'e2e/routes.zh-CN.2.test.ts': 31,
  'e2e/routes.en-US.2.test.ts': 30,
  'e2e/routes.zh-TW.2.test.ts': 29,
  'server/test/throttle.test.ts': 29,
  'server/test/engineFaults.test.ts': 29,
  'src/dashboard/backtest/BacktestPanel.test.tsx': 28,
  'server/test/taskListCache.test.ts': 27,
  'server/test/exchange.postgres.test.ts': 25,
  'server/test/exchange.pglite.test.ts': 25,
  'e2e/accountRecovery.test.ts': 25,
};

/** Files in the order to start them: the measured slowest first, longest first; the others after, in the order given. */
export const slowestFirst = <T>(files: readonly T[], path: (file: T) => string, seconds: Record<string, number> = MEASURED_SECONDS): T[] =>
  [...files].sort((a, b) => (seconds[path(b)] ?? 0) - (seconds[path(a)] ?? 0));

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    return slowestFirst(await super.sort(files), (file) => relative(root, file.moduleId));
  }
}
