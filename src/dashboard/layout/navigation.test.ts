import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { MenuEntry } from '../domain';
import { tabOf } from './navigation';

const tab = (to: string, order: number): MenuEntry => ({ to, labelKey: to, icon: createElement('span'), place: 'tab', order });
const TABS = [tab('/', 10), tab('/trade', 20), tab('/strategy', 30), tab('/profile', 40)];

describe('bottom tab of a page', () => {
  it.each([
    ['/', '/'],
    ['/trade', '/trade'],
    ['/trade/detail/7', '/trade'],
    ['/strategy/edit/3', '/strategy'],
    ['/profile/wallet/recharge', '/profile'],
    ['/exchange', null],
    ['/article/5', null],
  ])('%s belongs to %s', (path, expected) => {
    expect(tabOf(path, TABS)).toBe(expected);
  });
});
