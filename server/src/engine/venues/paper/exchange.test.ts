import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createPaperExchange,
  PaperExchangeError,
  type CreateOrderParams,
  type PaperExchange,
  type PaperFailure,
  type PaperOrder,
  type PaperPriceFeed,
} from './exchange';
import { createMarket, DEFAULT_START_MS, PAPER_MARKETS, type BestPrices, type PaperMarket } from './market';

const BTC = 'BTC/USDT';
const marketOf = (symbol: string): PaperMarket => PAPER_MARKETS.find((m) => m.symbol === symbol)!;

/** A market whose prices the test sets by hand, so fills are exact and predictable. */
const scriptedFeed = () => {
  let now = DEFAULT_START_MS;
  const quotes = new Map<string, BestPrices>(PAPER_MARKETS.map((m) => [m.symbol, { last: m.startPrice, bid: m.startPrice, ask: m.startPrice }]));
  const feed: PaperPriceFeed = {
    markets: PAPER_MARKETS,
    market: (symbol) => PAPER_MARKETS.find((m) => m.symbol === symbol),
    now: () => now,
    bestPrices: (symbol) => ({ ...quotes.get(symbol)! }),
    ticker: () => {
      throw new Error('not scripted');
    },
  };
  return {
    feed,
    set(symbol: string, bid: string, ask: string) {
      quotes.set(symbol, { last: bid, bid, ask });
      now += 1000;
    },
  };
};

/** BTC at 89 990.00 / 90 010.00, fee 0.1 %, alice with 10 000 USDT and 0.5 BTC, bob with 100 USDT. */
const setup = () => {
  const script = scriptedFeed();
  script.set(BTC, '89990.00', '90010.00');
  const exchange = createPaperExchange({
    market: script.feed,
    balances: { alice: { USDT: '10000', BTC: '0.5' }, bob: { USDT: '100' } },
  });
  return { script, exchange };
};

let counter = 0;
const order = (overrides: Partial<CreateOrderParams>): CreateOrderParams => ({
  accountId: 'alice',
  symbol: BTC,
  side: 'buy',
  type: 'market',
  clientOrderId: `t${(counter += 1)}`,
  ...overrides,
});

/** The failure a call throws, or a test failure when it does not throw one. */
const failureOf = (call: () => unknown): PaperFailure => {
  try {
    call();
  } catch (error) {
    if (error instanceof PaperExchangeError) return error.failure;
    throw error;
  }
  throw new Error('expected a refusal');
};

/** Everything an account can observe, to show that a refused call changed nothing. */
const stateOf = (exchange: PaperExchange, accounts: string[]): string =>
  JSON.stringify(accounts.map((id) => [exchange.fetchBalance(id), exchange.fetchOrders(id)]));

