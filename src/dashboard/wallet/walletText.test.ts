import { describe, expect, it } from 'vitest';
import { ApiError } from '../../dataProvider/ApiError';
import { checkAmount, errorMessage, swapPreview, swapStep, withdrawHold } from './walletText';

describe('amount check', () => {
  it('accepts positive decimals up to the places of the asset and sends them without trailing zeros', () => {
    expect(checkAmount(' 10.50 ', { places: 8 })).toEqual({ amount: '10.5', error: null });
    expect(checkAmount('.5', { places: 8 })).toEqual({ amount: '0.5', error: null });
    expect(checkAmount('0.12345678', { places: 8 })).toEqual({ amount: '0.12345678', error: null });
    expect(checkAmount('3.000', { places: 0 })).toEqual({ amount: '3', error: null });
    // Exact, never through a float.
    expect(checkAmount('12345678901234567890.12345678', { places: 8 }).amount).toBe('12345678901234567890.12345678');
  });

  it('names what is wrong', () => {
    expect(checkAmount('', { places: 8 }).error).toEqual(['ra.validation.required']);
    expect(checkAmount('1e3', { places: 8 }).error).toEqual(['wallet.validation.number']);
    expect(checkAmount('-1', { places: 8 }).error).toEqual(['wallet.validation.number']);
    expect(checkAmount('1,5', { places: 8 }).error).toEqual(['wallet.validation.number']);
    expect(checkAmount('0.000', { places: 8 }).error).toEqual(['wallet.validation.positive']);
    expect(checkAmount('0.123456789', { places: 8 }).error).toEqual(['wallet.validation.places', { places: 8 }]);
    expect(checkAmount('1.5', { places: 0 }).error).toEqual(['wallet.validation.whole']);
    expect(checkAmount('9.99', { places: 8, min: '10' }).error).toEqual(['wallet.validation.min', { min: '10' }]);
    expect(checkAmount('10', { places: 8, min: '10' }).error).toBeNull();
  });
});

describe('swap preview', () => {
  it('multiplies by the rate exactly and rounds down to the places of what you get', () => {
    expect(swapPreview('12.345', { from: 'USDT', to: 'FUEL', rate: '1' })).toEqual({ receive: '12.345', whole: true });
    expect(swapPreview('0.3', { from: 'POINTS', to: 'FUEL', rate: '0.5' })).toEqual({ receive: '0.15', whole: true });
    expect(swapPreview('0.1', { from: 'USDT', to: 'FUEL', rate: '0.2' }).receive).toBe('0.02');
    expect(swapPreview('0.00000001', { from: 'USDT', to: 'FUEL', rate: '0.5' })).toEqual({ receive: '0', whole: false });
  });

  it('counts activation cards in whole units', () => {
    const card = { from: 'USDT', to: 'CARD', rate: '0.01' } as const;
    expect(swapPreview('300', card)).toEqual({ receive: '3', whole: true });
    expect(swapPreview('150', card)).toEqual({ receive: '1', whole: false });
    expect(swapPreview('99.99', card)).toEqual({ receive: '0', whole: false });
    expect(swapStep(card)).toBe('100');
    expect(swapStep({ from: 'USDT', to: 'FUEL', rate: '1' })).toBeNull();
  });
});

it('holds the withdrawal amount plus the fee', () => {
  expect(withdrawHold('50', '1')).toBe('51');
  expect(withdrawHold('0.1', '0.2')).toBe('0.3');
});

describe('texts of refusals and records', () => {
  const translate = ((key: string, options?: { _?: string }) =>
    ({
      'wallet.refusal.demo_account': 'DEMO-EXPLAINED',
      'wallet.refusal.own_address': 'OWN-EXPLAINED',
      'wallet.detail.reason': 'Reason',
      'wallet.reasonValue.demo_account': 'Demo starting funds',
    })[key] ?? options?._ ?? key) as Parameters<typeof errorMessage>[1];

  it('explains the wallet reasons it knows, and keeps the catalogue text for the rest', () => {
    expect(errorMessage(new ApiError({ kind: 'business', code: 11005, data: { reason: 'demo_account' } }), translate)).toBe('DEMO-EXPLAINED');
    expect(errorMessage(new ApiError({ kind: 'business', code: 10008, data: { field: 'address', reason: 'own_address' } }), translate)).toBe('OWN-EXPLAINED');
    const other = new ApiError({ kind: 'business', code: 11005, data: { reason: 'own_money' } });
    expect(errorMessage(other, translate)).toBe(other.localizedMessage());
  });
});
