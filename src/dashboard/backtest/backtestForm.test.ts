import { describe, expect, it } from 'vitest';
import type { StrategySettings } from '../../api/strategy';
import { EMPTY_SWEEP, initialForm, sweepOf, toRequest } from './backtestForm';

const settings: StrategySettings & { name: string; id: string } = {
  id: 't1',
  name: 'Mine',
  levels: [{ dropPercent: '2', multiple: '1' }],
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 0,
};
const NOW = Date.UTC(2026, 10, 24, 15);

describe('the backtest form', () => {
  it('starts on the sample for BTC/USDT and on an exchange for any other pair', () => {
    expect(initialForm({}, NOW)).toMatchObject({ source: 'sample', symbol: 'BTC/USDT', from: '2023-03-01', to: '2023-03-21', firstOrderAmount: '10', cycles: '9999', exchange: 'binance' });
    expect(initialForm({ symbol: 'ETH/USDT', exchange: 'okx', firstOrderAmount: '25', cycleCount: 3 }, NOW)).toMatchObject({ source: 'exchange', symbol: 'ETH/USDT', exchange: 'okx', from: '2026-10-25', to: '2026-11-24', firstOrderAmount: '25', cycles: '3' });
    expect(initialForm({ symbol: 'ETH/USDT', exchange: 'paper' }, NOW).exchange).toBe('binance');
  });

  it('makes the request: the settings alone, whole UTC days, the fee in percent as a fraction', () => {
    const form = { ...initialForm({ symbol: 'SOL/USDT' }, NOW), feePercent: '0.075', feeAsset: 'quote' as const, minCost: '5' };
    expect(toRequest(form, settings)).toEqual({
      request: {
        settings: { levels: settings.levels, takeProfitPercent: '1.5', takeProfitCallbackPercent: '0', replenishCallbackPercent: '0', stopLossPercent: null, cooldownSeconds: 0 },
        symbol: 'SOL/USDT',
        source: { kind: 'exchange', exchange: 'binance', interval: '1m' },
        from: '2026-10-25T00:00:00.000Z',
        to: '2026-11-25T00:00:00.000Z',
        firstOrderAmount: '10',
        firstOrderMultiple: false,
        cycleCount: 9999,
        fill: 'close',
        market: { feeRate: '0.00075', feeAsset: 'quote', minCost: '5' },
      },
    });
  });

  it('names the first field that is not right yet', () => {
    const form = initialForm({}, NOW);
    expect(toRequest({ ...form, firstOrderAmount: '0' }, settings)).toEqual({ problem: 'firstOrderAmount' });
    expect(toRequest({ ...form, cycles: '10000' }, settings)).toEqual({ problem: 'cycles' });
    expect(toRequest({ ...form, from: '2023-03-10', to: '2023-03-09' }, settings)).toEqual({ problem: 'range' });
    expect(toRequest({ ...form, source: 'upload' }, settings)).toEqual({ problem: 'upload' });
    expect(toRequest({ ...form, source: 'exchange', symbol: 'BTCUSDT' }, settings)).toEqual({ problem: 'symbol' });
    expect(toRequest({ ...form, feePercent: '100' }, settings)).toEqual({ problem: 'market' });
    // On the sample the pair is the sample's whatever was typed.
    expect(toRequest({ ...form, symbol: 'ETH/USDT' }, settings)).toMatchObject({ request: { symbol: 'BTC/USDT' } });
  });

  it('turns the typed lists into variants, at most 50', () => {
    expect(sweepOf(EMPTY_SWEEP, settings)).toEqual({ variants: [], count: 0 });
    expect(sweepOf({ ...EMPTY_SWEEP, takeProfitPercent: '1, 2，2 3' }, settings)?.variants.map((v) => v.label)).toEqual(['TP 1', 'TP 2', 'TP 3']);
    expect(sweepOf({ ...EMPTY_SWEEP, takeProfitPercent: '1, x' }, settings)).toBeNull();
    const many = sweepOf({ ...EMPTY_SWEEP, takeProfitPercent: '1 2 3 4 5 6 7 8', amountScale: '1 2 3 4 5 6 7' }, settings);
    expect(many).toEqual({ variants: [], count: 56 });
  });
});