describe('market orders', () => {
  it('buys an amount at the ask, rounded down to the step, paying the fee in the base asset', () => {
    const { exchange } = setup();
    const o = exchange.createOrder(order({ amount: '0.012345' }));
    expect(o).toMatchObject({
      id: '1',
      symbol: BTC,
      type: 'market',
      side: 'buy',
      status: 'closed',
      price: '90010.00',
      average: '90010.00',
      amount: '0.01234',
      filled: '0.01234',
      remaining: '0.00000',
      cost: '1110.7234',
      fee: { currency: 'BTC', cost: '0.00001234', rate: '0.001' },
      timestamp: DEFAULT_START_MS + 1000,
      lastTradeTimestamp: DEFAULT_START_MS + 1000,
    });
    const balance = exchange.fetchBalance('alice');
    expect(balance.free).toEqual({ BTC: '0.51232766', USDT: '8889.2766' });
    expect(balance.used).toEqual({ BTC: '0', USDT: '0' });
    expect(balance.total).toEqual({ BTC: '0.51232766', USDT: '8889.2766' });
  });

  it('buys for a quote cost, spending at most that much', () => {
    const { exchange } = setup();
    const o = exchange.createOrder(order({ cost: '100' }));
    // 100 / 90010 = 0.0011109..., rounded down to 0.00111 BTC.
    expect(o.amount).toBe('0.00111');
    expect(o.cost).toBe('99.9111');
    expect(exchange.fetchBalance('alice').free.USDT).toBe('9900.0889');
  });

  it('sells at the bid, paying the fee in the quote asset', () => {
    const { exchange } = setup();
    const o = exchange.createOrder(order({ side: 'sell', amount: '0.1' }));
    expect(o).toMatchObject({ average: '89990.00', filled: '0.10000', cost: '8999', fee: { currency: 'USDT', cost: '8.999' } });
    expect(exchange.fetchBalance('alice').free).toEqual({ BTC: '0.4', USDT: '18990.001' });
  });

  it('rounds the fee up to 8 decimals', () => {
    const script = scriptedFeed();
    script.set('SHIB/USDT', '0.00000849', '0.00000851');
    const exchange = createPaperExchange({ market: script.feed, balances: { alice: { SHIB: '1000000' } } });
    // 999 999 x 0.00000849 = 8.48999151; the fee 0.00848999151 becomes 0.00849.
    const o = exchange.createOrder(order({ symbol: 'SHIB/USDT', side: 'sell', amount: '999999.9' }));
    expect(o.amount).toBe('999999');
    expect(o.cost).toBe('8.48999151');
    expect(o.fee.cost).toBe('0.00849');
    expect(exchange.fetchBalance('alice').free).toEqual({ SHIB: '1', USDT: '8.48150151' });
  });

  it('charges nothing with a zero fee rate', () => {
    const script = scriptedFeed();
    script.set(BTC, '89990.00', '90010.00');
    const exchange = createPaperExchange({ market: script.feed, feeRate: '0', balances: { alice: { USDT: '1000' } } });
    const o = exchange.createOrder(order({ amount: '0.001' }));
    expect(o.fee).toEqual({ currency: 'BTC', cost: '0', rate: '0' });
    expect(exchange.fetchBalance('alice').free.BTC).toBe('0.001');
  });

  it('charges a buy fee in the quote on top of the cost when fees are taken in the quote', () => {
    const script = scriptedFeed();
    script.set(BTC, '89990.00', '90010.00');
    const exchange = createPaperExchange({ market: script.feed, feeAsset: 'quote', balances: { alice: { USDT: '1000', BTC: '0.1' } } });
    const buy = exchange.createOrder(order({ cost: '100' }));
    // 0.00111 BTC for 99.9111 USDT, the whole amount received; the fee 0.0999111 USDT comes on top.
    expect(buy).toMatchObject({ amount: '0.00111', cost: '99.9111', fee: { currency: 'USDT', cost: '0.0999111' } });
    expect(exchange.fetchBalance('alice').free).toEqual({ BTC: '0.10111', USDT: '899.9889889' });
    // Sells pay in the quote they receive, as before.
    const sell = exchange.createOrder(order({ side: 'sell', amount: '0.1' }));
    expect(sell).toMatchObject({ cost: '8999', fee: { currency: 'USDT', cost: '8.999' } });
    // A buy must cover its fee too: 899.9889889 USDT buys no 899.99 USDT of BTC with its fee.
    const poor = createPaperExchange({ market: script.feed, feeAsset: 'quote', balances: { bob: { USDT: '90.01' } } });
    expect(failureOf(() => poor.createOrder(order({ accountId: 'bob', amount: '0.001' })))).toMatchObject({ kind: 'insufficient_funds', required: '90.10001' });
    expect(() => createPaperExchange({ market: script.feed, feeAsset: 'bnb' as never })).toThrow(RangeError);
  });
});

