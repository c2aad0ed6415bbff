import { describe, expect, it } from 'vitest';
import type { PresetFiguresAnswer } from '../../api/backtest';
import { firstOrderForInvestment, type StrategySettings } from '../../api/strategy';
import { presetShortfall } from './presetMinimum';

/** Binance's BTC/USDT minimums: 0.00001 BTC and 5 USDT a order. */
const answer: Pick<PresetFiguresAnswer, 'symbol' | 'market' | 'lastPrice'> = {
  symbol: 'BTC/USDT',
  market: { feeRate: '0.001', feeAsset: 'received', amountStep: '0.00001', minAmount: '0.00001', minCost: '5' },
  lastPrice: '90000',
};
/** An aggressive ladder: 1 + 1 + 2 + 4 + 8 + 16 + 32 + 64 first orders a cycle (128.13 with fees). */
const aggressive: StrategySettings = {
  levels: [1, 2, 4, 8, 16, 32, 64].map((multiple, i) => ({ dropPercent: String(2 * (i + 1)), multiple: String(multiple) })),
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 0,
};
const invest = (amount: string, pairs = 1) => ({ firstOrderAmount: null, invest: { amount, pairs }, firstOrderMultiple: false });

describe('a preset at the wizard sizing', () => {
  it('500 USDT on an aggressive ladder: a 3.90 USDT first order the exchange refuses, and the smallest sum that passes', () => {
    const short = presetShortfall(answer, aggressive, invest('500'))!;
    expect(short).toMatchObject({ firstOrder: '3.90', minCost: '5' });
    expect(Number(short.minFirstOrder)).toBeGreaterThan(5);
    // The smallest sum: it derives a first order that passes, and a dollar less does not.
    expect(firstOrderForInvestment(aggressive, short.minInvest!, 1)).toBe(Number(short.minFirstOrder).toFixed(2));
    expect(presetShortfall(answer, aggressive, invest(short.minInvest!))).toBeNull();
    expect(presetShortfall(answer, aggressive, invest(String(Number(short.minInvest) - 1)))).not.toBeNull();
    // Over two pairs the sum is shared: one pair's smallest sum is not enough, the two pairs' is.
    const two = presetShortfall(answer, aggressive, invest('500', 2))!.minInvest!;
    expect(presetShortfall(answer, aggressive, invest(short.minInvest!, 2))).not.toBeNull();
    expect(presetShortfall(answer, aggressive, invest(two, 2))).toBeNull();
  });

  it('by a first order: none below the minimum, the minimum when below; nothing before a sum is given', () => {
    expect(presetShortfall(answer, aggressive, { firstOrderAmount: '10', invest: null, firstOrderMultiple: false })).toBeNull();
    const short = presetShortfall(answer, aggressive, { firstOrderAmount: '4', invest: null, firstOrderMultiple: false })!;
    expect(short).toMatchObject({ firstOrder: '4', minInvest: null });
    expect(presetShortfall(answer, aggressive, { firstOrderAmount: short.minFirstOrder!, invest: null, firstOrderMultiple: false })).toBeNull();
    expect(presetShortfall(answer, aggressive, { firstOrderAmount: '', invest: null, firstOrderMultiple: false })).toBeNull();
    // A sum too small for a cent: a first order of 0, refused, with the smallest that passes.
    expect(presetShortfall(answer, aggressive, invest('0.5'))!.minFirstOrder).toBe(short.minFirstOrder);
  });
});
