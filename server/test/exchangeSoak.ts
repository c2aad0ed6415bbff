import { expect, it } from 'vitest';
import { ALL_FAULT_KINDS, runExchangeSoak } from './localExchange/soak';

/**
 * The exchange soak (`npm run soak:exchange`, localExchange/soak.ts), short
 * and seeded: users' tasks on Binance accounts trade through the real engine
 * against the local Binance (and a few on OKX accounts against the local
 * OKX) while every fault kind meets them and the engine
 * is restarted (on PostgreSQL a SIGKILL of its process in the middle of its
 * work). No order is placed twice or unknown to the engine, no fill is lost,
 * every task's position is what the exchange holds, and the weight used in a
 * minute stays within Binance's limit. Each database in its own file.
 */
export const describeExchangeSoak = (backend: 'pglite' | 'postgres') => {
  it('places every order once, loses no fill and agrees with the exchange after faults of every kind and a restart', { timeout: 60_000 }, async () => {
    const report = await runExchangeSoak({
      users: 4,
      tasks: 12,
      okxTasks: 4,
      faultsPerKind: 1,
      // Few tasks ask little: a fault queued every step, so that every kind is met within seconds.
      faultGap: 0,
      restarts: 1,
      seed: 27,
      tickMs: 200,
      // It ends as soon as every kind was met once; the cap is for a slow machine (orders now wait for the shared budget).
      maxSeconds: 35,
      databaseUrl: backend === 'postgres' ? process.env.TEST_DATABASE_URL : undefined,
    });
    const summary = JSON.stringify(report);
    expect(report.database).toBe(backend === 'postgres' ? 'postgresql' : 'pglite');
    for (const kind of ALL_FAULT_KINDS) expect(report.faults[kind].met, `${kind}: ${summary}`).toBeGreaterThanOrEqual(1);
    expect(report.restarts).toBe(1);
    // Trading happened on both sides of the faults: buys and their fills.
    expect(report.ordersPlaced, summary).toBeGreaterThan(10);
    expect(report.byExchange.okx.orders, summary).toBeGreaterThan(0);
    expect(report.fills).toBeGreaterThanOrEqual(report.ordersPlaced - report.faults.cancel_by_exchange.met);
    expect({ duplicates: report.duplicates, unknownToEngine: report.unknownToEngine, fillsMissing: report.fillsMissing, positionsDisagreeing: report.positionsDisagreeing }, summary).toEqual({
      duplicates: 0,
      unknownToEngine: 0,
      fillsMissing: 0,
      positionsDisagreeing: 0,
    });
    expect(report.peakWeightPerMinute).toBeGreaterThan(0);
    expect(report.peakWeightPerMinute).toBeLessThanOrEqual(report.weightLimit);
    expect(report.ok).toBe(true);
  });
};
