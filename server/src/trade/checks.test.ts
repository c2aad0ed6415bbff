import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import type { StrategySettings } from '../../../src/api/strategy';
import { BusinessError } from '../http/errors';
import { checkTaskCanRun, ladderProblem, smallestFirstOrder, type CheckedMarket } from './checks';

/** Binance's BTC/USDT rules: step 0.00001, minimum 0.00001 BTC and 5 USDT. */
const btc: CheckedMarket = { symbol: 'BTC/USDT', precision: { amount: '0.00001' }, limits: { amount: { min: '0.00001' }, cost: { min: '5' } } };

const strategy = (overrides: Partial<StrategySettings> = {}): StrategySettings => ({
  levels: [
    { dropPercent: '2', multiple: '1' },
    { dropPercent: '4', multiple: '2' },
  ],
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0',
  replenishCallbackPercent: '0',
  stopLossPercent: null,
  cooldownSeconds: 0,
  ...overrides,
});
const params = (firstOrderAmount: string) => ({ firstOrderAmount, firstOrderMultiple: false });

const refusal = (run: () => void) => {
  try {
    run();
  } catch (error) {
    if (error instanceof BusinessError) return { code: error.code, message: error.message, data: error.data as Record<string, unknown> };
    throw error;
  }
  return null;
};

describe('the pre-start checks', () => {
  it('passes a ladder whose every buy and every sale the exchange takes', () => {
    expect(ladderProblem(btc, '90000', params('10'), strategy(), '0.001')).toBeNull();
  });

  it('finds a position that could be bought but not sold: the fee in the coin and the step take it under the minimum', () => {
    // 6 USDT buys 0.00006 BTC (5.40 USDT, enough to buy); net of its fee 0.00005994, rounded down 0.00005: 4.57 USDT at take profit.
    const problem = ladderProblem(btc, '90000', params('6'), strategy(), '0.001');
    expect(problem).toEqual({ side: 'sell', level: 0, at: 'take_profit', quantity: '0.00005', price: expect.any(String), value: expect.any(String) });
    expect(new Big(problem!.value).lt('5.25')).toBe(true);
  });

  it('checks the sale at the stop-loss price too', () => {
    expect(ladderProblem(btc, '90000', params('12'), strategy(), '0.001')).toBeNull();
    const problem = ladderProblem(btc, '90000', params('12'), strategy({ stopLossPercent: '60' }), '0.001');
    expect(problem).toMatchObject({ side: 'sell', level: 0, at: 'stop_loss' });
  });

  it('finds a buy below the minimum, and the smallest first order that passes the whole ladder', () => {
    expect(ladderProblem(btc, '90000', params('4'), strategy(), '0.001')).toMatchObject({ side: 'buy', level: 0, quote: '4' });
    const smallest = smallestFirstOrder(btc, '90000', params('4'), strategy(), '0.001')!;
    expect(ladderProblem(btc, '90000', params(smallest), strategy(), '0.001')).toBeNull();
    expect(ladderProblem(btc, '90000', params(new Big(smallest).minus('0.01').toFixed()), strategy(), '0.001')).not.toBeNull();
    expect(smallestFirstOrder(btc, '90000', params('50'), strategy(), '0.001')).toBe('50');
  });

  it('refuses with 10002 and the figures: the side, the level, the minimums and the smallest first order', () => {
    const refused = refusal(() => checkTaskCanRun(btc, '90000', params('6'), strategy(), '10000', '0.001'));
    expect(refused).toMatchObject({ code: 10002, data: { reason: 'below_min_order', side: 'sell', level: 0, at: 'take_profit', minAmount: '0.00001', minCost: '5.25' } });
    expect(ladderProblem(btc, '90000', params(refused!.data.minFirstOrder as string), strategy(), '0.001')).toBeNull();
  });

  it("refuses a take profit under the round trip's fees at the account's rate, with the floor", () => {
    // 0.3 % clears the 0.25 % floor at a 0.1 % fee, not the 0.35 % floor at OKX's 0.15 %.
    const thin = strategy({ takeProfitPercent: '0.3' });
    expect(refusal(() => checkTaskCanRun(btc, '90000', params('10'), thin, '10000', '0.001'))).toBeNull();
    expect(refusal(() => checkTaskCanRun(btc, '90000', params('10'), thin, '10000', '0.0015'))).toMatchObject({
      code: 10002,
      data: { reason: 'take_profit_floor', floor: '0.35', takeProfit: '0.3' },
    });
    // After its callback: armed at 1 %, sold 0.8 % lower: 0.192 %.
    expect(refusal(() => checkTaskCanRun(btc, '90000', params('10'), strategy({ takeProfitPercent: '1', takeProfitCallbackPercent: '0.8' }), '10000', '0.001'))).toMatchObject({
      data: { reason: 'take_profit_floor', takeProfit: '0.192' },
    });
  });

  it('refuses a stop loss that the fee-inclusive average would trigger before the last level', () => {
    // One level at 5 %: a stop loss of 5.05 % on the average (first price x 1.001 with the fee) fires at 95.045 % of the first price, before the level.
    const early = strategy({ levels: [{ dropPercent: '5', multiple: '1' }], stopLossPercent: '5.05' });
    expect(refusal(() => checkTaskCanRun(btc, '90000', params('10'), early, '10000', '0.001'))).toMatchObject({ code: 10002, data: { reason: 'stop_loss_deeper', level: 1 } });
    expect(refusal(() => checkTaskCanRun(btc, '90000', params('10'), { ...early, stopLossPercent: '5.2' }, '10000', '0.001'))).toBeNull();
  });

  it('checks the funds a full cycle needs, fees included', () => {
    expect(refusal(() => checkTaskCanRun(btc, '90000', params('10'), strategy(), '40', '0.001'))).toMatchObject({
      code: 11003,
      data: { reason: 'insufficient_funds', required: '40.04', available: '40' },
    });
  });
});