describe('limit orders', () => {
  it('rest with their quote in used, then fill at their price when the ask comes down', () => {
    const { exchange, script } = setup();
    const o = exchange.createOrder(order({ type: 'limit', price: '89000.009', amount: '0.01' }));
    // A buy price is rounded down to the tick: never pay more than asked.
    expect(o).toMatchObject({ status: 'open', price: '89000.00', amount: '0.01000', filled: '0.00000', remaining: '0.01000', average: null, cost: '0' });
    expect(exchange.fetchBalance('alice').used.USDT).toBe('890');
    expect(exchange.fetchBalance('alice').free.USDT).toBe('9110');
    expect(exchange.fetchOpenOrders('alice').map((x) => x.id)).toEqual([o.id]);

    script.set(BTC, '88995.00', '89000.01');
    expect(exchange.onTick()).toEqual([]);
    script.set(BTC, '88990.00', '89000.00');
    const [filled, ...others] = exchange.onTick();
    expect(others).toEqual([]);
    expect(filled).toMatchObject({ id: o.id, status: 'closed', average: '89000.00', filled: '0.01000', remaining: '0.00000', cost: '890' });
    expect(filled!.fee).toEqual({ currency: 'BTC', cost: '0.00001', rate: '0.001' });
    expect(filled!.lastTradeTimestamp).toBe(DEFAULT_START_MS + 3000);
    expect(exchange.fetchBalance('alice').free).toEqual({ BTC: '0.50999', USDT: '9110' });
    expect(exchange.fetchBalance('alice').used).toEqual({ BTC: '0', USDT: '0' });
    expect(exchange.fetchOpenOrders('alice')).toEqual([]);
    expect(exchange.onTick()).toEqual([]);
  });

  it('rest with their base in used, then fill at their price when the bid comes up', () => {
    const { exchange, script } = setup();
    const o = exchange.createOrder(order({ side: 'sell', type: 'limit', price: '91000.001', amount: '0.2' }));
    // A sell price is rounded up to the tick: never get less than asked.
    expect(o.price).toBe('91000.01');
    expect(exchange.fetchBalance('alice').free.BTC).toBe('0.3');
    expect(exchange.fetchBalance('alice').used.BTC).toBe('0.2');
    script.set(BTC, '91500.00', '91510.00');
    expect(exchange.onTick().map((x) => x.id)).toEqual([o.id]);
    // 0.2 x 91000.01 = 18200.002; fee 18.200002.
    expect(exchange.fetchOrder('alice', o.id)).toMatchObject({ average: '91000.01', cost: '18200.002', fee: { currency: 'USDT', cost: '18.200002' } });
    expect(exchange.fetchBalance('alice').free).toEqual({ BTC: '0.3', USDT: '28181.801998' });
    expect(exchange.fetchBalance('alice').used).toEqual({ BTC: '0', USDT: '0' });
  });

  it('fill at once at the better market price when marketable', () => {
    const { exchange } = setup();
    const buy = exchange.createOrder(order({ type: 'limit', price: '95000', amount: '0.01' }));
    expect(buy).toMatchObject({ status: 'closed', price: '95000.00', average: '90010.00', cost: '900.1' });
    const sell = exchange.createOrder(order({ side: 'sell', type: 'limit', price: '80000', amount: '0.01' }));
    expect(sell).toMatchObject({ status: 'closed', price: '80000.00', average: '89990.00', cost: '899.9' });
  });

  it('check a buy against its own price, even when it would fill cheaper', () => {
    const { exchange } = setup();
    // 0.11 BTC is 9 901.1 USDT at the ask but 10 450 at the limit price.
    expect(failureOf(() => exchange.createOrder(order({ type: 'limit', price: '95000', amount: '0.11' })))).toEqual({
      kind: 'insufficient_funds',
      asset: 'USDT',
      required: '10450',
      available: '10000',
    });
  });

  it('fill oldest first on one tick', () => {
    const { exchange, script } = setup();
    const a = exchange.createOrder(order({ type: 'limit', price: '89000', amount: '0.001' }));
    const b = exchange.createOrder(order({ type: 'limit', price: '89500', amount: '0.001' }));
    const c = exchange.createOrder(order({ type: 'limit', price: '80000', amount: '0.001' }));
    script.set(BTC, '88000.00', '88010.00');
    expect(exchange.onTick().map((x) => x.id)).toEqual([a.id, b.id]);
    expect(exchange.fetchOpenOrders('alice').map((x) => x.id)).toEqual([c.id]);
  });
});

describe('cancelOrder', () => {
  it('frees the funds of an open order, and is idempotent', () => {
    const { exchange } = setup();
    const before = exchange.fetchBalance('alice');
    const o = exchange.createOrder(order({ type: 'limit', price: '80000', amount: '0.05' }));
    const canceled = exchange.cancelOrder('alice', o.id);
    expect(canceled).toMatchObject({ status: 'canceled', filled: '0.00000', remaining: '0.05000', cost: '0', average: null });
    expect(exchange.fetchBalance('alice')).toEqual(before);
    expect(exchange.cancelOrder('alice', o.id)).toEqual(canceled);
    expect(exchange.fetchBalance('alice')).toEqual(before);
  });

  it('refuses closed, unknown and other accounts’ orders', () => {
    const { exchange } = setup();
    const closed = exchange.createOrder(order({ amount: '0.001' }));
    expect(failureOf(() => exchange.cancelOrder('alice', closed.id))).toEqual({ kind: 'invalid_order', reason: 'order_not_open' });
    expect(failureOf(() => exchange.cancelOrder('alice', '999'))).toEqual({ kind: 'order_not_found', id: '999' });
    const open = exchange.createOrder(order({ type: 'limit', price: '80000', amount: '0.001' }));
    expect(failureOf(() => exchange.cancelOrder('bob', open.id))).toEqual({ kind: 'order_not_found', id: open.id });
    expect(failureOf(() => exchange.fetchOrder('bob', open.id))).toEqual({ kind: 'order_not_found', id: open.id });
    expect(exchange.fetchOrders('bob')).toEqual([]);
  });
});

