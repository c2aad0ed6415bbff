import { describe, expect, it } from 'vitest';
import { notificationFigures } from './notifyFigures';

describe("a notification's figures", () => {
  it('reads in the one number format: USDT to the cent, prices to six digits, signed profits, wallet assets in their decimals', () => {
    expect(notificationFigures({ side: 'buy', level: 0, price: '90010.8249', amount: '9.9011902', cycle: 1 }, 'zh-CN')).toEqual({ price: '90,010.82', amount: '9.90' });
    expect(notificationFigures({ cycle: 3, profit: '0.1234567', roi: '1.246', seconds: 60 }, 'en-US')).toEqual({ profit: '+0.12', roi: '+1.25' });
    expect(notificationFigures({ price: '0.0000123456', amount: '2.5', quantity: '202500.12345678', profit: '-1.5' }, 'zh-TW')).toEqual({
      price: '0.0000123456',
      amount: '2.50',
      quantity: '202,500.12',
      profit: '-1.50',
    });
    expect(notificationFigures({ amount: '10000.12345678', asset: 'USDT' }, 'en-US')).toEqual({ amount: '10,000.12345678' });
    expect(notificationFigures({ amount: '3', asset: 'CARD' }, 'en-US')).toEqual({ amount: '3' });
  });

  it('leaves out what the payload lacks, and keeps a text that is not a number as it is', () => {
    expect(notificationFigures({ reason: 'funds', roi: null }, 'en-US')).toEqual({});
    expect(notificationFigures({ amount: 'n/a' }, 'en-US')).toEqual({ amount: 'n/a' });
  });
});
