import { describe, expect, it } from 'vitest';
import { tabOf } from './navigation';

describe('bottom tab of a page', () => {
  it.each([
    ['/', '/'],
    ['/trade', '/trade'],
    ['/trade/detail/7', '/trade'],
    ['/strategy/edit/3', '/strategy'],
    ['/profile/wallet/recharge', '/profile'],
    ['/exchange', null],
    ['/article/5', null],
  ])('%s belongs to %s', (path, tab) => {
    expect(tabOf(path)).toBe(tab);
  });
});