describe('refusals change nothing', () => {
  const refusals: [string, Partial<CreateOrderParams>, PaperFailure][] = [
    ['an amount that rounds to zero', { amount: '0.000009' }, { kind: 'invalid_order', reason: 'below_min_amount' }],
    ['an order below 5 USDT', { amount: '0.00005' }, { kind: 'invalid_order', reason: 'below_min_cost' }],
    ['a cost buy below 5 USDT', { cost: '4.99' }, { kind: 'invalid_order', reason: 'below_min_cost' }],
    ['a cost buy whose rounded amount falls below 5 USDT', { cost: '5.3' }, { kind: 'invalid_order', reason: 'below_min_cost' }],
    ['a limit order below 5 USDT at its price', { type: 'limit', price: '40000', amount: '0.0001' }, { kind: 'invalid_order', reason: 'below_min_cost' }],
    ['a negative amount', { amount: '-1' }, { kind: 'invalid_order', reason: 'bad_amount' }],
    ['an exponent', { amount: '1e-3' }, { kind: 'invalid_order', reason: 'bad_amount' }],
    ['a zero amount', { amount: '0' }, { kind: 'invalid_order', reason: 'bad_amount' }],
    ['no amount', {}, { kind: 'invalid_order', reason: 'bad_amount' }],
    ['a number instead of a string', { amount: 0.01 as unknown as string }, { kind: 'invalid_order', reason: 'bad_amount' }],
    ['both amount and cost', { amount: '0.01', cost: '100' }, { kind: 'invalid_order', reason: 'bad_cost' }],
    ['a cost on a sell', { side: 'sell', cost: '100' }, { kind: 'invalid_order', reason: 'bad_cost' }],
    ['a cost on a limit order', { type: 'limit', price: '90000', cost: '100' }, { kind: 'invalid_order', reason: 'bad_cost' }],
    ['a limit order without price', { type: 'limit', amount: '0.01' }, { kind: 'invalid_order', reason: 'bad_price' }],
    ['a price below one tick', { type: 'limit', price: '0.001', amount: '0.01' }, { kind: 'invalid_order', reason: 'bad_price' }],
    ['a price on a market order', { price: '90000', amount: '0.01' }, { kind: 'invalid_order', reason: 'bad_price' }],
    ['a bad side', { side: 'long' as 'buy', amount: '0.01' }, { kind: 'invalid_order', reason: 'bad_side' }],
    ['a bad type', { type: 'stop' as 'limit', amount: '0.01' }, { kind: 'invalid_order', reason: 'bad_type' }],
    ['an empty client order id', { clientOrderId: '', amount: '0.01' }, { kind: 'invalid_order', reason: 'bad_client_order_id' }],
    ['a 37-character client order id', { clientOrderId: 'x'.repeat(37), amount: '0.01' }, { kind: 'invalid_order', reason: 'bad_client_order_id' }],
    ['an unknown symbol', { symbol: 'FOO/USDT', amount: '1' }, { kind: 'bad_symbol', symbol: 'FOO/USDT' }],
    ['a buy beyond the USDT', { amount: '0.2' }, { kind: 'insufficient_funds', asset: 'USDT', required: '18002', available: '9920' }],
    ['a sell beyond the BTC', { side: 'sell', amount: '0.50001' }, { kind: 'insufficient_funds', asset: 'BTC', required: '0.50001', available: '0.5' }],
    ['a sell of a coin never held', { symbol: 'ETH/USDT', side: 'sell', amount: '1' }, { kind: 'insufficient_funds', asset: 'ETH', required: '1', available: '0' }],
  ];

  it.each(refusals)('refuses %s', (_name, overrides, failure) => {
    const { exchange } = setup();
    exchange.createOrder(order({ type: 'limit', price: '80000', amount: '0.001' }));
    const before = stateOf(exchange, ['alice', 'bob']);
    expect(failureOf(() => exchange.createOrder(order(overrides)))).toEqual(failure);
    expect(stateOf(exchange, ['alice', 'bob'])).toBe(before);
  });

  it('throws a PaperExchangeError with a kind', () => {
    const { exchange } = setup();
    try {
      exchange.createOrder(order({ amount: '0' }));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PaperExchangeError);
      expect((error as PaperExchangeError).kind).toBe('invalid_order');
      expect((error as Error).message).toContain('bad_amount');
    }
  });
});

