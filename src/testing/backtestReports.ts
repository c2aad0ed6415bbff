/**
 * Backtest reports for the dashboard's tests, computed by the server's own
 * backtest code from the request the page sends, so a test reads what the
 * server would answer.
 */
import type { BacktestReport, BacktestRequest } from '../api/backtest';
import { backtestReport } from '../../server/src/backtest/report';
import type { Candle } from '../../server/src/engine/core/candles';

/** Two days of minutes from 1 March 2023 that swing and end 6 % above where they began. */
export const risingSwingCandles: Candle[] = Array.from({ length: 2880 }, (_, i) => {
  const price = (p: number) => (20_000 * (1 + 0.06 * (i / 2879)) * (1 + 0.02 * Math.sin(i / 120) + 0.003 * Math.sin(i * 1.7 + p))).toFixed(2);
  const [open, close, a, b] = [price(0), price(1), price(2), price(3)];
  const values = [open, close, a, b].map(Number);
  return { time: Date.UTC(2023, 2, 1) + i * 60_000, open, high: Math.max(...values).toFixed(2), low: Math.min(...values).toFixed(2), close, volume: '1' };
});

/** The report the server computes for `body` on these minute candles (the market's rules as the paper exchange's BTC/USDT, unless the request names them). */
export const reportOn = (candles: Candle[], body: BacktestRequest): BacktestReport =>
  backtestReport({
    candles,
    interval: 60_000,
    symbol: body.symbol,
    settings: body.settings!,
    firstOrderAmount: body.firstOrderAmount,
    firstOrderMultiple: body.firstOrderMultiple ?? false,
    cycleCount: body.cycleCount ?? 9999,
    market: { feeRate: '0.001', feeAsset: 'received', amountStep: '0.00001', minAmount: '0.00001', minCost: '5', ...body.market },
    fill: body.fill ?? 'close',
    variants: body.variants ?? [],
    rankBy: body.rankBy ?? 'returnPercent',
  });
