import { trend, type NumberValue } from '../../api/format';

/**
 * The colour of a figure that goes up or down (profits, changes, amounts in
 * and out): the theme's `up` or `down`, which the user's 红涨绿跌 / 绿涨红跌
 * setting makes red or green; plain text when flat.
 */
export const trendColor = (value: NumberValue): 'up.main' | 'down.main' | 'text.primary' => {
  const direction = trend(value);
  return direction === 'up' ? 'up.main' : direction === 'down' ? 'down.main' : 'text.primary';
};
