import Big from 'big.js';

/**
 * The marked-to-market profit of a backtest (realized profit plus the
 * position's value minus its cost) and its largest fall from a high, exactly
 * in decimals, without a decimal per price.
 *
 * Every price is first screened in floats: the profit's float estimate is off
 * by far less than SCREEN (a billionth of the amounts involved), so only a
 * price whose estimate comes within SCREEN of a new high or of a new largest
 * fall is computed in decimals. Those records are exact; every other price
 * provably changes neither.
 */
const SCREEN = 1e-9;

export const createEquityTracker = () => {
  let realized = new Big(0);
  let quantity = new Big(0);
  let cost = new Big(0);
  let holding = false;
  // Floats of the same, for the screen.
  let realizedF = 0;
  let quantityF = 0;
  let costF = 0;
  let peak = new Big(0);
  let peakF = 0;
  let maxDrawdown = new Big(0);
  let maxDrawdownF = 0;

  const equityAt = (price: string): Big => realized.plus(quantity.times(price)).minus(cost);

  const observe = (price: string, priceNumber: number) => {
    const value = quantityF * priceNumber;
    const estimate = realizedF + value - costF;
    const margin = SCREEN * (Math.abs(value) + Math.abs(costF) + Math.abs(realizedF)) + 1e-12;
    if (estimate < peakF - margin && peakF - estimate < maxDrawdownF - margin) return;
    const equity = equityAt(price);
    if (equity.gt(peak)) {
      peak = equity;
      peakF = Number(equity);
    }
    const drawdown = peak.minus(equity);
    if (drawdown.gt(maxDrawdown)) {
      maxDrawdown = drawdown;
      maxDrawdownF = Number(drawdown);
    }
  };

  return {
    equityAt,
    /** After a fill: the new position and realized profit, at the fill's price. */
    position(nextRealized: Big, nextQuantity: string, nextCost: string, price: string, priceNumber: number) {
      realized = nextRealized;
      quantity = new Big(nextQuantity);
      cost = new Big(nextCost);
      holding = quantity.gt(0);
      realizedF = Number(realized);
      quantityF = Number(quantity);
      costF = Number(cost);
      observe(price, priceNumber);
    },
    /** A price the market went through. Without a position the profit does not move with it. */
    price(price: string, priceNumber: number) {
      if (holding) observe(price, priceNumber);
    },
    maxDrawdown: () => maxDrawdown,
  };
};