describe('client order ids', () => {
  it('return the first order for a repeated id, never a second one', () => {
    const { exchange } = setup();
    const first = exchange.createOrder(order({ clientOrderId: 'dca-1-first', amount: '0.01' }));
    const balance = exchange.fetchBalance('alice');
    // Even with other parameters, and even though the funds would no longer suffice.
    const again = exchange.createOrder(order({ clientOrderId: 'dca-1-first', amount: '0.2', side: 'sell', type: 'limit', price: '1' }));
    expect(again).toEqual(first);
    expect(exchange.fetchOrders('alice')).toHaveLength(1);
    expect(exchange.fetchBalance('alice')).toEqual(balance);
    expect(exchange.fetchOrderByClientOrderId('alice', 'dca-1-first')).toEqual(first);
  });

  it('are per account', () => {
    const { exchange } = setup();
    const a = exchange.createOrder(order({ accountId: 'alice', clientOrderId: 'same', amount: '0.001' }));
    const b = exchange.createOrder(order({ accountId: 'bob', clientOrderId: 'same', amount: '0.001' }));
    expect(a.id).not.toBe(b.id);
    expect(failureOf(() => exchange.fetchOrderByClientOrderId('carol', 'same'))).toEqual({ kind: 'order_not_found', id: 'same' });
  });

  it('are free again after a refused attempt', () => {
    const { exchange } = setup();
    expect(failureOf(() => exchange.createOrder(order({ clientOrderId: 'retry', amount: '1' }))).kind).toBe('insufficient_funds');
    expect(exchange.createOrder(order({ clientOrderId: 'retry', amount: '0.001' })).status).toBe('closed');
  });
});

describe('the rest of the surface', () => {
  it('hands out copies, not its own records', () => {
    const { exchange } = setup();
    const o = exchange.createOrder(order({ type: 'limit', price: '80000', amount: '0.001' }));
    o.status = 'closed';
    o.fee.cost = '1';
    exchange.fetchOpenOrders('alice')[0]!.amount = '9';
    expect(exchange.fetchOrder('alice', o.id)).toMatchObject({ status: 'open', amount: '0.00100', fee: { cost: '0' } });
  });

  it('lists orders by symbol', () => {
    const { exchange } = setup();
    exchange.deposit('alice', 'ETH', '1');
    exchange.createOrder(order({ type: 'limit', price: '80000', amount: '0.001' }));
    exchange.createOrder(order({ symbol: 'ETH/USDT', side: 'sell', type: 'limit', price: '9000', amount: '0.5' }));
    expect(exchange.fetchOpenOrders('alice', 'ETH/USDT').map((x) => x.symbol)).toEqual(['ETH/USDT']);
    expect(exchange.fetchOrders('alice').map((x) => x.symbol)).toEqual([BTC, 'ETH/USDT']);
  });

  it('funds accounts with deposit and shows an unknown account as empty', () => {
    const { exchange } = setup();
    exchange.deposit('carol', 'USDT', '12.5');
    exchange.deposit('carol', 'USDT', '0.5');
    expect(exchange.fetchBalance('carol')).toMatchObject({ free: { USDT: '13' }, used: { USDT: '0' }, total: { USDT: '13' } });
    expect(exchange.fetchBalance('nobody')).toMatchObject({ free: {}, used: {}, total: {} });
    expect(() => exchange.deposit('carol', 'USDT', '-1')).toThrow(RangeError);
  });

  it('refuses a bad fee rate or starting balance', () => {
    const { feed } = scriptedFeed();
    expect(() => createPaperExchange({ market: feed, feeRate: '1' })).toThrow(RangeError);
    expect(() => createPaperExchange({ market: feed, feeRate: '-0.001' })).toThrow(RangeError);
    expect(() => createPaperExchange({ market: feed, balances: { a: { USDT: 'lots' } } })).toThrow(RangeError);
  });

  it('describes its markets like ccxt', () => {
    const exchange = createPaperExchange({ market: createMarket(1) });
    const markets = exchange.fetchMarkets();
    expect(markets).toHaveLength(PAPER_MARKETS.length);
    expect(markets.find((m) => m.symbol === BTC)).toEqual({
      id: 'BTCUSDT',
      symbol: BTC,
      base: 'BTC',
      quote: 'USDT',
      type: 'spot',
      spot: true,
      active: true,
      taker: '0.001',
      maker: '0.001',
      precision: { amount: '0.00001', price: '0.01' },
      limits: { amount: { min: '0.00001', max: null }, price: { min: '0.01', max: null }, cost: { min: '5', max: null } },
    });
  });

  it('serves the simulated ticker', () => {
    const market = createMarket(1);
    const exchange = createPaperExchange({ market });
    market.tick(60);
    expect(exchange.fetchTicker(BTC)).toEqual(market.ticker(BTC));
    expect(failureOf(() => exchange.fetchTicker('FOO/USDT'))).toEqual({ kind: 'bad_symbol', symbol: 'FOO/USDT' });
  });

  it('fills market orders against the simulated market at its ask and bid', () => {
    const market = createMarket(4);
    const exchange = createPaperExchange({ market, balances: { alice: { USDT: '1000' } } });
    market.tick(30);
    const { bid, ask } = market.bestPrices('ETH/USDT');
    const buy = exchange.createOrder(order({ symbol: 'ETH/USDT', amount: '0.1' }));
    expect(buy.average).toBe(ask);
    const sell = exchange.createOrder(order({ symbol: 'ETH/USDT', side: 'sell', amount: '0.05' }));
    expect(sell.average).toBe(bid);
  });
});

