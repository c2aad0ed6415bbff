import { describe, expect, it } from 'vitest';
import { ApiError } from '../../dataProvider/ApiError';
import { formatBalances, refusalExplanation, refusedField, suggestedName } from './exchangeText';

const t = (key: string) => `<${key}>`;
const refusal = (code: number, data: unknown) => new ApiError({ kind: 'business', code, data });

describe('exchange texts', () => {
  it('explains the reasons it knows, and only those', () => {
    expect(refusalExplanation(refusal(30102, { exchange: 'okx', reason: 'can_withdraw' }), t)).toBe('<exchange.reason.can_withdraw>');
    expect(refusalExplanation(refusal(20002, { exchange: 'okx', reason: 'clock_skew' }), t)).toBe('<exchange.reason.clock_skew>');
    expect(refusalExplanation(refusal(10008, { field: 'id', reason: 'in_use' }), t)).toBe('<exchange.reason.in_use>');
    expect(refusalExplanation(refusal(30102, { reason: 'something_new' }), t)).toBeNull();
    expect(refusalExplanation(refusal(30102, { reason: 'toString' }), t)).toBeNull();
    expect(refusalExplanation(refusal(10007, null), t)).toBeNull();
    expect(refusalExplanation(new Error('boom'), t)).toBeNull();
  });

  it('says when to try again when the exchange limits our requests until a known time', () => {
    const translate = (key: string, options?: Record<string, unknown>) => `<${key}|${String(options?.time ?? '')}>`;
    const until = '2026-11-27T04:13:30.000Z';
    const text = refusalExplanation(refusal(20002, { exchange: 'binance', reason: 'exchange_busy', until }), translate, 'zh-CN');
    expect(text).toMatch(/^<exchange\.reason\.exchange_busy_until\|\d{2}:\d{2}>$/);
    // Without a time (or with one that is not a time), the general words.
    expect(refusalExplanation(refusal(20002, { reason: 'exchange_busy', until: 'soon' }), t)).toBe('<exchange.reason.exchange_busy>');
    expect(refusalExplanation(refusal(20002, { reason: 'exchange_busy' }), t)).toBe('<exchange.reason.exchange_busy>');
  });

  it('reads the refused field', () => {
    expect(refusedField(refusal(10007, { field: 'name' }))).toBe('name');
    expect(refusedField(refusal(10000, { field: 'password' }))).toBe('password');
    expect(refusedField(refusal(30102, { reason: 'invalid_key' }))).toBeNull();
  });

  it('suggests a name nobody uses yet, whatever the letter case', () => {
    expect(suggestedName('OKX', [])).toBe('OKX');
    expect(suggestedName('OKX', ['okx', 'OKX 2'])).toBe('OKX 3');
  });

  it('formats virtual balances for the reader', () => {
    expect(formatBalances({ USDT: '10000' }, 'en-US')).toBe('10,000 USDT');
    expect(formatBalances({ USDT: '2500.5', BTC: '0.01' }, 'zh-CN')).toBe('2,500.5 USDT, 0.01 BTC');
  });
});