// ---------------------------------------------------------------------------
// Properties over random sequences of orders against the simulated market

const SYMBOLS = ['BTC/USDT', 'ETH/USDT', 'DOGE/USDT', 'SHIB/USDT', 'XRP/USDT'];
const ACCOUNTS = ['a', 'b'];
const START: Record<string, string> = { USDT: '10000', BTC: '0.1', ETH: '2', DOGE: '20000', SHIB: '100000000', XRP: '1000' };

type Command =
  | { op: 'order'; account: number; symbol: number; side: 'buy' | 'sell'; type: 'market' | 'limit'; byCost: boolean; notional: number; offsetBp: number }
  | { op: 'retry'; account: number; pick: number; side: 'buy' | 'sell'; notional: number }
  | { op: 'cancel'; account: number; pick: number }
  | { op: 'tick'; seconds: number };

/** Quote value in cents: often around the 5 USDT minimum, else up to beyond the 10 000 USDT balance. */
const notionalArb = fc.oneof(fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 1, max: 1_500_000 }));

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('order' as const),
      account: fc.nat(ACCOUNTS.length - 1),
      symbol: fc.nat(SYMBOLS.length - 1),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      type: fc.constantFrom('market' as const, 'limit' as const),
      byCost: fc.boolean(),
      notional: notionalArb,
      offsetBp: fc.integer({ min: -60, max: 60 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('retry' as const),
      account: fc.nat(ACCOUNTS.length - 1),
      pick: fc.nat(),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      notional: notionalArb,
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('cancel' as const), account: fc.nat(ACCOUNTS.length - 1), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('tick' as const), seconds: fc.integer({ min: 1, max: 900 }) }) },
);

/** Checks every invariant of one account; throws with the first one broken. */
const checkAccount = (exchange: PaperExchange, accountId: string): void => {
  const balance = exchange.fetchBalance(accountId);
  const orders = exchange.fetchOrders(accountId);

  // (b) no negative balance, ever.
  for (const asset of Object.keys(balance.total)) {
    expect(new Big(balance.free[asset]!).gte(0)).toBe(true);
    expect(new Big(balance.used[asset]!).gte(0)).toBe(true);
  }

  // (a) conservation, exactly: start + received - paid - fees == free + used.
  const flows = new Map<string, Big>(Object.entries(START).map(([asset, amount]) => [asset, new Big(amount)]));
  const add = (asset: string, amount: Big) => flows.set(asset, (flows.get(asset) ?? new Big(0)).plus(amount));
  for (const o of orders) {
    if (o.status !== 'closed') continue;
    const m = marketOf(o.symbol);
    const [received, paid] = o.side === 'buy' ? [m.base, m.quote] : [m.quote, m.base];
    add(received, new Big(o.side === 'buy' ? o.filled : o.cost));
    add(paid, new Big(o.side === 'buy' ? o.cost : o.filled).neg());
    add(o.fee.currency, new Big(o.fee.cost).neg());
  }
  for (const [asset, expected] of flows) expect(`${asset} ${balance.total[asset] ?? '0'}`).toBe(`${asset} ${expected.toFixed()}`);

  // Resting orders hold exactly their funds in `used`.
  const held = new Map<string, Big>();
  for (const o of orders) {
    if (o.status !== 'open') continue;
    const m = marketOf(o.symbol);
    const [asset, amount] = o.side === 'buy' ? [m.quote, new Big(o.amount).times(o.price)] : [m.base, new Big(o.amount)];
    held.set(asset, (held.get(asset) ?? new Big(0)).plus(amount));
  }
  for (const asset of Object.keys(balance.used)) expect(`${asset} ${balance.used[asset]}`).toBe(`${asset} ${(held.get(asset) ?? new Big(0)).toFixed()}`);

  for (const o of orders) {
    const m = marketOf(o.symbol);
    expect(new Big(o.filled).plus(o.remaining).eq(o.amount)).toBe(true);
    expect(new Big(o.amount).gte(m.minAmount)).toBe(true);
    if (o.status !== 'closed') {
      expect(o.filled).toBe(new Big(0).toFixed(m.amountStep.split('.')[1]?.length ?? 0));
      continue;
    }
    // (c) a fill's cost is filled x average (exact here, so certainly within the quote precision).
    expect(new Big(o.cost).eq(new Big(o.filled).times(o.average!))).toBe(true);
    expect(new Big(o.cost).gte(m.minCost)).toBe(true);
    // The fee is the rate on what the order received, rounded up to 8 decimals.
    const base = o.side === 'buy' ? new Big(o.filled) : new Big(o.cost);
    expect(o.fee.cost).toBe(base.times('0.001').round(8, Big.roundUp).toFixed());
  }

  // (d) one order per client order id.
  expect(new Set(orders.map((o) => o.clientOrderId)).size).toBe(orders.length);
};

const runCommands = (seed: number, commands: Command[]) => {
  const market = createMarket(seed, DEFAULT_START_MS, SYMBOLS.map(marketOf));
  const exchange = createPaperExchange({ market, balances: Object.fromEntries(ACCOUNTS.map((id) => [id, START])) });
  const accepted = new Map<string, PaperOrder>(); // account + clientOrderId -> the order first returned
  let next = 0;

  for (const command of commands) {
    if (command.op === 'tick') {
      const openBefore = new Set(ACCOUNTS.flatMap((id) => exchange.fetchOpenOrders(id).map((o) => o.id)));
      market.tick(command.seconds);
      for (const o of exchange.onTick()) {
        expect(openBefore.has(o.id)).toBe(true);
        expect(o.status).toBe('closed');
        // A resting order fills at its own price, and only once the market has crossed it.
        const { bid, ask } = market.bestPrices(o.symbol);
        expect(o.average).toBe(o.price);
        expect(o.side === 'buy' ? new Big(ask).lte(o.price) : new Big(bid).gte(o.price)).toBe(true);
      }
      for (const id of ACCOUNTS) {
        for (const o of exchange.fetchOpenOrders(id)) {
          const { bid, ask } = market.bestPrices(o.symbol);
          expect(o.side === 'buy' ? new Big(ask).gt(o.price) : new Big(bid).lt(o.price)).toBe(true);
        }
      }
    } else {
      const accountId = ACCOUNTS[command.account]!;
      const before = stateOf(exchange, ACCOUNTS);
      let call: () => PaperOrder;
      let clientOrderId = '';
      if (command.op === 'cancel') {
        const mine = exchange.fetchOrders(accountId);
        if (mine.length === 0) continue;
        const target = mine[command.pick % mine.length]!;
        call = () => exchange.cancelOrder(accountId, target.id);
      } else {
        const reuse = command.op === 'retry' ? [...accepted.keys()].filter((key) => key.startsWith(`${accountId}:`)) : [];
        const symbol = command.op === 'order' ? SYMBOLS[command.symbol]! : SYMBOLS[command.pick % SYMBOLS.length]!;
        const type = command.op === 'order' ? command.type : 'market';
        const notional = new Big(command.notional).div(100);
        const { last } = market.bestPrices(symbol);
        const price = new Big(last).times(1 + (command.op === 'order' ? command.offsetBp : 0) / 10_000);
        // Twelve decimals on purpose: more than any step, so rounding down is exercised.
        const amount = notional.div(price).toFixed(12);
        const pick = command.op === 'retry' ? command.pick : 0;
        clientOrderId = reuse.length > 0 ? reuse[pick % reuse.length]!.split(':')[1]! : `c${(next += 1)}`;
        const params: CreateOrderParams = { accountId, symbol, side: command.side, type, clientOrderId };
        if (command.op === 'order' && command.byCost && type === 'market' && command.side === 'buy') params.cost = notional.toFixed();
        else params.amount = amount;
        if (type === 'limit') params.price = price.toFixed(12);
        call = () => exchange.createOrder(params);
      }

      let result: PaperOrder | undefined;
      try {
        result = call();
      } catch (error) {
        if (!(error instanceof PaperExchangeError)) throw error;
        expect(['invalid_order', 'insufficient_funds']).toContain(error.kind);
        // (e) and every other refusal: nothing changed.
        expect(stateOf(exchange, ACCOUNTS)).toBe(before);
      }
      if (result && command.op !== 'cancel') {
        const key = `${accountId}:${clientOrderId}`;
        const first = accepted.get(key);
        if (first) {
          // (d) a repeated id returns the first order (as it is now), and books nothing.
          expect(result.id).toBe(first.id);
          expect(stateOf(exchange, ACCOUNTS)).toBe(before);
        } else {
          accepted.set(key, result);
          // A new order either filled at once at the touch, or rests away from it.
          const { bid, ask } = market.bestPrices(result.symbol);
          const touch = result.side === 'buy' ? ask : bid;
          if (result.status === 'closed') expect(result.average).toBe(touch);
          else expect(result.side === 'buy' ? new Big(touch).gt(result.price) : new Big(touch).lt(result.price)).toBe(true);
        }
      }
    }
    for (const id of ACCOUNTS) checkAccount(exchange, id);
  }
  // (d) the number of orders is the number of distinct accepted ids.
  expect(ACCOUNTS.map((id) => exchange.fetchOrders(id).length).reduce((a, b) => a + b, 0)).toBe(accepted.size);
  return { exchange, accepted };
};

describe('properties over random order sequences', () => {
  it('conserve every asset to the last decimal, never go negative, cost = filled x average, one order per client id', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.array(commandArb, { minLength: 1, maxLength: 40 }), (seed, commands) => {
        runCommands(seed, commands);
      }),
      { numRuns: 150 },
    );
  });

  it('exercise fills, rests, cancels and refusals', () => {
    // Guards the property above against vacuity: a fixed run must reach every path.
    const commands = fc.sample(fc.array(commandArb, { minLength: 300, maxLength: 300 }), { seed: 42, numRuns: 1 })[0]!;
    const { exchange } = runCommands(42, commands);
    const orders = ACCOUNTS.flatMap((id) => exchange.fetchOrders(id));
    const statuses = new Set(orders.map((o) => `${o.type}:${o.side}:${o.status}`));
    for (const wanted of ['market:buy:closed', 'market:sell:closed', 'limit:buy:closed', 'limit:sell:closed', 'limit:buy:canceled']) {
      expect(statuses).toContain(wanted);
    }
    // Some limits filled later, at their own price, not as they were placed.
    expect(orders.some((o) => o.type === 'limit' && o.status === 'closed' && o.lastTradeTimestamp! > o.timestamp)).toBe(true);
  });

  it('refuse orders below the minimum amount or cost and change nothing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(...PAPER_MARKETS.map((m) => m.symbol)),
        fc.constantFrom('buy' as const, 'sell' as const),
        fc.constantFrom('market' as const, 'limit' as const),
        fc.boolean(),
        // Quote value up to 4.9 USDT (below 5 even after a 1 % price offset), down to a hundredth of a cent.
        fc.integer({ min: 1, max: 49_000 }),
        fc.integer({ min: -100, max: 100 }),
        (seed, symbol, side, type, byCost, notionalBp, offsetBp) => {
          const market = createMarket(seed);
          market.tick(60);
          const m = marketOf(symbol);
          const rich = { USDT: '1000000', [m.base]: new Big(1_000_000).div(m.startPrice).round(0).toFixed() };
          const exchange = createPaperExchange({ market, balances: { a: rich } });
          const before = stateOf(exchange, ['a']);
          const notional = new Big(notionalBp).div(10_000);
          const price = new Big(market.price(symbol)).times(1 + offsetBp / 10_000);
          const params: CreateOrderParams = { accountId: 'a', symbol, side, type, clientOrderId: 'tiny' };
          if (byCost && type === 'market' && side === 'buy') params.cost = notional.toFixed();
          else params.amount = notional.div(price).toFixed(12);
          if (type === 'limit') params.price = price.toFixed(12);
          const failure = failureOf(() => exchange.createOrder(params));
          expect(failure.kind).toBe('invalid_order');
          expect(['below_min_amount', 'below_min_cost']).toContain((failure as { reason: string }).reason);
          expect(stateOf(exchange, ['a'])).toBe(before);
          expect(exchange.fetchOrders('a')).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
